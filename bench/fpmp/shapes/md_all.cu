// symbols: k_md_all md_all_run
/* md_all: Lennard-Jones forces and potential energy, all pairs with a cutoff (epsilon =
 * sigma = 1), the nonbonded kernel of an MD code in its simplest form. Every operation is
 * converted (scope(all)): distances, powers and the force and energy sums. The net force on
 * an atom in a near-lattice is a small sum of large, cancelling pair terms. */
#include <cuda_runtime.h>

#pragma cp composite scope(all)
__global__ void k_md_all(const float4 *pos, float4 *force, float *energy, int n, float rc2)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 pi = pos[i];
  float fx = 0.0f, fy = 0.0f, fz = 0.0f, e = 0.0f;
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
      e += 2.0f * ir6 * (ir6 - 1.0f); /* half of the pair's 4 (r^-12 - r^-6) */
    }
  }
  force[i] = make_float4(fx, fy, fz, 0.0f);
  energy[i] = e;
}

void md_all_run(const float4 *pos, float4 *force, float *energy, int n, float rc2)
{
  k_md_all<<<(n + 63) / 64, 64>>>(pos, force, energy, n, rc2);
}
