/* cp/float_mid.cuh - the mid family: the accurate family with the sloppy pair + pair add.
 *
 * The accuracy tier between fast (no renormalization) and accurate: normalized pairs in,
 * normalized pairs out, as in the accurate family, whose algorithms it uses for every
 * operation but one. The sum of two pairs is SloppyDWPlusDW (JMP17 Alg. 5, Dekker's add2;
 * CCCL fpmp's default add): TwoSum of the highs, the lows added once, Fast2Sum; 11 flops
 * against AccurateDWPlusDW's 20. Its error is small relative to |x| + |y|, not to the
 * result: under cancellation (x close to -y) it keeps about as many bits of the result as
 * the operands' pairs carried below the cancelled ones, like a float pair can, but fewer
 * than the accurate add. Everything else (pair + float, products, quotients, roots) costs the
 * same in both families, so nothing else differs.
 *
 * Bounds (u = 2^-24, no underflow or overflow, normalized inputs; tests/runtime/check_mid.c):
 *   add, sub   |error| <= 3u^2 (|x| + |y|) + O(u^3)   (derivation in docs/runtime.md)
 *   the rest   the accurate family's (float_accurate.cuh, docs/runtime.md)
 */
#ifndef CP_FLOAT_MID_CUH
#define CP_FLOAT_MID_CUH

#include "float_accurate.cuh"
#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */

/* SloppyDWPlusDW (JMP17 Alg. 5): s = TwoSum(x.v, y.v); w = s.e + (x.e + y.e); Fast2Sum(s.v, w).
 * |error| <= 3u^2 (|x| + |y|) + O(u^3). */
CP_FUNC cp_float cp_mid_add(cp_float x, cp_float y)
{
  cp_float s = cp_two_sum(x.v, y.v);
  float w = cp_fadd_rn(s.e, cp_fadd_rn(x.e, y.e));
  cp_float z = cp_fast_two_sum(s.v, w);
  CP_DETAIL_SETTLE(z, cp_fadd_rn(cp_to_float(x), cp_to_float(y)));
  return z;
}

/* Pair - pair: SloppyDWPlusDW with y negated (exact). Same bound. */
CP_FUNC cp_float cp_mid_sub(cp_float x, cp_float y) { return cp_mid_add(x, cp_neg(y)); }

/* The accurate family's operations, under the mid family's names. */
CP_FUNC cp_float cp_mid_mul(cp_float x, cp_float y) { return cp_accurate_mul(x, y); }
CP_FUNC cp_float cp_mid_sqr(cp_float x) { return cp_accurate_sqr(x); }
CP_FUNC cp_float cp_mid_div(cp_float x, cp_float y) { return cp_accurate_div(x, y); }
CP_FUNC cp_float cp_mid_add_cf(cp_float x, float f) { return cp_accurate_add_cf(x, f); }
CP_FUNC cp_float cp_mid_sub_cf(cp_float x, float f) { return cp_accurate_sub_cf(x, f); }
CP_FUNC cp_float cp_mid_mul_cf(cp_float x, float f) { return cp_accurate_mul_cf(x, f); }
CP_FUNC cp_float cp_mid_div_cf(cp_float x, float f) { return cp_accurate_div_cf(x, f); }
CP_FUNC cp_float cp_mid_add_fc(float f, cp_float y) { return cp_accurate_add_fc(f, y); }
CP_FUNC cp_float cp_mid_sub_fc(float f, cp_float y) { return cp_accurate_sub_fc(f, y); }
CP_FUNC cp_float cp_mid_mul_fc(float f, cp_float y) { return cp_accurate_mul_fc(f, y); }
CP_FUNC cp_float cp_mid_div_fc(float f, cp_float y) { return cp_accurate_div_fc(f, y); }
CP_FUNC cp_float cp_mid_sqrt(cp_float x) { return cp_accurate_sqrt(x); }
CP_FUNC cp_float cp_mid_rsqrt(cp_float x) { return cp_accurate_rsqrt(x); }
CP_FUNC cp_float cp_mid_rcp(cp_float x) { return cp_accurate_rcp(x); }

/* a*b + c as mid_add(mul(a, b), c). |error| <= 4u^2|ab| + 3u^2(|ab| + |c|) + O(u^3). */
CP_FUNC cp_float cp_mid_fma(cp_float a, cp_float b, cp_float c) { return cp_mid_add(cp_accurate_mul(a, b), c); }

#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_FLOAT_MID_CUH */
