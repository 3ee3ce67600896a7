// In device code an initializer list of a struct whose fields gain companions is refused:
// the converted struct has each companion after its field, so `{p.x, p.y}` would put p.y
// into the companion of x (a pointer copy that a struct copy would be is refused anyway).
struct P {
  float *x;
  float *y;
};

__device__ void scale(P q, int i) { q.y[i] = q.x[i] * 2.0f; }

#pragma cp composite
__global__ void kick(P p, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  P q = {p.x, p.y};
  q.x[i] += q.y[i] * dt;
  scale(P{p.x, p.y}, i);
}

int main() {
  float *dx, *dy;
  cudaMalloc(&dx, 256 * sizeof(float));
  cudaMalloc(&dy, 256 * sizeof(float));
  P p = {dx, dy};
  kick<<<1, 256>>>(p, 0.01f);
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
