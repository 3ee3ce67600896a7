/* md_acc, written by hand over the number type T (see shapes/md_acc.cu): what
 * scope(accumulators) converts, the force and energy sums in T, the per-pair arithmetic in
 * float (so the float variant is md_all's float). Atoms, reference and error: md_all's. */
#include "md_all_anchor.cuh"

template <typename T>
__global__ void a_md_acc(const float4 *pos, float4 *fh, float4 *fl, float *eh, float *el, int n, float rc2)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 pi = pos[i];
  T fx = T(0.0f), fy = T(0.0f), fz = T(0.0f), e = T(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 pj = pos[j];
    float dx = pi.x - pj.x, dy = pi.y - pj.y, dz = pi.z - pj.z;
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 > 0.0f && r2 < rc2) {
      float ir2 = 1.0f / r2;
      float ir6 = ir2 * ir2 * ir2;
      float f = 24.0f * ir2 * ir6 * (2.0f * ir6 - 1.0f);
      fx += f * dx;
      fy += f * dy;
      fz += f * dz;
      e += 2.0f * ir6 * (ir6 - 1.0f);
    }
  }
  fh[i] = make_float4(num_hi(fx), num_hi(fy), num_hi(fz), 0.0f);
  fl[i] = make_float4(num_lo(fx), num_lo(fy), num_lo(fz), 0.0f);
  eh[i] = num_hi(e);
  el[i] = num_lo(e);
}

CP_LAUNCHERS(md_acc_run, (const float4 *pos, float4 *force, float4 *force_err, float *energy, float *energy_err, int n, float rc2));

template <typename T>
void md_acc_launch(const float4 *pos, float4 *fh, float4 *fl, float *eh, float *el, int n, float rc2)
{
  a_md_acc<T><<<(n + 63) / 64, 64>>>(pos, fh, fl, eh, el, n, rc2);
}

inline void bench_md_acc(const bench_opts &o)
{
  md_bench(o, "md_acc (Lennard-Jones all pairs, 10648 atoms, scope(accumulators))",
           { { "float", md_acc_launch<float> },
             { "double", md_acc_launch<double> },
             { "fpmp_low", md_acc_launch<fx::fp32mp2_low> },
             { "fpmp_mid", md_acc_launch<fx::fp32mp2> },
             { "fpmp_high", md_acc_launch<fx::fp32mp2_high> },
             { "cp_ff_high", md_acc_run },
             { "cp_ff_mid", md_acc_run_mid },
             { "cp_ff_low", md_acc_run_low },
             { "cp_ff_strict", md_acc_run_strict } });
}
