// A converted kernel whose parameters change, launched from host code of the same file:
// the launch cannot pass the companions by itself, and says what to add.
#pragma cp composite
__global__ void accumulate(const float *x, float *sum, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += x[i];
  sum[0] = s;
}

int main() {
  float *d_x, *d_sum;
  cudaMalloc(&d_x, 100 * sizeof(float));
  cudaMalloc(&d_sum, sizeof(float));
  accumulate<<<1, 1>>>(d_x, d_sum, 100);
  return 0;
}
