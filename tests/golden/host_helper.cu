// Buffers passed through host helper functions are followed: the helper gains companion
// parameters and its callers pass theirs. Two kernels that share a buffer share one
// companion: the force kernel reads positions with the error the integrator kept.
#pragma cp composite
__global__ void forces(const float *pos, float *force, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) force[i] = -0.1f * pos[i];
}

#pragma cp composite
__global__ void integrate(float *pos, const float *force, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) pos[i] += force[i] * dt;
}

static void step(float *pos, float *force, int n) {
  forces<<<(n + 255) / 256, 256>>>(pos, force, n);
  integrate<<<(n + 255) / 256, 256>>>(pos, force, 0.01f, n);
}

static void allocate(float **p, int n) { cudaMalloc(p, n * sizeof(float)); }

int main() {
  const int n = 4096;
  float *d_pos, *d_force;
  cudaMalloc(&d_pos, n * sizeof(float));
  cudaMalloc(&d_force, n * sizeof(float));
  cudaMemset(d_pos, 0, n * sizeof(float));
  for (int s = 0; s < 1000; s++)
    step(d_pos, d_force, n);
  float first;
  cudaMemcpy(&first, d_pos, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_pos);
  cudaFree(d_force);
  (void)allocate;
  return first == 0.0f ? 0 : 1;
}
