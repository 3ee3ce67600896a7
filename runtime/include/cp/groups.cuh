/* cp/groups.cuh - cooperative-groups shuffles of composites.
 *
 * The tile's own shuffle applied to both halves, so a reduction over a
 * cooperative_groups::thread_block_tile carries the error like cp_shfl_down_sync does.
 * C++ only (the tile types are classes); exact: each half moves unchanged. cp_float's and
 * cp_double's versions come from one template, detail/dw_groups.inc.
 */
#ifndef CP_GROUPS_CUH
#define CP_GROUPS_CUH

#include "types.cuh"

#if defined(__CUDACC__) && defined(__cplusplus)
#if !CP_BACKEND_IS_DP /* the ff backend only; dp: backend_dp.cuh */
#define CP_DW_T cp_float
#define CP_DW_H v
#define CP_DW_L e
#define CP_DW_FN(op) cp_##op
#define CP_DW_MAKE cp_make_float
#include "detail/dw_groups.inc"
#include "detail/dw_undef.inc"
#endif /* !CP_BACKEND_IS_DP */

#define CP_DW_T cp_double
#define CP_DW_H hi
#define CP_DW_L lo
#define CP_DW_FN(op) cp_dd_##op
#define CP_DW_MAKE cp_make_double
#include "detail/dw_groups.inc"
#include "detail/dw_undef.inc"
#endif

#endif /* CP_GROUPS_CUH */
