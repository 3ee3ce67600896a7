// Float arithmetic written by macros converts at the macro's use: the expansion is
// written out from the AST with the composite operations in it (SPH and MD codes keep
// SQR, CUBE and DOT as macros). Macros the conversion leaves alone (integer arithmetic,
// a float constant) stay as written.
#include <cstdio>

#define SQR(x) ((x) * (x))
#define CUBE(x) ((x) * (x) * (x))
#define DOT(a, b) ((a).x * (b).x + (a).y * (b).y + (a).z * (b).z)
#define NORM2(a) DOT(a, a)
#define HALF 0.5f
#define SCALE(x) 2.0f * x
#define NEG -
#define MASS(i) m[i]
#define KERNEL_W(r2, h2) (315.0f / 64.0f * CUBE((h2) - (r2)))
#define ACC(p, i, v) (p)[i] += (v)

#pragma cp composite
__global__ void density(float *rho, const float3 *pos, const float *m, float h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float h2 = SQR(h);
  float sum = 0.0f;
  for (int j = 0; j < n; j++) {
    float3 d = make_float3(pos[i].x - pos[j].x, pos[i].y - pos[j].y, pos[i].z - pos[j].z);
    float r2 = NORM2(d);
    if (r2 < h2)
      sum += MASS(j) * KERNEL_W(r2, h2);
  }
  int k = SQR(i % 3);
  ACC(rho, i, sum * HALF + SCALE(NEG sum) * 0.0f + k * 0.0f);
}

int main() {
  const int n = 64;
  float3 hp[n];
  float hm[n];
  for (int i = 0; i < n; i++) {
    hp[i] = make_float3(0.013f * i, 0.007f * (i % 5), 0.011f * (i % 7));
    hm[i] = 1.0f + 0.001f * i;
  }
  float3 *pos;
  float *m, *rho;
  cudaMalloc(&pos, n * sizeof(float3));
  cudaMalloc(&m, n * sizeof(float));
  cudaMalloc(&rho, n * sizeof(float));
  cudaMemcpy(pos, hp, n * sizeof(float3), cudaMemcpyHostToDevice);
  cudaMemcpy(m, hm, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(rho, 0, n * sizeof(float));
  density<<<2, 32>>>(rho, pos, m, 0.1f, n);
  float hr[n];
  cudaMemcpy(hr, rho, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("%.9g\n", hr[i]);
  return 0;
}
