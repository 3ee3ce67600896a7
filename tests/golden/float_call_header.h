// Device helpers in a header that a golden converts without --o-dir (float_call_header.cu).
__device__ inline int escape_steps(float x, float y) {
  int k = 0;
  while (x * x + y * y < 4.0f && k < 64) {
    float t = x * x - y * y + 0.25f;
    y = 2.0f * x * y;
    x = t;
    k++;
  }
  return k;
}

template <class T>
__device__ inline T half_of(T v) { return v / 2; }
