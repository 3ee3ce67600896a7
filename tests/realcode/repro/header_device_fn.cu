// Issue 11, item 1: an annotated __device__ function defined in a header.
// Today: `cpconvert header_device_fn.cu -o out.cu` (and with the header also given,
// `cpconvert header_device_fn.cu header_device_fn.h --o-dir D`) exits 1 with
//   ./header_device_fn.h:3:1: error: '#pragma cp' in a header: only the files given to
//   cpconvert are converted; move the function into a .cu file that is converted
// In the textbook program the same error is printed twice for mic.h (once per .cu file
// that includes it). `cpconvert header_device_fn.h -o h.h` alone converts (exit 0).
// Should: convert fold(); with --o-dir write the converted header there; with -o either a
// converted header beside the output with the include rewritten, or a located error that
// names --o-dir.
#include "header_device_fn.h"

#pragma cp composite
__global__ void k(const float *x, float *out, float box)
{
  float d = x[1] - x[0];
  fold(box, &d);
  out[0] = d;
}
