// difftest bug: a parenthesised read of a fixed, Kahan or double accumulator crashes
// cpconvert (SIGSEGV, exit 139; null var in accum_read, rewriter/expr.c, reached from
// implicit()). `out[0] = s;` converts; `out[0] = (s);` crashes, as does `(double)(s)`.
// Found by: scripts/difftest.sh --seed 1 --count 500 (seeds 27, 86, ...: feature
// `conversions`, which writes `(float)((double)(s) * 0.5)`). Expected: converts, like
// the unparenthesised read.
#pragma cp composite accumulate(kahan)
__global__ void paren_read(const float *in, float *out, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += in[j];
  out[0] = (s);
}
