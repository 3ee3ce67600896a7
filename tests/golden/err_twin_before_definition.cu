// An unannotated helper that float code calls too gets a converted twin written after
// its definition; a converted function that calls it above that definition (through a
// prototype) would call a name not declared yet, so it is an error.
__device__ void fold(float box, float *d);

#pragma cp composite
__global__ void k(const float *x, float *out, float box)
{
  float d = x[1] - x[0];
  fold(box, &d);
  out[0] = d;
}

__global__ void plain(float *x, float box)
{
  fold(box, &x[0]);
}

__device__ void fold(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}
