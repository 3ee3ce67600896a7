// Device buffers owned by a class whose member functions are defined in the class body:
// the constructor allocates, a method launches the converted kernel, another copies back,
// the destructor frees. They are host code like free functions.
#include <cstdio>

#pragma cp composite
__global__ void decay(float *x, float rate, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] -= rate * x[i];
}

class Field {
public:
  explicit Field(int n) : n(n) {
    cudaMalloc(&d_x, n * sizeof(float));
    float *h = new float[n];
    for (int i = 0; i < n; i++)
      h[i] = 1.0f + 0.001f * i;
    cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    delete[] h;
  }
  ~Field() { cudaFree(d_x); }
  void step(float rate) { decay<<<(n + 255) / 256, 256>>>(d_x, rate, n); }
  void get(float *h) const { cudaMemcpy(h, d_x, n * sizeof(float), cudaMemcpyDeviceToHost); }

private:
  float *d_x;
  int n;
};

int main() {
  const int n = 1000;
  Field f(n);
  for (int s = 0; s < 2000; s++)
    f.step(1e-4f);
  float h[n];
  f.get(h);
  printf("%.9g %.9g\n", h[0], h[n - 1]);
  return 0;
}
