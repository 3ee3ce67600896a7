// Helpers without annotation in a header that two files include.
#pragma once

// Called only from converted code.
static __device__ float lj(float r2)
{
  float inv6 = 1.0f / (r2 * r2 * r2);
  return 4.0f * inv6 * (inv6 - 1.0f);
}

// Called from converted code and from a float kernel.
inline __device__ float dist2(float dx, float dy)
{
  return dx * dx + dy * dy;
}
