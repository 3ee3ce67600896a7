// A header with an annotated function, converted with -o: the converted header has no
// place to go, so the run stops with a located error that names --o-dir
// (tests/multi/header_device_fn converts the same layout with --o-dir).
#include "err_header_pragma_o.h"

#pragma cp composite
__global__ void k(const float *x, float *out, float box)
{
  float d = x[1] - x[0];
  fold(box, &d);
  out[0] = d;
}
