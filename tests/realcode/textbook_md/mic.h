// Minimum-image convention for a cubic periodic box: each component of the separation
// is folded into [-box/2, box/2]. Out-parameters (rather than a returned struct) keep
// the caller's three locals in registers; this is the shape many textbook codes use.
#pragma once

#include "common.h"

#pragma cp composite
static __device__ void apply_mic(real box, real *x12, real *y12, real *z12)
{
  real half = box * 0.5f;
  if (*x12 < -half) { *x12 += box; } else if (*x12 > half) { *x12 -= box; }
  if (*y12 < -half) { *y12 += box; } else if (*y12 > half) { *y12 -= box; }
  if (*z12 < -half) { *z12 += box; } else if (*z12 > half) { *z12 -= box; }
}
