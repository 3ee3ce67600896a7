// A comment on a pragma line is no clause: neither `//` nor `/* */`, before or between
// clauses.
#pragma cp composite // converts the whole kernel
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

#pragma cp composite /* accumulate in fixed point */ accumulate(fixed) /* and more */ keep(t)
__global__ void sum(const float *x, float *out, int n) {
  float s = 0.0f;
  float t = 1.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * t;
  out[0] = s;
}
