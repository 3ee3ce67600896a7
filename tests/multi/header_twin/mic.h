// Minimum image in a periodic box: an annotated device function in a header with
// float * out-parameters, called from a converted kernel and from a float one.
#pragma once

#pragma cp composite
static __device__ void apply_mic(float box, float *dx, float *dy)
{
  if (*dx > 0.5f * box) { *dx -= box; }
  else if (*dx < -0.5f * box) { *dx += box; }
  if (*dy > 0.5f * box) { *dy -= box; }
  else if (*dy < -0.5f * box) { *dy += box; }
}
