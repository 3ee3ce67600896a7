// The pragma must be followed by a __global__ or __device__ function definition.
#pragma cp composite
__device__ float table[16];

#pragma cp composite
__device__ float declared_only(float x);

#pragma cp composite
float on_the_host(float x) { return x * 2.0f; }

#pragma cp composite
template <typename T> __global__ void generic(T *x) { x[0] += T(1); }
