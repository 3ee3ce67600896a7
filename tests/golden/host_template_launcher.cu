// A host function template that launches a kernel template left unannotated, with an
// instance that depends on the host template's own argument (CoMD-CUDA's eamForce<step>
// launching EAM_Force_thread_atom<step, true>): the host template launches nothing
// converted, yet the kernel writes a paired field of the struct it is given. The launch
// is named by its kernel template and warned about, once for each launch in the host
// template's body (before: host templates were not read, and nothing was said).
struct Atoms {
  float *x;
  float *v;
  int n;
};

#pragma cp composite scope(accumulators)
__global__ void drift(Atoms a, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n)
    a.x[i] += dt * a.v[i];
}

template <int STEP, bool FAST>
__global__ void kick(Atoms a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n)
    a.x[i] -= (FAST ? 0.5f : 0.25f) * STEP * a.v[i];
}

template <int STEP>
void force(Atoms a, int fast) {
  if (fast)
    kick<STEP, true><<<(a.n + 63) / 64, 64>>>(a);
  else
    kick<STEP, false><<<(a.n + 63) / 64, 64>>>(a);
}

void step(Atoms a) {
  force<1>(a, 1);
  drift<<<(a.n + 63) / 64, 64>>>(a, 0.1f);
}

int main() {
  Atoms a;
  a.n = 256;
  cudaMalloc(&a.x, a.n * sizeof(float));
  cudaMalloc(&a.v, a.n * sizeof(float));
  cudaMemset(a.x, 0, a.n * sizeof(float));
  cudaMemset(a.v, 0, a.n * sizeof(float));
  step(a);
  cudaFree(a.x);
  cudaFree(a.v);
  return 0;
}
