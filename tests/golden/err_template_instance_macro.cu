// Rule template-instance: the launches of an instance converted as a copy are renamed to
// the copy (scale<float>(...) becomes scale_cp_float(...)). A launch written by a macro
// cannot be renamed in place: it is refused at the launch, with what to write instead.
#define LAUNCH(k, x, n) k<<<(n) / 128, 128>>>(x, n)

#pragma cp composite
template <typename T>
__global__ void scale(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] / 3;
}

void run(float *x, int n) { LAUNCH(scale<float>, x, n); }
