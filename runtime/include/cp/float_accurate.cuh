/* cp/float_accurate.cuh - the accurate family (the default): float-float arithmetic.
 *
 * Normalized pairs in, normalized pairs out (|e| <= ulp(v)/2, RN(v + e) == v), with the
 * double-word algorithms of Joldes, Muller and Popescu (ACM TOMS 2017) and u = 2^-24:
 * relative errors of a few u^2 (about 2^-46), i.e. roughly 44 significant bits, as long as
 * nothing underflows (results above about 2^-100) or overflows.
 *
 * The code is in detail/dw_accurate.inc, shared with cp_double; this file instantiates it
 * for floats under the names cp_accurate_add, cp_accurate_add_cf, cp_accurate_add_fc, ...
 */
#ifndef CP_FLOAT_ACCURATE_CUH
#define CP_FLOAT_ACCURATE_CUH

#include "convert.cuh"
#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */

#include "detail/dw_float.inc"
#define CP_DW_FN(op) cp_accurate_##op
#define CP_DW_CS(op) cp_accurate_##op##_cf
#define CP_DW_SC(op) cp_accurate_##op##_fc
#include "detail/dw_accurate.inc"
#include "detail/dw_undef.inc"

#endif /* !CP_BACKEND_IS_DP */

#endif /* CP_FLOAT_ACCURATE_CUH */
