// Rule unsupported-template: a converted function template may compute only with types
// the template itself knows. Arithmetic in a type parameter (T may be float in one
// instantiation and int in another) and a call whose type depends on the template's
// parameters (scale<STEP>, where two templates named scale may be meant) are refused
// where they are; the rest of the template (int STEP, bool SPLINE, float locals) would
// convert. One template whose types name none of its parameters, called with a
// parameter, converts (template_dependent_call).
template <int K>
__device__ float scale(float x) { return x * (float)K / 3.0f; }
template <int K, int L>
__device__ float scale(float x) { return x * (float)(K + L); }

#pragma cp composite
template <typename T>
__global__ void generic(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += T(1) / 3;
}

#pragma cp composite
template <int STEP, bool SPLINE>
__global__ void spline(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = a[i] / 3.0f;
  if (SPLINE)
    s += scale<STEP>(a[i]);
  o[i] = s * STEP;
}
