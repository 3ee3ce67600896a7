// Rule unsupported-template: a converted function template whose parameters are all
// values (int STEP, bool SPLINE) converts once, for every instance, so it may compute
// only with types the template itself knows. A call whose type depends on the
// template's parameters (scale<STEP>, where two templates named scale may be meant) is
// refused where it is; the rest of the template would convert. One template whose types
// name none of its parameters, called with a parameter, converts (template_dependent_call);
// a template with a type parameter converts one instance at a time (template_instance).
template <int K>
__device__ float scale(float x) { return x * (float)K / 3.0f; }
template <int K, int L>
__device__ float scale(float x) { return x * (float)(K + L); }

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
