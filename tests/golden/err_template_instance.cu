// Rule template-instance: an annotated template with a type parameter converts one
// instance at a time, so one of its instances must compute in float, named where the
// instance is known. This file launches `clamp_all` with int and double only: nothing
// would convert, which is an error at the pragma rather than an output that silently
// stays as it was. `scale_by` is launched only inside the host template `dispatch`
// (the shape of the CUDA samples' reduction): dispatch<float> would launch the float
// original on buffers whose companions the converted code keeps, so it is refused there.
// `fused` has a branch on __CUDA_ARCH__: its float instance would be written once, from
// one compilation's view, with the other branch unconverted, so it is refused at the branch.
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

#pragma cp composite
template <typename T, int B>
__global__ void scale_by(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * B / 3;
}

template <typename T>
void dispatch(T *x, int n) {
  scale_by<T, 2><<<n / 128, 128>>>(x, n);
}

void use(float *x, int n) { dispatch(x, n); }

#pragma cp composite
template <typename T>
__global__ void fused(const T *a, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
#ifdef __CUDA_ARCH__
  out[i] += __fmul_rn(a[i], (T)3);
#else
  out[i] += a[i] * (T)3;
#endif
}

void run_fused(const float *a, float *out, int n) { fused<<<n / 128, 128>>>(a, out, n); }
