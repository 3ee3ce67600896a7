/* cp/types.cuh - the composite types and their constructors.
 *
 * cp_float  {v, e}: value and error, the represented number is the exact sum v + e
 *           (backend ff; under dp one double, see config.cuh). cp_ff is always {v, e}.
 * cp_double {hi, lo}: double-double, the represented number is hi + lo.
 *
 * Alignment, chosen so that a pair moves in as few memory instructions as the GPU has:
 *   cp_float    8 bytes, align 8: one 64-bit access (like float2).
 *   cp_float2  16 bytes, align 16: one 128-bit access (like float4).
 *   cp_float3  24 bytes, align 8: no padding; three 64-bit accesses. Aligning it to 16 would
 *              pad it to 32 bytes (+33% memory traffic in arrays) for no wider access.
 *   cp_float4  32 bytes, align 16: two 128-bit accesses. Not 32: sm_90 has no wider load than
 *              128 bits, and 32 would exceed what malloc/new guarantee on x86-64 hosts (16),
 *              making host arrays misaligned. This is the choice CUDA 13 names double4_16a;
 *              a double4_32a-style variant pays off only with 256-bit loads (sm_100 and later).
 *   cp_double  16 bytes, align 16: one 128-bit access (like double2).
 *   cp_double2 32, cp_double3 48, cp_double4 64 bytes, all align 16, for the same reasons as
 *              cp_float4 (double4_16a convention).
 * The sizes and alignments are checked with static asserts below.
 */
#ifndef CP_TYPES_CUH
#define CP_TYPES_CUH

#include "config.cuh"

/* The pair of floats: the storage format of a composite in memory under both backends, and
 * the register type of the float-float backend. */
typedef struct CP_ALIGN(8) cp_ff {
  float v; /* value: for the accurate family, RN(v + e) == v */
  float e; /* error: what float rounding dropped from v */
} cp_ff;

#if !CP_BACKEND_IS_DP
typedef cp_ff cp_float;
#else
/* Under dp a cp_float is one double. The members v and e are not numbers but names for
 * the cell: `&x.v, &x.e` is what converted code passes to cp_atomic_add for a composite
 * variable (a __shared__ cp_float), and under dp that overload adds into the double d. */
typedef struct cp_detail_cell_v { float unused_; } cp_detail_cell_v;
typedef struct cp_detail_cell_e { float unused_; } cp_detail_cell_e;
typedef struct CP_ALIGN(8) cp_float {
  union {
    double d;
    cp_detail_cell_v v;
    cp_detail_cell_e e;
  };
} cp_float;
#endif

typedef struct CP_ALIGN(16) cp_float2 {
  cp_float x, y;
} cp_float2;

typedef struct CP_ALIGN(8) cp_float3 {
  cp_float x, y, z;
} cp_float3;

typedef struct CP_ALIGN(16) cp_float4 {
  cp_float x, y, z, w;
} cp_float4;

typedef struct CP_ALIGN(16) cp_double {
  double hi; /* RN(hi + lo) == hi for results of the cp_dd_ operations */
  double lo;
} cp_double;

typedef struct CP_ALIGN(16) cp_double2 {
  cp_double x, y;
} cp_double2;

typedef struct CP_ALIGN(16) cp_double3 {
  cp_double x, y, z;
} cp_double3;

typedef struct CP_ALIGN(16) cp_double4 {
  cp_double x, y, z, w;
} cp_double4;

CP_STATIC_ASSERT(sizeof(cp_float) == 8 && CP_ALIGNOF(cp_float) == 8, "cp_float layout");
CP_STATIC_ASSERT(sizeof(cp_float2) == 16 && CP_ALIGNOF(cp_float2) == 16, "cp_float2 layout");
CP_STATIC_ASSERT(sizeof(cp_float3) == 24 && CP_ALIGNOF(cp_float3) == 8, "cp_float3 layout");
CP_STATIC_ASSERT(sizeof(cp_float4) == 32 && CP_ALIGNOF(cp_float4) == 16, "cp_float4 layout");
CP_STATIC_ASSERT(sizeof(cp_double) == 16 && CP_ALIGNOF(cp_double) == 16, "cp_double layout");
CP_STATIC_ASSERT(sizeof(cp_double4) == 64 && CP_ALIGNOF(cp_double4) == 16, "cp_double4 layout");

/* Constructors: C has no compound-literal equivalent in C++, so every pair is built here.
 * cp_make_float of the dp backend is in backend_dp.cuh. */
CP_FUNC cp_ff cp_ff_make(float v, float e) { cp_ff r; r.v = v; r.e = e; return r; }
#if !CP_BACKEND_IS_DP
CP_FUNC cp_float cp_make_float(float v, float e) { return cp_ff_make(v, e); }
#endif
CP_FUNC cp_double cp_make_double(double hi, double lo) { cp_double r; r.hi = hi; r.lo = lo; return r; }

CP_FUNC cp_float2 cp_make_float2(cp_float x, cp_float y) { cp_float2 r; r.x = x; r.y = y; return r; }
CP_FUNC cp_float3 cp_make_float3(cp_float x, cp_float y, cp_float z)
{
  cp_float3 r; r.x = x; r.y = y; r.z = z; return r;
}
CP_FUNC cp_float4 cp_make_float4(cp_float x, cp_float y, cp_float z, cp_float w)
{
  cp_float4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;
}
CP_FUNC cp_double2 cp_make_double2(cp_double x, cp_double y) { cp_double2 r; r.x = x; r.y = y; return r; }
CP_FUNC cp_double3 cp_make_double3(cp_double x, cp_double y, cp_double z)
{
  cp_double3 r; r.x = x; r.y = y; r.z = z; return r;
}
CP_FUNC cp_double4 cp_make_double4(cp_double x, cp_double y, cp_double z, cp_double w)
{
  cp_double4 r; r.x = x; r.y = y; r.z = z; r.w = w; return r;
}

#ifdef __cplusplus
/* cp_load_volatile, cp_store_volatile: a composite of any type read from or written to
 * volatile memory (the shared array of a warp-synchronous reduction, `volatile cp_float *`),
 * one 32-bit word at a time, each word a volatile access, as the float code accessed its
 * one word. Exact: a copy. The words of one composite are not read or written at once, as
 * the two floats of a paired element are not. */
template <typename T> CP_FUNC T cp_load_volatile(const volatile T *p)
{
  CP_STATIC_ASSERT(sizeof(T) % 4 == 0, "a composite is whole 32-bit words");
  T r;
  const volatile unsigned *s = reinterpret_cast<const volatile unsigned *>(p);
  unsigned *d = reinterpret_cast<unsigned *>(&r);
  for (unsigned k = 0; k < sizeof(T) / 4; k++)
    d[k] = s[k];
  return r;
}
template <typename T> CP_FUNC void cp_store_volatile(volatile T *p, T x)
{
  CP_STATIC_ASSERT(sizeof(T) % 4 == 0, "a composite is whole 32-bit words");
  volatile unsigned *d = reinterpret_cast<volatile unsigned *>(p);
  const unsigned *s = reinterpret_cast<const unsigned *>(&x);
  for (unsigned k = 0; k < sizeof(T) / 4; k++)
    d[k] = s[k];
}
#endif

#endif /* CP_TYPES_CUH */
