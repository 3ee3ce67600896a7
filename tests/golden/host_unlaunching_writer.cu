// An unannotated kernel that writes a paired field, launched from a host function that
// launches nothing converted and names no buffer field (CoMD-CUDA's sortAtomsGpu launching
// ShuffleAtomsData with the struct of atoms, while the converted kernels are launched from
// other host functions): such a function now joins the run's host code because it launches
// a kernel with a struct of buffers, and the launch is warned about (before: the function
// was not read, and nothing was said). reorder's own launch, which only reads, says nothing.
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

__global__ void new_slots(Atoms a, int *to) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n)
    to[i] = a.x[i] > 0.0f ? a.n - 1 - i : i;
}

__global__ void shuffle(Atoms a, const int *to) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i < a.n ? a.x[i] : 0.0f;
  __syncthreads();
  if (i < a.n)
    a.x[to[i]] = x;
}

void sort_atoms(Atoms a, int *to) {
  new_slots<<<(a.n + 63) / 64, 64>>>(a, to);
  shuffle<<<(a.n + 63) / 64, 64>>>(a, to);
}

void step(Atoms a) {
  drift<<<(a.n + 63) / 64, 64>>>(a, 0.1f);
}

int main() {
  Atoms a;
  int *to;
  a.n = 64;
  cudaMalloc(&a.x, a.n * sizeof(float));
  cudaMalloc(&a.v, a.n * sizeof(float));
  cudaMalloc(&to, a.n * sizeof(int));
  step(a);
  sort_atoms(a, to);
  cudaFree(a.x);
  cudaFree(a.v);
  cudaFree(to);
  return 0;
}
