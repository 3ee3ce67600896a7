// Rule pair-param under scope(accumulators): a buffer gains a companion when a converted
// function sums into it (+=, atomics) or stores a composite into it; a buffer that only
// ever receives float values stays a plain float buffer. Decided across kernels until
// nothing changes: `copy` stores a read of `acc`, which `sum_rows` sums into, so `out`
// is paired too.
#pragma cp composite scope(accumulators)
__global__ void fill(float *m, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) m[i] = 1.0f / (1.0f + x[i] * x[i]);  // per-element float: m stays float
}

#pragma cp composite scope(accumulators)
__global__ void sum_rows(const float *m, float *acc, int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int j = 0; j < cols; j++)
    s += m[i * cols + j];
  acc[i] = s;  // a composite accumulator: acc is paired
}

#pragma cp composite scope(accumulators)
__global__ void copy(const float *acc, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = acc[i];  // a paired buffer's value: out is paired
}

void run(const float *d_x, float *d_m, float *d_acc, float *d_out, int n, int cols) {
  fill<<<(n * cols + 127) / 128, 128>>>(d_m, d_x, n * cols);
  sum_rows<<<(n + 127) / 128, 128>>>(d_m, d_acc, n, cols);
  copy<<<(n + 127) / 128, 128>>>(d_acc, d_out, n);
}
