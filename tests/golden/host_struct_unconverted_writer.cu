// A kernel left unconverted that writes a paired pointer field of the struct passed to
// it (a periodic wrap of the positions, beside the converted integrator): the field's
// companion is not updated there and goes stale. A warning at the launch says so (before:
// nothing was said, and such a code could compute garbage with exit status 0).
struct State {
  float *x;
  float *v;
  int n;
};

#pragma cp composite scope(accumulators)
__global__ void drift(State s, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n)
    s.x[i] += dt * s.v[i];
}

__global__ void wrap(State s, float box) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n && s.x[i] > box)
    s.x[i] -= box;
}

void run(State s, int steps) {
  for (int k = 0; k < steps; k++) {
    drift<<<(s.n + 63) / 64, 64>>>(s, 0.1f);
    wrap<<<(s.n + 63) / 64, 64>>>(s, 10.0f);
  }
}

int main() {
  State s;
  s.n = 256;
  cudaMalloc(&s.x, s.n * sizeof(float));
  cudaMalloc(&s.v, s.n * sizeof(float));
  cudaMemset(s.x, 0, s.n * sizeof(float));
  cudaMemset(s.v, 0, s.n * sizeof(float));
  run(s, 10);
  cudaFree(s.x);
  cudaFree(s.v);
  return 0;
}
