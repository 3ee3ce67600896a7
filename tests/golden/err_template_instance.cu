// Rule template-instance: an annotated template with a type parameter converts one
// instance at a time, so one of its instances must compute in float. This file launches
// `clamp_all` with int and double only: nothing would convert, which is an error at the
// pragma rather than an output that silently stays as it was.
#pragma cp composite
template <typename T>
__global__ void clamp_all(T *x, T lo, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < lo)
    x[i] = lo + (x[i] - lo) / 2;
}

void run(int *xi, double *xd, int n) {
  clamp_all<<<n / 128, 128>>>(xi, 0, n);
  clamp_all<double><<<n / 128, 128>>>(xd, 0.0, n);
}
