// A file with no annotated function: the output is the input, unchanged, below the
// header that names the tool and includes the runtime.
#include <cstdio>

__global__ void scale(const float *in, float *out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}

int main() {
  const int n = 1024;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(d_in, d_out, 2.0f, n);
  cudaDeviceSynchronize();
  cudaFree(d_in);
  cudaFree(d_out);
  printf("done\n");
  return 0;
}
