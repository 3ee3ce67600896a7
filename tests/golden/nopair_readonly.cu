// nopair(p) on a parameter the kernel only reads, whose buffer another converted kernel
// pairs: the kernel reads the values alone (as an unconverted kernel would) and takes no
// companion. A kernel that writes it, or passes it on, is still refused
// (err_nopair_shared).
#pragma cp composite
__global__ void produce(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += in[i] * 3.0f;
}

#pragma cp composite nopair(out)
__global__ void consume(const float *out, float *tally, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tally[i] = out[i] > 1.0f ? 1.0f : 0.0f;
}

void run(const float *d_in, float *d_out, float *d_tally, int n) {
  produce<<<1, n>>>(d_in, d_out, n);
  consume<<<1, n>>>(d_out, d_tally, n);
}
