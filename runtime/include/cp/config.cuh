/* cp/config.cuh - compiler glue for the composite-precision runtime.
 *
 * Everything else in the runtime is written in terms of what this file defines:
 *
 *   CP_HD, CP_FUNC      __host__ __device__ under a CUDA compiler, nothing in plain C/C++;
 *                       every runtime function is declared CP_FUNC (= CP_HD static inline).
 *   CP_DEVICE_FUNC      __device__ static inline, for what only exists on the GPU
 *                       (atomics, warp shuffles); defined only under __CUDACC__.
 *   CP_ALIGN(n)         alignment of the composite types (see types.cuh).
 *   cp_fadd_rn ...      the rounding primitives. Each is one IEEE-754 operation rounded to
 *                       nearest-even. On the device they are the __f*_rn / __d*_rn intrinsics,
 *                       which nvcc never contracts into an FMA; on the host they are the plain
 *                       operators and sqrtf/fmaf/sqrt/fma of <math.h>.
 *
 * Why the primitives: the error-free transformations (TwoSum, Fast2Sum, the FMA TwoProd)
 * are exact only if every operation is rounded exactly once, as written. nvcc contracts
 * a*b+c into an FMA by default (-fmad=true), which breaks them; the intrinsics cannot be
 * contracted. Writing every algorithm with these primitives only also makes the host and the
 * device compute bit-identical results (tests/gpu checks this).
 *
 * Host side: GCC ignores `#pragma STDC FP_CONTRACT OFF`, so host builds must pass
 * -ffp-contract=off (the CMake target cp::runtime adds it; GCC's ISO modes -std=c11/c++17
 * default to it, the GNU modes -std=gnu* do not). TwoSum and Fast2Sum contain no products,
 * so they cannot be contracted anyway; every product that the algorithms need is either an
 * explicit fma or stands alone. Clang honours the pragma and gets it below. -ffast-math
 * (which reassociates and drops the error terms as "zero") is refused with #error.
 */
#ifndef CP_CONFIG_CUH
#define CP_CONFIG_CUH

#if defined(__FAST_MATH__)
#error "cp runtime: -ffast-math reassociates floating-point code and destroys the error terms; build without it"
#endif

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <float.h>
#include <limits.h>
#include <math.h>

/* ---- backend: how cp_float computes (see backend_dp.cuh and docs/runtime.md) ----
 *
 * CP_BACKEND_FF  float-float: a cp_float is the pair {v, e} of floats, the families of
 *                float_paper/float_accurate/float_fast.cuh compute on it.
 * CP_BACKEND_DP  native double: a cp_float holds one double d between operations; every
 *                operation is one IEEE double operation; the pair {v, e} exists only in
 *                memory (paired buffers), split from d on store and summed into d on load.
 * CP_BACKEND_AUTO (default) picks per compilation pass: DP in a device pass for an
 *                architecture whose FP64 rate is half its FP32 rate (the data-centre parts of
 *                the CUDA C++ Programming Guide's arithmetic-throughput table), FF for every
 *                other architecture (FP64 at 1:32 to 1:64; sm_103 is B300/GB300, whose FP64
 *                NVIDIA cut) and for the host pass:
 *                  dp on sm_60/70/80/90/100
 *                  ff on sm_75/86/87/89/103/110/120/121 (and any other)
 *                So `nvcc -gencode` for several GPUs gives each its own backend. The #if
 *                below is the table; tests/runtime/check_backend_table.py checks that it,
 *                these two lines and the docs agree, and what nvcc picks for each of them.
 * CP_BACKEND_IS_DP is the resolved choice (0 or 1) and CP_BACKEND_NAME its name.
 * No value is 0: the preprocessor reads an unknown word (-DCP_BACKEND=ff) as 0, which must
 * reach the #error, not pass as one of the three.
 */
#define CP_BACKEND_AUTO 3
#define CP_BACKEND_FF 1
#define CP_BACKEND_DP 2
#ifndef CP_BACKEND
#define CP_BACKEND CP_BACKEND_AUTO
#endif
#if CP_BACKEND == CP_BACKEND_FF
#define CP_BACKEND_IS_DP 0
#elif CP_BACKEND == CP_BACKEND_DP
#define CP_BACKEND_IS_DP 1
#elif CP_BACKEND == CP_BACKEND_AUTO
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 600 || __CUDA_ARCH__ == 700 ||                \
                               __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 ||                \
                               __CUDA_ARCH__ == 1000)
#define CP_BACKEND_IS_DP 1
#else
#define CP_BACKEND_IS_DP 0
#endif
#else
#error "CP_BACKEND must be CP_BACKEND_AUTO, CP_BACKEND_FF or CP_BACKEND_DP (-DCP_BACKEND=CP_BACKEND_FF, not -DCP_BACKEND=ff: the preprocessor reads a word it does not know as 0)"
#endif
#if CP_BACKEND_IS_DP
#define CP_BACKEND_NAME "dp"
#else
#define CP_BACKEND_NAME "ff"
#endif

#if defined(__CUDACC__)
#define CP_HD __host__ __device__
#define CP_DEVICE_FUNC __device__ static inline
#else
#define CP_HD
#endif
#define CP_FUNC CP_HD static inline

#if defined(__CUDACC__)
#define CP_ALIGN(n) __align__(n)
#elif defined(__GNUC__) || defined(__clang__)
#define CP_ALIGN(n) __attribute__((aligned(n)))
#elif defined(_MSC_VER)
#define CP_ALIGN(n) __declspec(align(n))
#else
#error "cp runtime: no way to align structures on this compiler"
#endif

#if defined(__cplusplus)
#define CP_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define CP_ALIGNOF(t) alignof(t)
#else
#define CP_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define CP_ALIGNOF(t) _Alignof(t)
#endif

/* ---- rounding primitives, float (one rounding to nearest-even each) ---- */
#if defined(__CUDA_ARCH__)
CP_FUNC float cp_fadd_rn(float a, float b) { return __fadd_rn(a, b); }
CP_FUNC float cp_fsub_rn(float a, float b) { return __fsub_rn(a, b); }
CP_FUNC float cp_fmul_rn(float a, float b) { return __fmul_rn(a, b); }
CP_FUNC float cp_fdiv_rn(float a, float b) { return __fdiv_rn(a, b); }
CP_FUNC float cp_frcp_rn(float a) { return __frcp_rn(a); } /* = RN(1/a), as the host's 1.0f / a */
CP_FUNC float cp_fsqrt_rn(float a) { return __fsqrt_rn(a); }
CP_FUNC float cp_fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }
#else
CP_FUNC float cp_fadd_rn(float a, float b) { return a + b; }
CP_FUNC float cp_fsub_rn(float a, float b) { return a - b; }
CP_FUNC float cp_fmul_rn(float a, float b) { return a * b; }
CP_FUNC float cp_fdiv_rn(float a, float b) { return a / b; }
CP_FUNC float cp_frcp_rn(float a) { return 1.0f / a; }
CP_FUNC float cp_fsqrt_rn(float a) { return sqrtf(a); }
CP_FUNC float cp_fma_rn(float a, float b, float c) { return fmaf(a, b, c); }
#endif

/* ---- rounding primitives, double ---- */
#if defined(__CUDA_ARCH__)
CP_FUNC double cp_dadd_rn(double a, double b) { return __dadd_rn(a, b); }
CP_FUNC double cp_dsub_rn(double a, double b) { return __dsub_rn(a, b); }
CP_FUNC double cp_dmul_rn(double a, double b) { return __dmul_rn(a, b); }
CP_FUNC double cp_ddiv_rn(double a, double b) { return __ddiv_rn(a, b); }
CP_FUNC double cp_drcp_rn(double a) { return __drcp_rn(a); }
CP_FUNC double cp_dsqrt_rn(double a) { return __dsqrt_rn(a); }
CP_FUNC double cp_dfma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }
#else
CP_FUNC double cp_dadd_rn(double a, double b) { return a + b; }
CP_FUNC double cp_dsub_rn(double a, double b) { return a - b; }
CP_FUNC double cp_dmul_rn(double a, double b) { return a * b; }
CP_FUNC double cp_ddiv_rn(double a, double b) { return a / b; }
CP_FUNC double cp_drcp_rn(double a) { return 1.0 / a; }
CP_FUNC double cp_dsqrt_rn(double a) { return sqrt(a); }
CP_FUNC double cp_dfma_rn(double a, double b, double c) { return fma(a, b, c); }
#endif

/* ---- exact helpers (no rounding involved) ---- */
/* 1 for finite a, 0 for +-inf and NaN (NaN fails every comparison). */
CP_FUNC int cp_detail_finitef(float a) { return fabsf(a) <= FLT_MAX; }
CP_FUNC int cp_detail_finite(double a) { return fabs(a) <= DBL_MAX; }

#endif /* CP_CONFIG_CUH */
