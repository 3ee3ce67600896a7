// Header of header_device_fn.cu (issue 11, item 1).
#pragma once
#pragma cp composite
static __device__ void fold(float box, float *d)
{
  if (*d > 0.5f * box) { *d -= box; }
}
