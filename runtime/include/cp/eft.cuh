/* cp/eft.cuh - error-free transformations: the exact building blocks.
 *
 * Each returns the rounded result and its exact rounding error as a pair {result, error},
 * with result + error == the exact real result of the operation. Exactness holds in
 * round-to-nearest as long as nothing overflows; TwoSum and Fast2Sum stay exact under
 * underflow (a sum of floats that underflows is exact), TwoProd needs the product's error
 * to be representable (no underflow: about |a*b| >= 2^-103 in float, 2^-970 in double).
 * Numbering after Joldes, Muller, Popescu, ACM TOMS 44(2), 2017 (JMP17).
 */
#ifndef CP_EFT_CUH
#define CP_EFT_CUH

#include "types.cuh"

/* TwoSum (Knuth, TAOCP vol. 2; Moller 1965; JMP17 Alg. 2): 6 flops, exact, no precondition. */
CP_FUNC cp_ff cp_two_sum(float a, float b)
{
  float s = cp_fadd_rn(a, b);
  float ap = cp_fsub_rn(s, b);
  float bp = cp_fsub_rn(s, ap);
  float da = cp_fsub_rn(a, ap);
  float db = cp_fsub_rn(b, bp);
  return cp_ff_make(s, cp_fadd_rn(da, db));
}

/* Fast2Sum (Dekker 1971; JMP17 Alg. 1): 3 flops, exact if |a| >= |b| (or a == 0). */
CP_FUNC cp_ff cp_fast_two_sum(float a, float b)
{
  float s = cp_fadd_rn(a, b);
  float z = cp_fsub_rn(s, a);
  return cp_ff_make(s, cp_fsub_rn(b, z));
}

/* TwoProd with FMA (Fast2Mult, JMP17 Alg. 3): 2 flops, exact unless the error underflows. */
CP_FUNC cp_ff cp_two_prod(float a, float b)
{
  float p = cp_fmul_rn(a, b);
  return cp_ff_make(p, cp_fma_rn(a, b, -p));
}

/* TwoSum for double (Knuth; JMP17 Alg. 2): exact. */
CP_FUNC cp_double cp_dd_two_sum(double a, double b)
{
  double s = cp_dadd_rn(a, b);
  double ap = cp_dsub_rn(s, b);
  double bp = cp_dsub_rn(s, ap);
  double da = cp_dsub_rn(a, ap);
  double db = cp_dsub_rn(b, bp);
  return cp_make_double(s, cp_dadd_rn(da, db));
}

/* Fast2Sum for double (Dekker; JMP17 Alg. 1): exact if |a| >= |b|. */
CP_FUNC cp_double cp_dd_fast_two_sum(double a, double b)
{
  double s = cp_dadd_rn(a, b);
  double z = cp_dsub_rn(s, a);
  return cp_make_double(s, cp_dsub_rn(b, z));
}

/* TwoProd for double with FMA (JMP17 Alg. 3): exact unless the error underflows. */
CP_FUNC cp_double cp_dd_two_prod(double a, double b)
{
  double p = cp_dmul_rn(a, b);
  return cp_make_double(p, cp_dfma_rn(a, b, -p));
}

#endif /* CP_EFT_CUH */
