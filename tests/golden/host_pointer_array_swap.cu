// Double buffering through arrays of device pointers indexed by a swapped read/write index
// (the CUDA samples' n-body shape): `float4 *dPos[2]` at file scope and `float4 *dVel[2]`
// local, each element allocated with cudaMalloc, and every step launched with
// `dPos[cur], dPos[1 - cur]`. Each array gets a companion array of the same shape
// (`float4 *dPos_err[2] = {};`), each element's allocation, copy and free is followed by
// its companion's with the same index, and each launch passes `dPos_err[cur]`,
// `dPos_err[1 - cur]` (before: refused, "an element of an array of device pointers, which
// cpconvert does not pair"). The kernel reads the old positions with their error terms,
// since the buffer it reads is the one the step before wrote.
#include <cstdio>
#include <utility>

#pragma cp composite
__global__ void step(const float4 *oldPos, float4 *newPos, const float4 *oldVel,
                     float4 *newVel, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 p = oldPos[i];
    float4 v = oldVel[i];
    v.x -= dt * p.x;
    v.y -= dt * p.y;
    p.x += dt * v.x;
    p.y += dt * v.y;
    newPos[i] = p;
    newVel[i] = v;
  }
}

float4 *dPos[2];

int main()
{
  const int n = 256;
  float4 *dVel[2];
  for (int k = 0; k < 2; k++)
    cudaMalloc(&dVel[k], n * sizeof(float4));
  cudaMalloc(&dPos[0], n * sizeof(float4));
  cudaMalloc(&dPos[1], n * sizeof(float4));
  float4 h[n];
  for (int i = 0; i < n; i++)
    h[i] = make_float4(1.0f + 0.001f * i, 0.0f, 0.0f, 1.0f);
  int cur = 0;
  cudaMemcpy(dPos[cur], h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(dVel[cur], 0, sizeof h);
  for (int s = 0; s < 1000; s++) {
    step<<<(n + 127) / 128, 128>>>(dPos[cur], dPos[1 - cur], dVel[cur], dVel[(cur + 1) % 2],
                                   0.01f, n);
    cur = 1 - cur;
  }
  std::swap(dVel[0], dVel[1]);
  cudaMemcpy(h, dPos[cur], sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g %.9g\n", h[0].x, h[n - 1].x);
  for (int k = 0; k < 2; k++) {
    cudaFree(dPos[k]);
    cudaFree(dVel[k]);
  }
  return 0;
}
