// An unconverted kernel that writes a paired buffer through a float & local bound to one
// of its elements (`float &r = x[i]; r *= 2.0f;`) writes it as surely as `x[i] *= 2.0f`:
// the launch gets the host-pair warning (the companion is not updated there), as a direct
// store would.
#pragma cp composite
__global__ void acc(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f / 3.0f;
}

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float &r = x[i];
    r *= 2.0f;
  }
}

void run(float *d, int n) {
  acc<<<1, n>>>(d, n);
  twice<<<1, n>>>(d, n);
}
