// O(N^2) neighbour-list builder. The list holds the pairs within cutoff + SKIN and the
// forces filter by the cutoff, so main.cu rebuilds it only every few steps. The position
// parameters are plain `real *` without const although the kernel only reads them, as
// in many codes; a tool must not take that as a write.
#include "common.h"
#include "mic.h"

static __global__ void gpu_find_neighbor(int number, real box, real rc2,
                                         real *g_x, real *g_y, real *g_z,
                                         int *g_nn, int *g_nl)
{
  int n1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (n1 >= number) {
    return;
  }
  int count = 0;
  for (int n2 = 0; n2 < number; ++n2) {
    if (n2 == n1) {
      continue;
    }
    real x12 = g_x[n2] - g_x[n1];
    real y12 = g_y[n2] - g_y[n1];
    real z12 = g_z[n2] - g_z[n1];
    apply_mic(box, &x12, &y12, &z12);
    real d2 = x12 * x12 + y12 * y12 + z12 * z12;
    if (d2 < rc2 && count < MAX_NEIGHBOR) {
      g_nl[n1 * MAX_NEIGHBOR + count++] = n2;
    }
  }
  g_nn[n1] = count;
}

void find_neighbor(Atom *atom)
{
  int grid = (atom->number + BLOCK_SIZE - 1) / BLOCK_SIZE;
  real skin = atom->cutoff + SKIN;
  gpu_find_neighbor<<<grid, BLOCK_SIZE>>>(atom->number, atom->box, skin * skin, atom->x,
                                          atom->y, atom->z, atom->nn, atom->nl);
  CHECK(cudaGetLastError());
}
