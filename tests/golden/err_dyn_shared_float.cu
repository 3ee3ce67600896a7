// A dynamic shared-memory array that a converted kernel declares composite, declared
// under the same name in a kernel that is not converted: every such declaration in the
// file names one array, so the float one would need the converted type. Refused at it,
// located (before: an internal error from the verify pass).
#pragma cp composite
__global__ void rotate(float *x) {
  extern __shared__ float s[];
  s[threadIdx.x] = x[threadIdx.x] * 2.0f;
  __syncthreads();
  x[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

__global__ void first(float *y) {
  extern __shared__ float s[];
  s[threadIdx.x] = y[threadIdx.x];
  __syncthreads();
  y[threadIdx.x] = s[0];
}
