#include "kernels.cuh"
