// Unannotated __device__ helpers that converted code calls are converted too, and so are
// the helpers they call. A helper that float code calls as well keeps its float original
// and gains a converted twin NAME_cp after it; converted code calls the twin.

// Called from the converted kernel and from the float kernel: a twin.
static __device__ void fold(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}

// Called only by dist2, whose float original is float code: a twin too.
__device__ float sq(float a)
{
  return a * a;
}

__device__ float dist2(float dx, float dy)
{
  return sq(dx) + sq(dy);
}

// Receives a paired buffer, called only from converted code: converted in place.
__device__ void scale(float *p, float s)
{
  p[0] *= s;
}

// No float parameter or result: left alone.
__device__ int cell(int i)
{
  return i / 4;
}

#pragma cp composite
__global__ void k(const float *x, float *out, float *acc, float box)
{
  float d = x[1] - x[0];
  fold(box, &d);
  out[0] = dist2(d, x[2]);
  int c = cell(threadIdx.x);
  acc[c] += 1.0f;
  scale(acc, 2.0f);
}

__global__ void plain(const float *x, float *out, float box)
{
  float d = x[1] - x[0];
  fold(box, &d);
  out[0] = dist2(d, d);
}
