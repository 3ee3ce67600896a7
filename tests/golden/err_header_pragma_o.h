// Header of err_header_pragma_o.cu: an annotated device function.
#pragma once
#pragma cp composite
static __device__ void fold(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}
