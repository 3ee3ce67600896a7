// Rule accumulate with a struct initialised from accumulators: fixed-point sums read as
// values in braces are recombined to float there (braces do not narrow a cp_fixed), as a
// Monte Carlo kernel's per-path sum and sum of squares stored as one result struct.
struct PathValue {
  float sum;
  float sum2;
};

#pragma cp composite accumulate(fixed)
__global__ void price_paths(const float *payoff, PathValue *result, int paths, int per) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= paths)
    return;
  float s = 0, s2 = 0;
  for (int k = 0; k < per; k++) {
    float p = payoff[i * per + k];
    s += p;
    s2 += p * p;
  }
  PathValue t = {s, s2};
  result[i] = t;
}
