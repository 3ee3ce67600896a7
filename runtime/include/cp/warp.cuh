/* cp/warp.cuh - warp shuffles of pairs and warp sums (device only).
 *
 * A shuffle moves both halves (two 32-bit shuffles for cp_float, four for cp_double). The
 * warp sums are xor butterflies (5 levels) whose every lane ends with the same bits: at each
 * level the partner with the lower lane number is always the left operand, so even the
 * paper and fast adds, which are not bitwise commutative in e, agree across lanes. The
 * mask must name all 32 lanes, and all 32 lanes must call. The result is the same
 * fixed-shape reduction tree as a host loop that pairs lanes the same way (tests/gpu).
 *
 * Device code is C++, so the shuffles take width with CUDA's default (32), as the
 * intrinsics do: cp_shfl_down_sync(mask, x, delta) is valid, like __shfl_down_sync.
 */
#ifndef CP_WARP_CUH
#define CP_WARP_CUH

#include "float_paper.cuh"
#include "float_fast.cuh"
#include "float_mid.cuh"
#include "double.cuh"

#if defined(__CUDACC__)

#if !CP_BACKEND_IS_DP /* dp: backend_dp.cuh */
CP_DEVICE_FUNC cp_float cp_shfl_sync(unsigned mask, cp_float x, int src_lane, int width = 32)
{
  return cp_make_float(__shfl_sync(mask, x.v, src_lane, width), __shfl_sync(mask, x.e, src_lane, width));
}
CP_DEVICE_FUNC cp_float cp_shfl_up_sync(unsigned mask, cp_float x, unsigned delta, int width = 32)
{
  return cp_make_float(__shfl_up_sync(mask, x.v, delta, width), __shfl_up_sync(mask, x.e, delta, width));
}
CP_DEVICE_FUNC cp_float cp_shfl_down_sync(unsigned mask, cp_float x, unsigned delta, int width = 32)
{
  return cp_make_float(__shfl_down_sync(mask, x.v, delta, width),
                       __shfl_down_sync(mask, x.e, delta, width));
}
CP_DEVICE_FUNC cp_float cp_shfl_xor_sync(unsigned mask, cp_float x, int lane_mask, int width = 32)
{
  return cp_make_float(__shfl_xor_sync(mask, x.v, lane_mask, width),
                       __shfl_xor_sync(mask, x.e, lane_mask, width));
}
#endif /* !CP_BACKEND_IS_DP */

CP_DEVICE_FUNC cp_double cp_dd_shfl_sync(unsigned mask, cp_double x, int src_lane, int width = 32)
{
  return cp_make_double(__shfl_sync(mask, x.hi, src_lane, width), __shfl_sync(mask, x.lo, src_lane, width));
}
CP_DEVICE_FUNC cp_double cp_dd_shfl_down_sync(unsigned mask, cp_double x, unsigned delta, int width = 32)
{
  return cp_make_double(__shfl_down_sync(mask, x.hi, delta, width),
                        __shfl_down_sync(mask, x.lo, delta, width));
}
CP_DEVICE_FUNC cp_double cp_dd_shfl_up_sync(unsigned mask, cp_double x, unsigned delta, int width = 32)
{
  return cp_make_double(__shfl_up_sync(mask, x.hi, delta, width),
                        __shfl_up_sync(mask, x.lo, delta, width));
}
CP_DEVICE_FUNC cp_double cp_dd_shfl_xor_sync(unsigned mask, cp_double x, int lane_mask, int width = 32)
{
  return cp_make_double(__shfl_xor_sync(mask, x.hi, lane_mask, width),
                        __shfl_xor_sync(mask, x.lo, lane_mask, width));
}

CP_DEVICE_FUNC unsigned cp_detail_lane_id(void)
{
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/* Butterfly sum over the warp with the given pair addition; lower lane on the left. */
#define CP_DETAIL_WARP_SUM(T, SHFL, ADD, mask, x)                                             \
  do {                                                                                        \
    unsigned lane_ = cp_detail_lane_id();                                                     \
    for (int o_ = 16; o_ > 0; o_ >>= 1) {                                                     \
      T other_ = SHFL((mask), (x), o_, 32);                                                   \
      (x) = (lane_ & (unsigned)o_) ? ADD(other_, (x)) : ADD((x), other_);                     \
    }                                                                                         \
  } while (0)

#if !CP_BACKEND_IS_DP /* dp: backend_dp.cuh */
/* Warp sums, one per family, every lane gets the same bits. Error: that of 31 additions
 * in a balanced tree (depth 5) of the family's add. */
CP_DEVICE_FUNC cp_float cp_paper_warp_sum(unsigned mask, cp_float x)
{
  CP_DETAIL_WARP_SUM(cp_float, cp_shfl_xor_sync, cp_paper_add, mask, x);
  return x;
}
CP_DEVICE_FUNC cp_float cp_accurate_warp_sum(unsigned mask, cp_float x)
{
  CP_DETAIL_WARP_SUM(cp_float, cp_shfl_xor_sync, cp_accurate_add, mask, x);
  return x;
}
CP_DEVICE_FUNC cp_float cp_fast_warp_sum(unsigned mask, cp_float x)
{
  CP_DETAIL_WARP_SUM(cp_float, cp_shfl_xor_sync, cp_fast_add, mask, x);
  return x;
}
CP_DEVICE_FUNC cp_float cp_mid_warp_sum(unsigned mask, cp_float x)
{
  CP_DETAIL_WARP_SUM(cp_float, cp_shfl_xor_sync, cp_mid_add, mask, x);
  return x;
}
#endif /* !CP_BACKEND_IS_DP */

CP_DEVICE_FUNC cp_double cp_dd_warp_sum(unsigned mask, cp_double x)
{
  CP_DETAIL_WARP_SUM(cp_double, cp_dd_shfl_xor_sync, cp_dd_add, mask, x);
  return x;
}

#endif /* __CUDACC__ */

#endif /* CP_WARP_CUH */
