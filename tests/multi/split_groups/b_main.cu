#include <cstdio>

__global__ void scale_a(const float *x, float *out);

int main()
{
  float h[32];
  for (int i = 0; i < 32; i++)
    h[i] = 1.0f + i;
  float *d_x, *d_out;
  cudaMalloc((void **)&d_x, 32 * sizeof(float));
  cudaMalloc((void **)&d_out, 32 * sizeof(float));
  cudaMemcpy(d_x, h, 32 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, 32 * sizeof(float));
  scale_a<<<1, 32>>>(d_x, d_out);
  cudaMemcpy(h, d_out, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%.9g\n", h[31]);
  cudaFree(d_x);
  cudaFree(d_out);
  return 0;
}
