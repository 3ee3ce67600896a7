// Kernel templates left unannotated that write paired data, launched beside a converted
// kernel (the shape of CoMD-CUDA's UpdateLinkCells<usePairlist> and CompactAtoms<>, which
// move atoms between the slots of the cells): the instance's body is the template's, read
// for writes like any other kernel's. move_atoms<64> writes the paired field x of
// the struct, rescale<float> the paired buffer e; each launch is warned about (before:
// nothing was said, and the companions went stale with exit status 0).
struct Atoms {
  float *x;
  float *v;
  int n;
};

#pragma cp composite scope(accumulators)
__global__ void drift(Atoms a, float *e, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) {
    a.x[i] += dt * a.v[i];
    e[i] += a.v[i] * a.v[i];
  }
}

template <int BLOCK>
__global__ void move_atoms(Atoms a, const int *to) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < a.n && to[i] >= 0) {
    a.x[to[i]] = a.x[i];
    a.v[to[i]] = a.v[i];
  }
}

template <typename T>
__global__ void rescale(T *e, int n, T f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    e[i] *= f;
}

void step(Atoms a, float *e, const int *to) {
  drift<<<(a.n + 63) / 64, 64>>>(a, e, 0.1f);
  move_atoms<64><<<(a.n + 63) / 64, 64>>>(a, to);
  rescale<float><<<(a.n + 63) / 64, 64>>>(e, a.n, 0.5f);
}

int main() {
  Atoms a;
  float *e;
  int *to;
  a.n = 256;
  cudaMalloc(&a.x, a.n * sizeof(float));
  cudaMalloc(&a.v, a.n * sizeof(float));
  cudaMalloc(&e, a.n * sizeof(float));
  cudaMalloc(&to, a.n * sizeof(int));
  cudaMemset(to, 0xff, a.n * sizeof(int));
  step(a, e, to);
  cudaFree(a.x);
  cudaFree(a.v);
  cudaFree(e);
  cudaFree(to);
  return 0;
}
