/* cp/cp.cuh - the composite-precision runtime: the one header generated code includes.
 *
 * Representation. A cp_float {v, e} stands for the exact real number v + e, where v is the
 * float the uncompensated program would have computed (to within its own rounding) and e
 * the error that float rounding dropped. cp_to_float(x) = RN(v + e) recombines the two.
 * cp_double {hi, lo} is the same for double (double-double).
 *
 * Normalization invariant. The accurate family (the default) and cp_double keep every
 * result normalized: |e| <= ulp(v)/2 and RN(v + e) == v, so v is always the correctly
 * rounded float of the pair. The paper and fast families may leave pairs unnormalized
 * (|e| can exceed ulp(v)/2, v can be 0 while e is not); every operation of every family
 * accepts unnormalized operands, and comparisons, rounding and conversions work on the
 * represented value v + e in all cases.
 *
 * Selecting the family. Define CP_ALGO before including this header (or -DCP_ALGO=...):
 *   CP_ALGO_PAPER    (1) Saponaro/Taufer formulas bit for bit (float_paper.cuh)
 *   CP_ALGO_ACCURATE (2) double-word algorithms of Joldes/Muller/Popescu (default)
 *   CP_ALGO_FAST     (3) error-free transformations without renormalization (Narumi)
 *   CP_ALGO_MID      (4) the accurate family with the sloppy pair + pair add (float_mid.cuh)
 * As accuracy tiers (cpconvert --accuracy): low is fast, mid is mid, high is accurate.
 * The generic names (cp_add, cp_sub, cp_mul, cp_div, their _cf/_fc forms, cp_sqr, cp_sqrt,
 * cp_rsqrt, cp_rcp, cp_fma, cp_warp_sum) map to the chosen family at compile time; the
 * family names (cp_paper_add, cp_accurate_add, cp_fast_add, cp_mid_add, ...) are always
 * available, so one program can use or test all four. Family-independent functions (conversions,
 * comparisons, cp_neg, cp_mul_pow2, cp_fabs, cp_fmin, cp_fmax, cp_floor, cp_ceil, cp_rint, cp_trunc,
 * accumulators) have one name only.
 *
 * Rounding is pinned. Every algorithm is written with the primitives of config.cuh
 * (cp_fadd_rn ... cp_fma_rn): the __f*_rn/__d*_rn intrinsics on the device, which nvcc
 * never contracts into FMAs, and the plain operators on the host, built with
 * -ffp-contract=off (GCC ignores #pragma STDC FP_CONTRACT; the cp::runtime CMake target adds
 * the flag, and GCC's ISO -std= modes default to it). Host and device therefore compute bit-identical pairs, which tests/gpu checks.
 * Compiles as C11, C++ and CUDA; -ffast-math is refused.
 *
 * Selecting the backend. CP_BACKEND (config.cuh): ff computes on the float pair as above;
 * dp computes in native double (backend_dp.cuh), the default in device passes for GPUs with
 * fast FP64. Under dp the family names do not exist and CP_ALGO has no effect.
 *
 * Special values behave like float: see convert.cuh. Error bounds: see each function and
 * docs/runtime.md.
 */
#ifndef CP_CP_CUH
#define CP_CP_CUH

#define CP_ALGO_PAPER 1
#define CP_ALGO_ACCURATE 2
#define CP_ALGO_FAST 3
#define CP_ALGO_MID 4
#ifndef CP_ALGO
#define CP_ALGO CP_ALGO_ACCURATE
#endif

#include "config.cuh"
#include "types.cuh"
#include "eft.cuh"
#include "convert.cuh"
#include "common.cuh"
#include "float_accurate.cuh"
#include "float_paper.cuh"
#include "float_fast.cuh"
#include "float_mid.cuh"
#include "double.cuh"
#include "accum.cuh"
#include "warp.cuh"

#if CP_ALGO == CP_ALGO_PAPER
#define CP_DETAIL_FAMILY(op) cp_paper_##op
#define CP_ALGO_NAME "paper"
#elif CP_ALGO == CP_ALGO_ACCURATE
#define CP_DETAIL_FAMILY(op) cp_accurate_##op
#define CP_ALGO_NAME "accurate"
#elif CP_ALGO == CP_ALGO_FAST
#define CP_DETAIL_FAMILY(op) cp_fast_##op
#define CP_ALGO_NAME "fast"
#elif CP_ALGO == CP_ALGO_MID
#define CP_DETAIL_FAMILY(op) cp_mid_##op
#define CP_ALGO_NAME "mid"
#else
#error "CP_ALGO must be CP_ALGO_PAPER (1), CP_ALGO_ACCURATE (2), CP_ALGO_FAST (3) or CP_ALGO_MID (4)"
#endif

#if !CP_BACKEND_IS_DP
/* The generic operations: each is the selected family's function of the same name. */
CP_FUNC cp_float cp_add(cp_float x, cp_float y) { return CP_DETAIL_FAMILY(add)(x, y); }
CP_FUNC cp_float cp_sub(cp_float x, cp_float y) { return CP_DETAIL_FAMILY(sub)(x, y); }
CP_FUNC cp_float cp_mul(cp_float x, cp_float y) { return CP_DETAIL_FAMILY(mul)(x, y); }
CP_FUNC cp_float cp_div(cp_float x, cp_float y) { return CP_DETAIL_FAMILY(div)(x, y); }
CP_FUNC cp_float cp_sqr(cp_float x) { return CP_DETAIL_FAMILY(sqr)(x); }
CP_FUNC cp_float cp_add_cf(cp_float x, float f) { return CP_DETAIL_FAMILY(add_cf)(x, f); }
CP_FUNC cp_float cp_sub_cf(cp_float x, float f) { return CP_DETAIL_FAMILY(sub_cf)(x, f); }
CP_FUNC cp_float cp_mul_cf(cp_float x, float f) { return CP_DETAIL_FAMILY(mul_cf)(x, f); }
CP_FUNC cp_float cp_div_cf(cp_float x, float f) { return CP_DETAIL_FAMILY(div_cf)(x, f); }
CP_FUNC cp_float cp_add_fc(float f, cp_float y) { return CP_DETAIL_FAMILY(add_fc)(f, y); }
CP_FUNC cp_float cp_sub_fc(float f, cp_float y) { return CP_DETAIL_FAMILY(sub_fc)(f, y); }
CP_FUNC cp_float cp_mul_fc(float f, cp_float y) { return CP_DETAIL_FAMILY(mul_fc)(f, y); }
CP_FUNC cp_float cp_div_fc(float f, cp_float y) { return CP_DETAIL_FAMILY(div_fc)(f, y); }
CP_FUNC cp_float cp_sqrt(cp_float x) { return CP_DETAIL_FAMILY(sqrt)(x); }
CP_FUNC cp_float cp_rsqrt(cp_float x) { return CP_DETAIL_FAMILY(rsqrt)(x); }
CP_FUNC cp_float cp_rcp(cp_float x) { return CP_DETAIL_FAMILY(rcp)(x); }
CP_FUNC cp_float cp_fma(cp_float a, cp_float b, cp_float c) { return CP_DETAIL_FAMILY(fma)(a, b, c); }

#if defined(__CUDACC__)
CP_DEVICE_FUNC cp_float cp_warp_sum(unsigned mask, cp_float x) { return CP_DETAIL_FAMILY(warp_sum)(mask, x); }
#endif
#else
/* dp: the generic names are one double operation each (backend_dp.cuh). */
#include "backend_dp.cuh"
#endif

/* Built on the generic names: paired-buffer access for converted kernels (pair.cuh), the
 * accuracy tiers by name (tiers.cuh), the math functions in every tier: exp and log
 * (math.cuh), exp2 ... pow (math_exp.cuh), sinh ... rnorm3d (math_spec.cuh), the
 * trigonometric ones (math_trig.cuh); cooperative-groups shuffles (groups.cuh, C++ only) and
 * the host-side recombination of converted programs (host.cuh). */
#include "pair.cuh"
#include "tiers.cuh"
/* The math functions' constants are hexadecimal floats, which C++ has from C++17 (and GNU
 * modes before it). A host-only C++ file built in strict C++11 or C++14 (g++ -std=c++14, a
 * converted program's .cpp driver that includes this header for the host API) cannot lex
 * them: it gets the rest of the runtime, and no math function (it has no device code to
 * call them from). nvcc compiles them in every dialect. */
#if defined(__CUDACC__) || !defined(__cplusplus) || __cplusplus >= 201703L || !defined(__STRICT_ANSI__)
#include "math.cuh"
#include "math_exp.cuh"
#include "math_spec.cuh"
#include "math_trig.cuh"
#endif
#include "groups.cuh"
#include "host.cuh"

/* Recording for cpconvert --profile (profile.cuh, docs/profile.md); without CP_PROFILE the
 * wrappers the profiled conversion writes are nothing, so its output compiles either way. */
#if defined(CP_PROFILE)
#include "profile.cuh"
#else
#define cp_prof(T, N, x) (x)
#define cp_prof_launch(T, N) ((void)0)
#define cp_prof_count(T, N, B) ((void)0)
#define CP_PROFILE_TABLE(...)
static inline int cp_profile_write(const char *path) { (void)path; return 0; }
#endif

#if defined(CP_REPORT)
/* Fixed-point sums read back are checked for a resolution coarser than float's (accum.cuh).
 * A macro does not expand inside itself, so each expands to the function of its name. */
#define cp_fixed_to_cp(q)                                                                    \
  cp_fixed_to_cp(cp_detail_fixed_report((q), CP_FIXED_FRAC_BITS, __FILE__, __LINE__, #q))
#define cp_fixed_to_cp_bits(q, f)                                                            \
  cp_fixed_to_cp_bits(cp_detail_fixed_report((q), (f), __FILE__, __LINE__, #q), (f))
#endif

#endif /* CP_CP_CUH */
