// --algo fast: the output selects the fast family; the converted code itself is the same
// as for the other families (it calls the generic names).
#pragma cp composite
__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
