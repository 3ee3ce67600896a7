/* cp/bits.cuh - double <-> float pair conversions with integer operations only.
 *
 * Under the ff backend a GPU with rationed FP64 (1:32 to 1:64) must not execute a double
 * instruction for a conversion, not even the F2F that (float)d or (double)f is. These
 * functions compute what the plain definitions in convert.cuh compute, bit for bit (the
 * CPU tests check it, tests/runtime/check_convert.c), from the IEEE-754 bit patterns with
 * 32- and 64-bit integer operations, one int -> float conversion (I2F, an FP32-pipe
 * instruction) and one multiplication by a power of two; convert.cuh uses them in device
 * code under ff. The idea is CCCL's (cuda/__fp/fpmp_impl_cvt.h, __fpmp2_from_double and
 * __fpmp2_to_double); unlike those, ties round to even, subnormal, infinite and NaN
 * operands are handled here too (CCCL falls back to FP64 for them), and the pair given to
 * cp_detail_double_of_pair need not be normalized.
 *
 *   cp_detail_pair_of_double(d, &hi, &lo)
 *       hi = RN(d) (to nearest, ties to even, overflow to +-inf, subnormal results rounded
 *       once), lo = RN(d - hi) where d - hi is exact; {hi, +0} when hi is not finite (a NaN
 *       keeps its sign and the top 22 bits of its payload, quieted, as x86's cvtsd2ss
 *       does); lo is +0 when d - hi is zero (also for d = -0). So hi + lo == d exactly when
 *       d has at most 48 significant bits and lo is a normal float.
 *   cp_detail_double_of_pair(v, e)
 *       RN(v + e) in double, one rounding of the exact sum (ties to even): exact whenever
 *       the sum fits 53 bits; +-0 as IEEE addition gives it; inf + -inf and NaN operands
 *       give a NaN (v's payload first, then e's, quieted; inf - inf the x86 default NaN).
 *
 * Common paths: a double of magnitude 2^-74 to 2^128 (hi and lo are then normal floats or
 * zero) is split by short integer code, one I2F and one FMUL; a pair of finite
 * floats is summed by short 64-bit integer code with one count of leading zeros.
 * Everything else (zeros, subnormals, overflow, inf, NaN) takes a branch to exact integer
 * code. Each function compiles to about 200 SASS instructions, its rare path included
 * (sm_89).
 */
#ifndef CP_BITS_CUH
#define CP_BITS_CUH

#include "config.cuh"
#if !defined(__CUDA_ARCH__)
#include <string.h>
#endif

typedef unsigned long long cp_detail_u64;

#if defined(__CUDA_ARCH__)
CP_FUNC cp_detail_u64 cp_detail_dbits(double d) { return (cp_detail_u64)__double_as_longlong(d); }
CP_FUNC double cp_detail_dfrom(cp_detail_u64 b) { return __longlong_as_double((long long)b); }
CP_FUNC unsigned int cp_detail_fbits(float f) { return __float_as_uint(f); }
CP_FUNC float cp_detail_ffrom(unsigned int b) { return __uint_as_float(b); }
CP_FUNC int cp_detail_clz64(cp_detail_u64 x) { return __clzll((long long)x); }
#else
CP_FUNC cp_detail_u64 cp_detail_dbits(double d) { cp_detail_u64 b; memcpy(&b, &d, sizeof b); return b; }
CP_FUNC double cp_detail_dfrom(cp_detail_u64 b) { double d; memcpy(&d, &b, sizeof d); return d; }
CP_FUNC unsigned int cp_detail_fbits(float f) { unsigned int b; memcpy(&b, &f, sizeof b); return b; }
CP_FUNC float cp_detail_ffrom(unsigned int b) { float f; memcpy(&f, &b, sizeof f); return f; }
#if defined(__GNUC__) || defined(__clang__)
CP_FUNC int cp_detail_clz64(cp_detail_u64 x) { return __builtin_clzll(x); }
#else
CP_FUNC int cp_detail_clz64(cp_detail_u64 x)
{
  int n = 0;
  while (!(x & 0x8000000000000000ULL)) { x <<= 1; ++n; }
  return n;
}
#endif
#endif

/* q = mag >> sh rounded to nearest, ties to even (1 <= sh <= 64). */
CP_FUNC cp_detail_u64 cp_detail_shift_rne(cp_detail_u64 mag, int sh)
{
  cp_detail_u64 q = sh == 64 ? 0 : mag >> sh;
  cp_detail_u64 rem = sh == 64 ? mag : mag & ((1ULL << sh) - 1), half = 1ULL << (sh - 1);
  return q + (rem > half || (rem == half && (q & 1)));
}

/* The bits (sign clear) of RN(mag * 2^ex) as a float, mag > 0: +inf beyond the float
 * range, a subnormal or zero below 2^-126, each rounded once. */
CP_FUNC unsigned int cp_detail_float_bits(cp_detail_u64 mag, int ex)
{
  int p = 63 - cp_detail_clz64(mag); /* mag in [2^p, 2^(p+1)) */
  int x = p + ex;                     /* the value in [2^x, 2^(x+1)) */
  if (x > 127) return 0x7f800000U;
  int sh = (x >= -126 ? x - 23 : -149) - ex; /* bits of mag below the float's last bit */
  cp_detail_u64 q = sh <= 0 ? mag << -sh : sh > 64 ? 0 : cp_detail_shift_rne(mag, sh);
  /* a normal q holds the implicit bit (2^23), which adds one to the exponent field; a
   * rounding carry to 2^24 (or from the largest subnormal to 2^23) moves it up by one */
  unsigned int bits = (x >= -126 ? (unsigned int)(x + 126) << 23 : 0U) + (unsigned int)q;
  return bits >= 0x7f800000U ? 0x7f800000U : bits;
}

/* d with any exponent the hot path does not take: exact integer code for all of them. */
CP_FUNC void cp_detail_pair_of_double_rare(cp_detail_u64 b, float *hi, float *lo)
{
  unsigned int sign = (unsigned int)(b >> 32) & 0x80000000U;
  int E = (int)(b >> 52) & 0x7ff;
  cp_detail_u64 m = b & 0x000fffffffffffffULL;
  *lo = 0.0f;
  if (E == 0x7ff) { /* inf, or NaN quieted with the top of its payload */
    *hi = cp_detail_ffrom(sign | 0x7f800000U | (m ? 0x00400000U | (unsigned int)(m >> 29) : 0U));
    return;
  }
  if (E == 0 && m == 0) { *hi = cp_detail_ffrom(sign); return; } /* +-0: lo = 0 - 0 = +0 */
  int ex = E ? E - 1075 : -1074; /* |d| = mag * 2^ex */
  cp_detail_u64 mag = E ? m | 0x0010000000000000ULL : m;
  unsigned int hb = cp_detail_float_bits(mag, ex);
  *hi = cp_detail_ffrom(sign | hb);
  if (hb == 0x7f800000U) return; /* overflow: {+-inf, 0} */
  /* |hi| = H * 2^f; f >= ex + 29 whenever H != 0, and H * 2^(f - ex) <= mag + 2^52 */
  cp_detail_u64 H = hb >= 0x00800000U ? (hb & 0x007fffffU) | 0x00800000U : hb;
  int f = hb >= 0x00800000U ? (int)(hb >> 23) - 150 : -149;
  long long D = H ? (long long)mag - (long long)(H << (f - ex)) : (long long)mag;
  if (D == 0) return; /* d - hi == 0 exactly: +0 */
  unsigned int lsign = D < 0 ? sign ^ 0x80000000U : sign;
  *lo = cp_detail_ffrom(lsign | cp_detail_float_bits(D < 0 ? (cp_detail_u64)-D : (cp_detail_u64)D, ex));
}

/* hi = RN(d), lo = RN(d - hi): see the top of this file. */
CP_FUNC void cp_detail_pair_of_double(double d, float *hi, float *lo)
{
  cp_detail_u64 b = cp_detail_dbits(d);
  unsigned int E = (unsigned int)(b >> 52) & 0x7ffU;
  if (E - 949U > 1150U - 949U) { /* |d| < 2^-74 or >= 2^128, 0, subnormal, inf, NaN */
    cp_detail_pair_of_double_rare(b, hi, lo);
    return;
  }
  unsigned int sign = (unsigned int)(b >> 32) & 0x80000000U;
  cp_detail_u64 m = b & 0x000fffffffffffffULL;
  unsigned int top = (unsigned int)(m >> 29), rest = (unsigned int)m & 0x1fffffffU;
  unsigned int up = rest > 0x10000000U || (rest == 0x10000000U && (top & 1U));
  /* a carry out of the 23 mantissa bits moves into the exponent; past 254 it gives inf */
  unsigned int hb = ((E - 896U) << 23) + top + up;
  *hi = cp_detail_ffrom(sign | hb);
  if (hb >= 0x7f800000U) { *lo = 0.0f; return; }
  /* d - hi = (rest - up * 2^29) * 2^(E - 1075), |rest - up * 2^29| <= 2^28: the int -> float
   * conversion rounds it once (to nearest even), the scaling by 2^(E - 1075) >= 2^-126 is
   * exact, and 0 gives +0 */
  int D = (int)rest - (int)(up << 29);
  float scale = cp_detail_ffrom((E - 948U) << 23);
  *lo = cp_fmul_rn((float)(sign ? -D : D), scale);
}

/* The exact double of a float (no rounding: every float is a double). */
CP_FUNC double cp_detail_double_of_float(float f)
{
  unsigned int b = cp_detail_fbits(f), a = b & 0x7fffffffU;
  cp_detail_u64 sign = (cp_detail_u64)(b >> 31) << 63;
  if (a >= 0x7f800000U) /* inf, or NaN quieted with its payload */
    return cp_detail_dfrom(sign | 0x7ff0000000000000ULL |
                           ((cp_detail_u64)(a & 0x007fffffU) << 29) |
                           (a > 0x7f800000U ? 0x0008000000000000ULL : 0ULL));
  if (a == 0) return cp_detail_dfrom(sign);
  int p = 63 - cp_detail_clz64(a); /* a subnormal's leading bit, or the exponent field's */
  if (a >= 0x00800000U)
    return cp_detail_dfrom(sign | ((cp_detail_u64)(a >> 23) + 896U) << 52 | (cp_detail_u64)(a & 0x007fffffU) << 29);
  return cp_detail_dfrom(sign | (cp_detail_u64)(p + 874) << 52 | ((cp_detail_u64)a << (52 - p) & 0x000fffffffffffffULL));
}

/* RN(v + e) in double: see the top of this file. */
CP_FUNC double cp_detail_double_of_pair(float v, float e)
{
  unsigned int vb = cp_detail_fbits(v), eb = cp_detail_fbits(e);
  unsigned int va = vb & 0x7fffffffU, ea = eb & 0x7fffffffU;
  if (va >= 0x7f800000U || ea >= 0x7f800000U) {
    if (va > 0x7f800000U || (ea <= 0x7f800000U && va == 0x7f800000U && (ea < 0x7f800000U || vb == eb)))
      return cp_detail_double_of_float(v); /* NaN v, inf v + finite or same inf */
    if (ea > 0x7f800000U || va < 0x7f800000U) return cp_detail_double_of_float(e);
    return cp_detail_dfrom(0xfff8000000000000ULL); /* inf + -inf */
  }
  /* big: the operand of larger magnitude; both as M * 2^lsb with M < 2^24 */
  unsigned int bb = va >= ea ? vb : eb, sb = va >= ea ? eb : vb;
  unsigned int ba = bb & 0x7fffffffU, sa = sb & 0x7fffffffU;
  cp_detail_u64 MB = ba >= 0x00800000U ? (ba & 0x007fffffU) | 0x00800000U : ba;
  cp_detail_u64 MS = sa >= 0x00800000U ? (sa & 0x007fffffU) | 0x00800000U : sa;
  int lb = ba >= 0x00800000U ? (int)(ba >> 23) - 150 : -149;
  int ls = sa >= 0x00800000U ? (int)(sa >> 23) - 150 : -149;
  /* big's M at bits 62..39 (in units of 2^(lb - 39)); small aligned to it, the bits shifted
   * out (only when small lies 2^38 below big, so the sum keeps 61 leading bits) kept as a
   * sticky bit 0 */
  cp_detail_u64 A = MB << 39, B;
  int s = ls - lb + 39;
  if (s >= 0)
    B = MS << s;
  else if (s > -64)
    B = (MS >> -s) | ((MS & ((1ULL << -s) - 1)) != 0);
  else
    B = MS != 0;
  cp_detail_u64 S = ((bb ^ sb) & 0x80000000U) ? A - B : A + B;
  if (S == 0) return cp_detail_dfrom((cp_detail_u64)(vb & eb & 0x80000000U) << 32);
  int p = 63 - cp_detail_clz64(S);
  cp_detail_u64 q = p > 52 ? cp_detail_shift_rne(S, p - 52) : S << (52 - p);
  /* q in [2^52, 2^53]: its implicit bit (or a rounding carry) adds to the exponent field;
   * floats sum to neither overflow nor a subnormal in double */
  cp_detail_u64 expo = (cp_detail_u64)(p + lb - 39 + 1022);
  return cp_detail_dfrom(((cp_detail_u64)(bb & 0x80000000U) << 32) + (expo << 52) + q);
}

#endif /* CP_BITS_CUH */
