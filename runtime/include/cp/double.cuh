/* cp/double.cuh - cp_double: double-double arithmetic for kernels written in double.
 *
 * The same accurate double-word algorithms as the float family (detail/dw_accurate.inc,
 * Joldes, Muller, Popescu, ACM TOMS 2017), with u = 2^-53: relative errors of a few u^2
 * (about 2^-104), about 104 significant bits, while nothing underflows (results above about
 * 2^-900) or overflows. Names: cp_dd_add (pair, pair), cp_dd_add_cd (pair, double),
 * cp_dd_add_dc (double, pair); likewise sub, mul, div; cp_dd_sqrt, cp_dd_rsqrt, cp_dd_rcp,
 * cp_dd_fma. There is only one family for double: the paper never had one, and the
 * normalization-free shortcuts save little when FP64 is the bottleneck anyway.
 */
#ifndef CP_DOUBLE_CUH
#define CP_DOUBLE_CUH

#include "convert.cuh"

#include "detail/dw_double.inc"
#define CP_DW_FN(op) cp_dd_##op
#define CP_DW_CS(op) cp_dd_##op##_cd
#define CP_DW_SC(op) cp_dd_##op##_dc
#include "detail/dw_accurate.inc"
#include "detail/dw_undef.inc"

/* Comparisons, fabs, fmin, fmax, floor, ceil and rint, exact, as the cp_float versions
 * (common.cuh): the same template, detail/dw_common.inc. */
#include "detail/dw_double.inc"
#define CP_DW_FN(op) cp_dd_##op
#define CP_DW_CS(op) cp_dd_##op##_cd
#include "detail/dw_common.inc"
#include "detail/dw_undef.inc"

#endif /* CP_DOUBLE_CUH */
