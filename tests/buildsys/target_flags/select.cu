// Converts only with the flags of its target: select_factor.h is in target_flags/inc,
// and CP_TEST_SELECT picks the branch the build compiles.
#include "select_factor.h"

#pragma cp composite
__global__ void scale_selected(float *x)
{
#if CP_TEST_SELECT
  x[threadIdx.x] *= SELECT_FACTOR;
#else
  x[threadIdx.x] += 1.0f;
#endif
}
