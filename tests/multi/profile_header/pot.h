// --profile with --o-dir: a converted header has sites of its own, so it gets a table of
// its own (inside a guard: the table stands before the header's own include guard).
#ifndef POT_H
#define POT_H

#pragma cp composite
__device__ inline float pair_energy(float r2)
{
  float inv = 1.0f / r2;
  return inv * inv * inv;
}

#endif
