// A launch inside a function template: templates are not converted, so the launch would
// miss the companion arguments of the converted kernel.
#pragma cp composite
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

template <int B> void rescale(float *d_x, float s, int n) {
  scale<<<(n + B - 1) / B, B>>>(d_x, s, n);
}

void run(float *d_x, int n) { rescale<256>(d_x, 0.5f, n); }
