// A converted __device__ function whose signature turns composite, called from a
// function that is not converted.
#pragma cp composite
__device__ float twice(float x) { return 2.0f * x; }

__global__ void caller(float *y) { y[0] = twice(y[0]); }
