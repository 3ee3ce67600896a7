// A converted kernel writes a paired field whose buffer is allocated in a file that is not
// converted in the same run (CoMD-CUDA's pair-list positions lastR, allocated by
// initNeighborListGpu in gpu_neighborList.c, when only gpu_kernels.cu and gpu_utility.c are
// converted): no cudaMalloc of it is in the run, so its companion would never be allocated.
// The error names the function the run hands the struct to, where it is called and where
// it is declared (before: only that no cudaMalloc was seen).
struct Pairs {
  float *last;
  int n;
};

struct Sim {
  float *x;
  Pairs pairs;
  int n;
};

void init_pairs(Pairs *p, int n); // defined in another file, not converted here

#pragma cp composite
__global__ void remember(Sim s, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n) {
    s.x[i] += dt;
    s.pairs.last[i] += s.x[i];
  }
}

int main() {
  Sim s;
  s.n = 256;
  cudaMalloc(&s.x, s.n * sizeof(float));
  init_pairs(&s.pairs, s.n);
  remember<<<(s.n + 63) / 64, 64>>>(s, 0.1f);
  cudaFree(s.x);
  return 0;
}
