// A converted kernel launched through a function pointer or cudaLaunchKernel: its
// companion arguments cannot be added there, so each is refused at its place.
#pragma cp composite
__global__ void scale(float *x, int n) {
  if (threadIdx.x < n) x[threadIdx.x] *= 2.0f;
}

int main() {
  float *d_x;
  int n = 32;
  cudaMalloc(&d_x, n * sizeof(float));
  void (*kernel)(float *, int) = scale;
  kernel<<<1, n>>>(d_x, n);
  void *args[] = {&d_x, &n};
  cudaLaunchKernel((const void *)scale, dim3(1), dim3(n), args, 0, 0);
  return 0;
}
