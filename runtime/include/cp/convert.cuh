/* cp/convert.cuh - conversions, recombination, normalization, and the special-value rule.
 *
 * These do not depend on the family (paper/accurate/fast). Conversions into a pair are exact
 * where the text says so; conversions out of a pair are correctly rounded (one rounding of
 * the exact v + e) unless stated otherwise.
 *
 * Special values (infinities, NaN, the sign of zero) follow one of two rules, chosen when the
 * runtime is compiled:
 *
 *   settled at the boundaries (the default). The arithmetic of the families computes on the
 *   pairs as its algorithms are written, with no check on the hot path, as float-float
 *   libraries do (CCCL's fpmp, QD). A pair is settled where it leaves composite arithmetic:
 *   where it is stored into a paired element (cp_store, cp_add_to, the atomics), recombined
 *   (cp_to_float, cp_to_double, cp_to_int), normalized, or compared (every comparison, fabs,
 *   fmin, fmax, floor, ceil, rint, trunc). Settling (cp_settle) keeps a pair whose halves are
 *   both finite and replaces any other by {v, 0}: an error half never stores inf or NaN, and
 *   the value half says what the represented number is. What differs from float: an
 *   infinite operand or an overflow inside composite arithmetic usually gives NaN where float
 *   gives +-inf (inf - inf in an error term reaches the value half), and a zero result may
 *   carry the other sign than float's. Ordinary numbers are not affected, bit for bit.
 *
 *   CP_STRICT_SPECIALS (define it before including cp.cuh, or -DCP_STRICT_SPECIALS): after
 *   every arithmetic operation, a result whose value half is not finite, whose error half is
 *   not finite, or which is exactly zero ({0, 0}) is replaced by {f, 0}, where f is the float
 *   (double) operation applied to the recombined operands. So inf stays inf, NaN stays NaN,
 *   overflow gives inf (never an inf/NaN pair), and zeros get the sign IEEE arithmetic gives
 *   them: special values behave like float, bit for bit (tests/runtime/check_special.c). A pair
 *   with a zero value half and a non-zero finite error half (which the paper and fast
 *   families can produce) is an ordinary number and is kept. It costs three compares and a
 *   branch in every operation, about 2x the time of a compute-bound float-float chain.
 *
 * cp_double (double-double) always follows the strict rule.
 */
#ifndef CP_CONVERT_CUH
#define CP_CONVERT_CUH

#include "eft.cuh"
#include "bits.cuh"

#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */

/* 1 where the family converted code computes with (CP_ALGO) keeps every pair normalized:
 * accurate (2) and mid (4). */
#if defined(CP_ALGO) && (CP_ALGO == 2 || CP_ALGO == 4)
#define CP_DETAIL_NORMALIZED_FAMILY 1
#else
#define CP_DETAIL_NORMALIZED_FAMILY 0
#endif

/* The error half of x as settling leaves it: e, or 0 where e is not finite. */
CP_FUNC float cp_detail_settled_e(cp_float x) { return cp_detail_finitef(x.e) ? x.e : 0.0f; }

/* ---- recombination and construction ---- */

/* {f, 0}: exact. */
CP_FUNC cp_float cp_from_float(float f) { return cp_make_float(f, 0.0f); }

/* RN(v + e), one rounding; v itself when e == 0 (keeps the sign of -0) or when e is not finite
 * (settled: see the top of this file). */
CP_FUNC float cp_to_float(cp_float x)
{
  return x.e != 0.0f && cp_detail_finitef(x.e) ? cp_fadd_rn(x.v, x.e) : x.v;
}

/* v + e in double: exact when e's last bit lies within 53 bits of v's first (always for
 * normalized pairs whose e is not far below ulp(v)), else correctly rounded; v when e is not
 * finite (settled: see the top of this file). In device code the same bits come from integer
 * operations (bits.cuh): no FP64 instruction. */
CP_FUNC double cp_to_double(cp_float x)
{
  float e = cp_detail_settled_e(x);
#if defined(__CUDA_ARCH__)
  return cp_detail_double_of_pair(x.v, e);
#else
  return cp_dadd_rn((double)x.v, (double)e);
#endif
}

/* Exact negation. */
CP_FUNC cp_float cp_neg(cp_float x) { return cp_make_float(-x.v, -x.e); }

/* TwoSum(v, e): the same number with RN(v + e) == v; exact. Settles (see the top of this file):
 * a non-finite error half gives {v, 0}, a non-finite sum {v + e, 0}; e == 0 gives x itself
 * (v + 0 would turn -0 into +0). Branch-free: the TwoSum is always computed and the cases are
 * selects, since the paper and fast families compare through it in hot loops. */
CP_FUNC cp_float cp_normalize(cp_float x)
{
  cp_float s = cp_two_sum(x.v, x.e);
  int keep = x.e == 0.0f || !cp_detail_finitef(x.e);
  float v = keep ? x.v : s.v;
  float e = keep || !cp_detail_finitef(s.v) ? 0.0f : s.e;
  return cp_make_float(v, x.e == 0.0f ? x.e : e);
}

/* What a pair goes through where it is stored into memory (cp_store, cp_add_to, the vector
 * stores, the addend of the composite atomics): settled (cp_settle, below), and under the
 * fast family (CP_ALGO 3) also normalized (cp_normalize: exact, a TwoSum and selects).
 * The fast family never renormalizes, so without this a stored value half is float's own
 * result, operation for operation, and the error half carries the whole distance between
 * the float run and the composite one. Across the steps of a simulation that distance grows
 * as the two runs diverge; the error half reaches the size of the value, where the family's
 * first-order bounds no longer hold, and a reciprocal of a value half near zero whose pair
 * is not gives inf - inf (NaN). Code that reads only the value half (an unconverted kernel,
 * a host copy) would read float's result. Normalized at the store, every load starts from
 * RN(v + e) and a bounded error half. The paper family stores the thesis' pairs as they are;
 * the accurate and mid families keep pairs normalized. */
#if defined(CP_ALGO) && CP_ALGO == 3
#define CP_DETAIL_STORED(x) cp_normalize(x)
#else
#define CP_DETAIL_STORED(x) cp_settle(x)
#endif

/* What comparisons and fabs read (dw_common.inc). The accurate and mid families keep every
 * pair normalized (|e| <= ulp(v)/2), and a normalized pair compares lexicographically as it
 * is: only its error half is settled (a select). The paper and fast families leave pairs
 * unnormalized: cp_normalize (a TwoSum and selects). The choice follows CP_ALGO, the
 * family converted code computes with; a program that compares pairs of the paper or fast
 * family under CP_ALGO accurate or mid must normalize them first. */
#if CP_DETAIL_NORMALIZED_FAMILY
CP_FUNC cp_float cp_detail_cmp_ready(cp_float x)
{
  return cp_make_float(x.v, cp_detail_settled_e(x));
}
#else
CP_FUNC cp_float cp_detail_cmp_ready(cp_float x) { return cp_normalize(x); }
#endif

/* A float with the sign of x - f (0 when they are equal; NaN when either is), for comparing
 * an unnormalized pair with a float without normalizing it: RN(RN(v - f) + e), e settled;
 * e itself when v == f (equal infinities included, whose difference is NaN).
 * Exact in sign when |e| < |v|/4 or v == 0 (every pair of the paper and fast families): where
 * v - f is inexact, v and f are more than a factor 2 apart, so |v - f| > |v|/2 > 2|e|;
 * otherwise v - f is exact (Sterbenz) and one rounding keeps the sign of the sum. */
CP_FUNC float cp_detail_cmp_diff(cp_float x, float f)
{
  float e = cp_detail_settled_e(x);
  return x.v == f ? e : cp_fadd_rn(cp_fsub_rn(x.v, f), e);
}

CP_FUNC int cp_isnan(cp_float x) { return x.v != x.v; }
CP_FUNC int cp_isinf(cp_float x) { return !cp_isnan(x) && !cp_detail_finitef(x.v); }
CP_FUNC int cp_isfinite(cp_float x) { return cp_detail_finitef(x.v); }

/* ---- the special-value rule (see the top of this file) ---- */

/* Settling at a boundary: x if both halves are finite, else {v, 0}. Exact for ordinary
 * numbers; branch-free (a compare and a select). */
CP_FUNC cp_float cp_settle(cp_float x)
{
  return cp_detail_finitef(x.v) && cp_detail_finitef(x.e) ? x : cp_make_float(x.v, 0.0f);
}

CP_FUNC int cp_detail_ordinary(cp_float z)
{
  return z.v != 0.0f && cp_detail_finitef(z.v) && cp_detail_finitef(z.e);
}

CP_FUNC cp_float cp_detail_settle(cp_float z, float f)
{
  if (cp_detail_finitef(z.v) && cp_detail_finitef(z.e) && z.e != 0.0f) return z;
  return cp_make_float(f, 0.0f);
}

/* CP_DETAIL_SETTLE(z, f): what every float operation does with its result z, given the float
 * result f of the operation on the recombined operands (evaluated only on the rare path).
 * Nothing by default; the per-operation rule under CP_STRICT_SPECIALS. CP_PROJECT_COMMON_PATH
 * (bench/project.py, device code only, never for running) keeps the strict check but replaces
 * its rare path by a trap, so static instruction counts see what ordinary numbers execute. */
#if !defined(CP_STRICT_SPECIALS)
#define CP_DETAIL_SETTLE(z, f) ((void)0)
#elif defined(CP_PROJECT_COMMON_PATH) && defined(__CUDA_ARCH__)
#define CP_DETAIL_SETTLE(z, f)                                                                \
  do {                                                                                        \
    if (!cp_detail_ordinary(z)) __trap();                                                     \
  } while (0)
#else
#define CP_DETAIL_SETTLE(z, f)                                                                \
  do {                                                                                        \
    if (!cp_detail_ordinary(z)) (z) = cp_detail_settle((z), (f));                             \
  } while (0)
#endif

/* ---- from integers and doubles ---- */

/* Exact for every int: hi = RN(i), lo = i - hi (|lo| <= 64 is a float). */
CP_FUNC cp_float cp_from_int(int i)
{
  float hi = (float)i;
  long long rest = (long long)i - (long long)hi; /* hi in [-2^31, 2^31]: fits */
  return cp_make_float(hi, (float)rest);
}

/* Exact for every unsigned int (hi up to 2^32, |lo| <= 128). */
CP_FUNC cp_float cp_from_uint(unsigned int u)
{
  float hi = (float)u;
  long long rest = (long long)u - (long long)hi;
  return cp_make_float(hi, (float)rest);
}

/* hi = RN(d), lo = RN(d - hi) (d - hi is exact in double). Exact when d has at most 48
 * significant bits and both halves are normal floats; inexact when |d| is beyond the float
 * range (gives {+-inf, 0}), when d has more than 48 significant bits (lo rounds), or when
 * lo falls below 2^-126 (lo subnormal or zero). In device code the same bits come from
 * integer operations (bits.cuh): no FP64 instruction. */
CP_FUNC cp_float cp_from_double(double d)
{
#if defined(__CUDA_ARCH__)
  float h, l;
  cp_detail_pair_of_double(d, &h, &l);
  return cp_make_float(h, l);
#else
  float hi = (float)d;
  if (!cp_detail_finitef(hi)) return cp_make_float(hi, 0.0f);
  return cp_make_float(hi, (float)cp_dsub_rn(d, (double)hi));
#endif
}

#endif /* !CP_BACKEND_IS_DP */

/* ---- double-double conversions ---- */

CP_FUNC cp_double cp_dd_from_double(double d) { return cp_make_double(d, 0.0); }
CP_FUNC cp_double cp_dd_from_float(float f) { return cp_make_double((double)f, 0.0); }
CP_FUNC cp_double cp_dd_from_int(int i) { return cp_make_double((double)i, 0.0); }
#if !CP_BACKEND_IS_DP
/* Exact: a pair of floats is a sum of two doubles. */
CP_FUNC cp_double cp_dd_from_cp(cp_float x) { return cp_make_double((double)x.v, (double)x.e); }
#endif

/* RN(hi + lo); hi itself when lo == 0 (keeps -0). */
CP_FUNC double cp_dd_to_double(cp_double x) { return x.lo == 0.0 ? x.hi : cp_dadd_rn(x.hi, x.lo); }
/* RN to float of the exact hi + lo (correctly rounded). |lo| <= ulp(hi)/2 is far below a
 * float ulp, so hi + lo rounds like hi except when hi is exactly halfway between two floats:
 * then the sign of lo breaks the tie. */
CP_FUNC float cp_dd_to_float(cp_double x)
{
  float h = (float)x.hi;
  if (x.lo == 0.0 || !cp_detail_finitef(h)) return h;
  double d = cp_dsub_rn(x.hi, (double)h); /* exact */
  if (d == 0.0) return h;
  float n = nextafterf(h, d > 0.0 ? INFINITY : -INFINITY); /* the other neighbour of hi */
  if (cp_dmul_rn(2.0, d) != cp_dsub_rn((double)n, (double)h)) return h; /* not a tie */
  return ((d > 0.0) == (x.lo > 0.0)) ? n : h;
}

CP_FUNC cp_double cp_dd_neg(cp_double x) { return cp_make_double(-x.hi, -x.lo); }

CP_FUNC cp_double cp_dd_normalize(cp_double x)
{
  if (x.lo == 0.0) return x;
  cp_double s = cp_dd_two_sum(x.hi, x.lo);
  if (!cp_detail_finite(s.hi)) s.lo = 0.0;
  return s;
}

CP_FUNC int cp_dd_isnan(cp_double x) { return x.hi != x.hi || x.lo != x.lo; }

CP_FUNC int cp_dd_detail_ordinary(cp_double z)
{
  return z.hi != 0.0 && cp_detail_finite(z.hi) && cp_detail_finite(z.lo);
}

CP_FUNC cp_double cp_dd_detail_settle(cp_double z, double f)
{
  if (cp_detail_finite(z.hi) && cp_detail_finite(z.lo) && z.lo != 0.0) return z;
  return cp_make_double(f, 0.0);
}

#define CP_DD_DETAIL_SETTLE(z, f)                                                             \
  do {                                                                                        \
    if (!cp_dd_detail_ordinary(z)) (z) = cp_dd_detail_settle((z), (f));                       \
  } while (0)

/* ---- CUDA vector types (only where <vector_types.h> is visible) ---- */
#if defined(__CUDACC__) || defined(__VECTOR_TYPES_H__)
#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */
CP_FUNC cp_float2 cp_from_float2(float2 f) { return cp_make_float2(cp_from_float(f.x), cp_from_float(f.y)); }
CP_FUNC cp_float3 cp_from_float3(float3 f)
{
  return cp_make_float3(cp_from_float(f.x), cp_from_float(f.y), cp_from_float(f.z));
}
CP_FUNC cp_float4 cp_from_float4(float4 f)
{
  return cp_make_float4(cp_from_float(f.x), cp_from_float(f.y), cp_from_float(f.z), cp_from_float(f.w));
}
CP_FUNC float2 cp_to_float2(cp_float2 x)
{
  float2 r; r.x = cp_to_float(x.x); r.y = cp_to_float(x.y); return r;
}
CP_FUNC float3 cp_to_float3(cp_float3 x)
{
  float3 r; r.x = cp_to_float(x.x); r.y = cp_to_float(x.y); r.z = cp_to_float(x.z); return r;
}
CP_FUNC float4 cp_to_float4(cp_float4 x)
{
  float4 r;
  r.x = cp_to_float(x.x); r.y = cp_to_float(x.y); r.z = cp_to_float(x.z); r.w = cp_to_float(x.w);
  return r;
}
#endif /* !CP_BACKEND_IS_DP */
CP_FUNC cp_double2 cp_dd_from_double2(double2 d)
{
  return cp_make_double2(cp_dd_from_double(d.x), cp_dd_from_double(d.y));
}
CP_FUNC double2 cp_dd_to_double2(cp_double2 x)
{
  double2 r; r.x = cp_dd_to_double(x.x); r.y = cp_dd_to_double(x.y); return r;
}
CP_FUNC cp_double3 cp_dd_from_double3(double3 d)
{
  return cp_make_double3(cp_dd_from_double(d.x), cp_dd_from_double(d.y), cp_dd_from_double(d.z));
}
CP_FUNC double3 cp_dd_to_double3(cp_double3 x)
{
  double3 r; r.x = cp_dd_to_double(x.x); r.y = cp_dd_to_double(x.y); r.z = cp_dd_to_double(x.z);
  return r;
}
#endif

#endif /* CP_CONVERT_CUH */
