/* cp/pair.cuh - what converted kernels call to read and write paired buffers, and the
 * operations on two plain floats.
 *
 * A paired buffer is a float buffer `x` with a companion `x_err` of the same shape:
 * element i holds the composite {x[i], x_err[i]}. Converted code reads an element with
 * cp_make_float(x[i], x_err[i]) (cp_pair_float2/3/4 for vector elements), stores one with
 * cp_store(&x[i], &x_err[i], value) and adds into one with cp_add_to (the non-atomic
 * x[i] += value; atomics are cp_atomic_add in accum.cuh).
 *
 * The _ff forms take two plain floats (a converted kernel's `a[i] * b[i]` over read-only
 * buffers): they are the family's operation on the exact composites of the operands, so a
 * result is bit-identical to cp_OP(cp_from_float(a), cp_from_float(b)) in every family.
 */
#ifndef CP_PAIR_CUH
#define CP_PAIR_CUH

#include "config.cuh"
#include "types.cuh"

/* Family's add/sub/mul/div of two exact floats. Accurate: exact for add, sub and mul
 * (TwoSum, TwoProd); div within the family's div-by-float bound. */
CP_FUNC cp_float cp_add_ff(float a, float b) { return cp_add_cf(cp_from_float(a), b); }
CP_FUNC cp_float cp_sub_ff(float a, float b) { return cp_sub_cf(cp_from_float(a), b); }
CP_FUNC cp_float cp_mul_ff(float a, float b) { return cp_mul_cf(cp_from_float(a), b); }
CP_FUNC cp_float cp_div_ff(float a, float b) { return cp_div_cf(cp_from_float(a), b); }

/* Stores both halves of x into a paired element. Exact. */
CP_FUNC void cp_store(float *v, float *e, cp_float x) {
  *v = x.v;
  *e = x.e;
}

/* {*v, *e} += x, not atomic: the family's add of the element and x, stored back. */
CP_FUNC void cp_add_to(float *v, float *e, cp_float x) {
  cp_store(v, e, cp_add(cp_make_float(*v, *e), x));
}

#if defined(__CUDACC__) || defined(__VECTOR_TYPES_H__)
/* A vector element of a paired buffer, and its store: each member as cp_make_float and
 * cp_store. Exact. */
CP_FUNC cp_float2 cp_pair_float2(float2 v, float2 e) {
  return cp_make_float2(cp_make_float(v.x, e.x), cp_make_float(v.y, e.y));
}
CP_FUNC cp_float3 cp_pair_float3(float3 v, float3 e) {
  return cp_make_float3(cp_make_float(v.x, e.x), cp_make_float(v.y, e.y), cp_make_float(v.z, e.z));
}
CP_FUNC cp_float4 cp_pair_float4(float4 v, float4 e) {
  return cp_make_float4(cp_make_float(v.x, e.x), cp_make_float(v.y, e.y), cp_make_float(v.z, e.z),
                        cp_make_float(v.w, e.w));
}
CP_FUNC void cp_store_float2(float2 *v, float2 *e, cp_float2 x) {
  v->x = x.x.v; v->y = x.y.v;
  e->x = x.x.e; e->y = x.y.e;
}
CP_FUNC void cp_store_float3(float3 *v, float3 *e, cp_float3 x) {
  v->x = x.x.v; v->y = x.y.v; v->z = x.z.v;
  e->x = x.x.e; e->y = x.y.e; e->z = x.z.e;
}
CP_FUNC void cp_store_float4(float4 *v, float4 *e, cp_float4 x) {
  v->x = x.x.v; v->y = x.y.v; v->z = x.z.v; v->w = x.w.v;
  e->x = x.x.e; e->y = x.y.e; e->z = x.z.e; e->w = x.w.e;
}
#endif


/* ---- the same for converted kernels written in double (cp_double) ---- */

/* Double-double add/sub/mul/div of two exact doubles (exact for add, sub and mul). */
CP_FUNC cp_double cp_dd_add_dd(double a, double b) { return cp_dd_add_cd(cp_dd_from_double(a), b); }
CP_FUNC cp_double cp_dd_sub_dd(double a, double b) { return cp_dd_sub_cd(cp_dd_from_double(a), b); }
CP_FUNC cp_double cp_dd_mul_dd(double a, double b) { return cp_dd_mul_cd(cp_dd_from_double(a), b); }
CP_FUNC cp_double cp_dd_div_dd(double a, double b) { return cp_dd_div_cd(cp_dd_from_double(a), b); }

/* Stores both halves of x into a paired double element. Exact. */
CP_FUNC void cp_dd_store(double *hi, double *lo, cp_double x) {
  *hi = x.hi;
  *lo = x.lo;
}

/* {*hi, *lo} += x, not atomic. */
CP_FUNC void cp_dd_add_to(double *hi, double *lo, cp_double x) {
  cp_dd_store(hi, lo, cp_dd_add(cp_make_double(*hi, *lo), x));
}

#if defined(__CUDACC__) || defined(__VECTOR_TYPES_H__)
CP_FUNC cp_double2 cp_pair_double2(double2 v, double2 e) {
  return cp_make_double2(cp_make_double(v.x, e.x), cp_make_double(v.y, e.y));
}
CP_FUNC cp_double3 cp_pair_double3(double3 v, double3 e) {
  return cp_make_double3(cp_make_double(v.x, e.x), cp_make_double(v.y, e.y), cp_make_double(v.z, e.z));
}
CP_FUNC void cp_store_double2(double2 *v, double2 *e, cp_double2 x) {
  v->x = x.x.hi; v->y = x.y.hi;
  e->x = x.x.lo; e->y = x.y.lo;
}
CP_FUNC void cp_store_double3(double3 *v, double3 *e, cp_double3 x) {
  v->x = x.x.hi; v->y = x.y.hi; v->z = x.z.hi;
  e->x = x.x.lo; e->y = x.y.lo; e->z = x.z.lo;
}
#endif

#endif /* CP_PAIR_CUH */
