// backend_ops.cu - every runtime operation that converted code can call, in one kernel, so
// that nvcc compiles each under both backends (ctest runtime_nvcc.*: sm_90 and sm_89 with
// the default auto, each forced the other way, and sm_86). The #errors check that auto picks
// dp for sm_90 and ff for sm_89, sm_86 and the host pass.
#include <cooperative_groups.h>

#include "cp/cp.cuh"

#if CP_BACKEND == CP_BACKEND_AUTO
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && !CP_BACKEND_IS_DP
#error "auto must pick dp for sm_90"
#endif
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 890 || __CUDA_ARCH__ == 860) && CP_BACKEND_IS_DP
#error "auto must pick ff for sm_89 and sm_86"
#endif
#if !defined(__CUDA_ARCH__) && CP_BACKEND_IS_DP
#error "auto must pick ff for the host pass"
#endif
#endif

namespace cg = cooperative_groups;

__global__ void k(float *a, float *a_err, float4 *p, float4 *p_err, unsigned long long *fx, double *dh, double *dl) {
  int i = threadIdx.x;
  __shared__ cp_float cell;
  cp_float x = cp_make_float(a[i], a_err[i]);
  cp_float y = cp_add(cp_mul(x, x), cp_from_float(1.0f));
  y = cp_div(cp_sub_cf(y, 2.0f), cp_add_fc(1.0f, x));
  y = cp_fma(cp_sqrt(cp_fabs(y)), cp_rsqrt(cp_add_cf(cp_fabs(x), 1.0f)), cp_rcp(cp_from_int(3)));
  y = cp_add(y, cp_mul_ff(a[0], a[1]));
  y = cp_fmin(cp_fmax(y, cp_floor(x)), cp_ceil(cp_rint(cp_trunc(x))));
  if (cp_lt(x, y) || cp_le_cf(x, 1.0f) || cp_gt_fc(2.0f, y) || cp_eq(x, y) || cp_ne_cf(x, 0.0f)) y = cp_neg(y);
  y = cp_add(y, cp_from_double(0.1) );
  y = cp_add(y, cp_fixed_to_cp(cp_fixed_from_cp(y)));
  cp_kahan k = cp_kahan_add(cp_kahan_init(), a[i]);
  y = cp_add(y, cp_kahan_to_cp(k));
  y = cp_warp_sum(0xffffffffu, y);
  y = cp_shfl_down_sync(0xffffffffu, y, 1);
  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());
  y = cp_group_shfl_down(t, y, 1);
  cp_atomic_add(&(cell).v, &(cell).e, y);
  cp_atomic_add(&a[0], &a_err[0], y);
  cp_atomic_add_f(&a[0], &a_err[0], 1.0f);
  cp_fixed_atomic_add(fx, cp_fixed_from_cp(y));
  cp_float4 v = cp_pair_float4(p[i], p_err[i]);
  v.x = cp_add(v.x, cp_from_float4(p[0]).y);
  cp_store_float4(&p[i], &p_err[i], v);
  cp_add_to(&a[i], &a_err[i], y);
  cp_store(&a[i], &a_err[i], cell);
  a[i] = cp_to_float(y) + (float)cp_to_double(y) + (float)cp_to_int(y) + cp_isnan(y) + cp_isinf(y);
  cp_double dd = cp_dd_add(cp_dd_from_cp(y), cp_dd_from_double(dh[i]));
  cp_dd_atomic_add(dh, dl, cp_dd_shfl_down_sync(0xffffffffu, dd, 1));
  cp_dd_store(&dh[i], &dl[i], cp_dd_group_shfl(t, dd, 0));
}
