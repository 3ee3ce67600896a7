// Issue 11, item 2: a converted kernel passes the address of a composite local to an
// unannotated __device__ helper.
// Today: exit 1,
//   helper_autoconvert.cu:17:13: error: the address of a composite escapes; only converted
//   functions (as their output parameter) and atomicAdd can take it [unsupported-pointer]
// Should: convert fold() automatically (a composite twin; the float one stays for float
// callers), counted in --stats; no error.
static __device__ void fold(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}

#pragma cp composite
__global__ void k(const float *x, float *out, float box)
{
  float d = x[1] - x[0];
  fold(box, &d);
  out[0] = d;
}
