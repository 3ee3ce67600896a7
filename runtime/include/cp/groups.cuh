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
#include "detail/dw_float.inc"
#define CP_DW_FN(op) cp_##op
#include "detail/dw_groups.inc"
#include "detail/dw_undef.inc"
#endif /* !CP_BACKEND_IS_DP */

#include "detail/dw_double.inc"
#define CP_DW_FN(op) cp_dd_##op
#include "detail/dw_groups.inc"
#include "detail/dw_undef.inc"
#endif

#endif /* CP_GROUPS_CUH */
