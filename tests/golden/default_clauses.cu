// --scope and --accumulate (default_clauses.flags): defaults for the pragmas that name no
// scope() or accumulate() clause; a clause in the pragma wins; a kernel written in double
// keeps its composite sums under --accumulate (accumulate() applies to float kernels).
#pragma cp composite
__global__ void both_defaults(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * 0.5f;
  out[0] = s;
}

#pragma cp composite scope(all)
__global__ void scope_given(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * 0.5f;
  out[0] = s;
}

#pragma cp composite accumulate(composite)
__global__ void accumulate_given(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * 0.5f;
  out[0] = s;
}

#pragma cp composite
__global__ void in_double(const double *x, double *out, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * 0.5;
  out[0] = s;
}
