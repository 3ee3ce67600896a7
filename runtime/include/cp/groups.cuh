/* cp/groups.cuh - cooperative-groups shuffles of composites.
 *
 * The tile's own shuffle applied to both halves, so a reduction over a
 * cooperative_groups::thread_block_tile carries the error like cp_shfl_down_sync does.
 * C++ only (the tile types are classes); exact: each half moves unchanged.
 */
#ifndef CP_GROUPS_CUH
#define CP_GROUPS_CUH

#include "types.cuh"

#if defined(__CUDACC__) && defined(__cplusplus)
template <class Group>
__device__ static inline cp_float cp_group_shfl(const Group &g, cp_float x, unsigned src) {
  return cp_make_float(g.shfl(x.v, src), g.shfl(x.e, src));
}
template <class Group>
__device__ static inline cp_float cp_group_shfl_down(const Group &g, cp_float x, unsigned delta) {
  return cp_make_float(g.shfl_down(x.v, delta), g.shfl_down(x.e, delta));
}
template <class Group>
__device__ static inline cp_float cp_group_shfl_up(const Group &g, cp_float x, unsigned delta) {
  return cp_make_float(g.shfl_up(x.v, delta), g.shfl_up(x.e, delta));
}
template <class Group>
__device__ static inline cp_float cp_group_shfl_xor(const Group &g, cp_float x, unsigned mask) {
  return cp_make_float(g.shfl_xor(x.v, mask), g.shfl_xor(x.e, mask));
}
template <class Group>
__device__ static inline cp_double cp_dd_group_shfl(const Group &g, cp_double x, unsigned src) {
  return cp_make_double(g.shfl(x.hi, src), g.shfl(x.lo, src));
}
template <class Group>
__device__ static inline cp_double cp_dd_group_shfl_down(const Group &g, cp_double x, unsigned delta) {
  return cp_make_double(g.shfl_down(x.hi, delta), g.shfl_down(x.lo, delta));
}
template <class Group>
__device__ static inline cp_double cp_dd_group_shfl_up(const Group &g, cp_double x, unsigned delta) {
  return cp_make_double(g.shfl_up(x.hi, delta), g.shfl_up(x.lo, delta));
}
template <class Group>
__device__ static inline cp_double cp_dd_group_shfl_xor(const Group &g, cp_double x, unsigned mask) {
  return cp_make_double(g.shfl_xor(x.hi, mask), g.shfl_xor(x.lo, mask));
}
#endif

#endif /* CP_GROUPS_CUH */
