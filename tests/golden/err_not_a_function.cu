// The pragma must be followed by a __global__ or __device__ function definition.
#pragma cp composite
__device__ float table[16];

#pragma cp composite
__device__ float declared_only(float x);

#pragma cp composite
float on_the_host(float x) { return x * 2.0f; }
