// md.cu: the stand-in project of the cpconvert-tune tests. Only its pragma lines matter: the
// fake build (fakebuild.py) reads them and writes a program whose numbers and run time depend
// on them as fakebuild.py says.
#include <cuda_runtime.h>

#pragma cp composite accumulate(composite) // the pair forces
__global__ void forces(const float *x, float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float ax = 0, tmp = 0, fy = 0, fz = 0, r2 = 0;
  for (int j = 0; j < n; j++) {
    r2 = (x[j] - x[i]) * (x[j] - x[i]) + 1.0f;
    tmp = 1.0f / r2;
    ax += tmp * (x[j] - x[i]);
    fy += tmp;
    fz -= tmp * tmp;
  }
  f[i] = ax + fy + fz;
}

#pragma cp composite
template <int B>
__global__ void __launch_bounds__(256) energy(const float *x, float *e, int n) {
  __shared__ float s[B];
  s[threadIdx.x] = x[blockIdx.x * B + threadIdx.x] * x[blockIdx.x * B + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0;
    for (int k = 0; k < B; k++) sum += s[k];
    atomicAdd(e, sum);
  }
}

#pragma cp composite scope(all) \
    accumulate(composite)
__device__ __forceinline__ void
update(float *v, const float *f, float dt, int n) {
  for (int i = 0; i < n; i++) v[i] += dt * f[i];
}
