// Rule local-type through a type macro: a declaration whose float type is spelled by an
// object-like macro (#define REAL float) is retyped at the macro's use; the macro itself is
// not edited (float code elsewhere keeps using it).
#define REAL float
#define REAL4 float4

#pragma cp composite
__global__ void sum(REAL *x, const REAL4 *p, int n) {
  __shared__ REAL part[128];
  REAL s = 0.0f;
  REAL4 q = p[threadIdx.x];
  for (int j = 0; j < n; j++)
    s += x[j] * q.x;
  part[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    REAL t = 0.0f;
    for (int k = 0; k < blockDim.x; k++)
      t += part[k];
    x[0] = t;
  }
}
