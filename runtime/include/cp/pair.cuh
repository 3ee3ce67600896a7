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
 *
 * Both cp_float's and cp_double's versions come from one template, detail/dw_pair.inc.
 */
#ifndef CP_PAIR_CUH
#define CP_PAIR_CUH

#include "config.cuh"
#include "types.cuh"

#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */
#include "detail/dw_float.inc"
#define CP_DW_FN(op) cp_##op
#define CP_DW_CS(op) cp_##op##_cf
#define CP_DW_SS(op) cp_##op##_ff
#include "detail/dw_pair.inc"
#include "detail/dw_undef.inc"

#if defined(__CUDACC__) || defined(__VECTOR_TYPES_H__)
/* The 4-vector element and its store, settled (normalized under the fast family; cp_float only: CUDA 13 deprecates double4).
 * Exact for ordinary numbers. */
CP_FUNC cp_float4 cp_pair_float4(float4 v, float4 e) {
  return cp_make_float4(cp_make_float(v.x, e.x), cp_make_float(v.y, e.y), cp_make_float(v.z, e.z),
                        cp_make_float(v.w, e.w));
}
CP_FUNC void cp_store_float4(float4 *v, float4 *e, cp_float4 x) {
  x.x = CP_DETAIL_STORED(x.x); x.y = CP_DETAIL_STORED(x.y);
  x.z = CP_DETAIL_STORED(x.z); x.w = CP_DETAIL_STORED(x.w);
  v->x = x.x.v; v->y = x.y.v; v->z = x.z.v; v->w = x.w.v;
  e->x = x.x.e; e->y = x.y.e; e->z = x.z.e; e->w = x.w.e;
}
#endif
#endif /* !CP_BACKEND_IS_DP */

/* ---- the same for converted kernels written in double (cp_double) ---- */

#include "detail/dw_double.inc"
#define CP_DW_FN(op) cp_dd_##op
#define CP_DW_CS(op) cp_dd_##op##_cd
#define CP_DW_SS(op) cp_dd_##op##_dd
#include "detail/dw_pair.inc"
#include "detail/dw_undef.inc"

#endif /* CP_PAIR_CUH */
