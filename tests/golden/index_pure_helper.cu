// A paired buffer indexed through __device__ helpers that only compute (lattice codes
// do this): the index is evaluated for the value and again for the error half, which is
// the same index since the helpers store nothing outside their own locals.
__device__ __forceinline__ int f_idx(int nx, int ny, int x, int y, int a) {
  return (a * ny + y) * nx + x;
}

__device__ __forceinline__ int cell(int nx, int x, int y) {
  int i = y * nx;
  i += x;
  int parts[2] = {i, 0};
  parts[1]++;
  return parts[0] + min(parts[1], 1) - 1;
}

__device__ int wrap(int nx, int x) { return cell(nx, (x + nx) % nx, 0); }

#pragma cp composite
__global__ void relax(float *f, float *rho, int nx, int ny, float omega) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= nx || y >= ny)
    return;
  float sum = 0.0f;
  for (int a = 0; a < 9; a++)
    sum += f[f_idx(nx, ny, x, y, a)];
  rho[cell(nx, x, y)] = sum;
  rho[wrap(nx, x + 1)] += 0.0f;
  for (int a = 0; a < 9; a++)
    f[f_idx(nx, ny, x, y, a)] += omega * (sum / 9.0f - f[f_idx(nx, ny, x, y, a)]);
}
