// Out-parameters across calls in every scope combination: the parameter's type and
// the caller's argument agree (float * with a float local, cp_float * with a composite one).

// scope(accumulators) helper called from a scope(accumulators) kernel: d stays float.
#pragma cp composite scope(accumulators)
static __device__ void fold_acc(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}

#pragma cp composite scope(accumulators)
__global__ void acc_calls_acc(const float *x, float *out, float box, int n)
{
  float s = 0.0f;
  for (int i = 1; i < n; ++i) {
    float d = x[i] - x[0];
    fold_acc(box, &d);
    s += d;
  }
  out[0] = s;
}

// scope(accumulators) helper called from a scope(all) kernel: d is composite there.
#pragma cp composite scope(accumulators)
static __device__ void fold_acc2(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}

#pragma cp composite
__global__ void all_calls_acc(const float *x, float *out, float box)
{
  float d = x[1] - x[0];
  fold_acc2(box, &d);
  out[0] = d;
}

// scope(all) helper called from a scope(accumulators) kernel with a per-term float.
#pragma cp composite
static __device__ void fold_all(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}

#pragma cp composite scope(accumulators)
__global__ void acc_calls_all(const float *x, float *out, float box, int n)
{
  float s = 0.0f;
  for (int i = 1; i < n; ++i) {
    float d = x[i] - x[0];
    fold_all(box, &d);
    s += d;
  }
  out[0] = s;
}

// One helper, a composite argument in one caller and a per-term float in the other: the
// float local turns composite.
#pragma cp composite scope(accumulators)
static __device__ void fold_both(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}

#pragma cp composite
__global__ void all_calls_both(const float *x, float *out, float box)
{
  float d = x[1] - x[0];
  fold_both(box, &d);
  out[0] = d;
}

#pragma cp composite scope(accumulators)
__global__ void acc_calls_both(const float *x, float *out, float box, int n)
{
  float s = 0.0f;
  for (int i = 1; i < n; ++i) {
    float d = x[i] - x[0];
    fold_both(box, &d);
    s += d;
  }
  out[0] = s;
}

// accumulate(fixed): an accumulator passed by address stays a composite pair (t, not
// passed, becomes cp_fixed).
#pragma cp composite
static __device__ void add_into(float *acc, float v)
{
  *acc += v;
}

#pragma cp composite accumulate(fixed)
__global__ void fixed_by_address(const float *x, float *out, int n)
{
  float s = 0.0f;
  float t = 0.0f;
  for (int i = 0; i < n; ++i) {
    s += 0.5f * x[i];
    add_into(&s, 0.5f * x[i]);
    t += x[i];
  }
  out[0] = s + t;
}
