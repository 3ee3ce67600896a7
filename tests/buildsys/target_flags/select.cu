// Converts only with the flags of its target: select_factor.h is in target_flags/inc,
// and CP_TEST_SELECT is one of the target's compile definitions.
#include "select_factor.h"

#ifndef CP_TEST_SELECT
#error "the target's compile definitions did not reach the parser"
#endif

#pragma cp composite
__global__ void scale_selected(float *x)
{
  x[threadIdx.x] *= SELECT_FACTOR;
}
