// A struct local whose float members are summed into (an option pricer's running
// {Expected, Confidence}) pairs like a buffer: a zeroed companion local of its type holds
// the members' error halves, every member read combines both and every store writes both.
// In scope(all) a struct with a written float member pairs; in scope(accumulators) one
// summed into across a loop's iterations. Used whole (copied, passed) it would stay float,
// with a warning at that use.
#include <cstdio>

typedef struct {
  float Expected;
  float Confidence;
} Value;

#pragma cp composite
__global__ void price(const float *s, float *out, int n) {
  Value sum = {0.0f, 0.0f};
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = s[i] * 0.5f;
    sum.Expected += v;
    sum.Confidence += v * v;
  }
  out[2 * threadIdx.x] = sum.Expected;
  out[2 * threadIdx.x + 1] = sum.Confidence;
}

#pragma cp composite scope(accumulators)
__global__ void price_acc(const float *s, float *out, int n) {
  Value sum;
  sum.Expected = 0.0f;
  sum.Confidence = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    float v = s[i] * 0.5f;
    sum.Expected += v;
    sum.Confidence += v * v;
  }
  out[2 * threadIdx.x] = sum.Expected;
  out[2 * threadIdx.x + 1] = sum.Confidence;
}

int main() {
  const int n = 1 << 16, t = 32;
  static float h[n];
  float r[2 * t];
  for (int i = 0; i < n; i++)
    h[i] = 1.0f + (float)(i % 1000) * 1e-3f;
  float *s, *out;
  cudaMalloc(&s, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(s, h, sizeof h, cudaMemcpyHostToDevice);
  price<<<1, t>>>(s, out, n);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2 * t; i += 9)
    printf("%.9g\n", r[i]);
  price_acc<<<1, t>>>(s, out, n);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 2 * t; i += 9)
    printf("%.9g\n", r[i]);
  cudaFree(s);
  cudaFree(out);
  return 0;
}
