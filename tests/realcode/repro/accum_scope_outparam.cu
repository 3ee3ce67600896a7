// Issue 11, item 4: scope(accumulators) across a call with a float* out-parameter.
// Today: cpconvert exits 0 and silently; it rewrites fold's parameter to `cp_float *d`
// while the caller's `float d` stays float (per-term arithmetic), and nvcc rejects it:
//   error: argument of type "float *" is incompatible with parameter of type "cp_float *"
// Should: parameter types and call sites agree in every scope/clause combination (here
// fold has nothing to accumulate, so its parameter stays float *).
#pragma cp composite scope(accumulators)
static __device__ void fold(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}

#pragma cp composite scope(accumulators)
__global__ void k(const float *x, float *out, float box, int n)
{
  float s = 0.0f;
  for (int i = 1; i < n; ++i) {
    float d = x[i] - x[0];
    fold(box, &d);
    s += d;
  }
  out[0] = s;
}
