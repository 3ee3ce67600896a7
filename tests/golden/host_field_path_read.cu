// A converted kernel only reads a paired field through a holder that no converted file
// allocates (the pair list's remembered positions, allocated by init_pairs in a file not
// converted here): its error terms would be read from an unallocated companion, a warning
// at the read that names the function the struct is handed to. The allocated holder
// (cur) keeps its companions.
struct vec_t {
  float *x;
};

struct Pairs {
  vec_t last;
  int n;
};

struct Sim {
  vec_t cur;
  Pairs pairs;
  float *moved;
  int n;
};

void init_pairs(Pairs *p, int n); // defined in another file, not converted here

#pragma cp composite
__global__ void drift(Sim s, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n)
    s.cur.x[i] += dt;
}

#pragma cp composite
__global__ void displacement(Sim s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n)
    s.moved[i] = s.cur.x[i] - s.pairs.last.x[i];
}

int run() {
  Sim s;
  s.n = 256;
  cudaMalloc(&s.cur.x, s.n * sizeof(float));
  cudaMalloc(&s.moved, s.n * sizeof(float));
  init_pairs(&s.pairs, s.n);
  drift<<<(s.n + 63) / 64, 64>>>(s, 0.1f);
  displacement<<<(s.n + 63) / 64, 64>>>(s);
  cudaFree(s.cur.x);
  cudaFree(s.moved);
  return 0;
}
