// Initializer lists whose companion values cpconvert cannot write: an element with a side
// effect (the companion's value would repeat `k++`) is a located error, as is a designated
// list that sets a paired field (the companions' places among designators are not written).
struct State {
  float *x;
  int n;
};

#pragma cp composite
__global__ void step(State s, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n)
    s.x[i] += dt;
}

int main() {
  const int n = 1024;
  float *x;
  int k = 0;
  cudaMalloc(&x, 4 * n * sizeof(float));
  State s = {x + n * k++, n};
  State d = {.x = x, .n = n};
  step<<<n / 256, 256>>>(s, 0.01f);
  step<<<n / 256, 256>>>(d, 0.01f);
  cudaFree(x);
  return 0;
}
