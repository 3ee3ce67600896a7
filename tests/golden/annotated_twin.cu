// A converted __device__ function whose signature turns composite, also called from a
// function that is not converted: that caller keeps the float original, and the
// composite copy twice_cp goes right after it for converted callers.
#pragma cp composite
__device__ float twice(float x) { return 2.0f * x; }

__global__ void caller(float *y) { y[0] = twice(y[0]); }

#pragma cp composite
__global__ void converted(float *y) { y[0] = twice(y[0]) + 1.0f; }
