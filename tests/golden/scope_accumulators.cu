// scope(accumulators): only what accumulates turns composite (the sums across loop
// iterations, the shared reduction tree, what flows from them, the paired buffers); the
// per-pair arithmetic stays float.
#pragma cp composite scope(accumulators)
__global__ void nonbond(const float4 *pos, float *energy, float *block_energy, int n,
                        float cut2) {
  __shared__ float tree[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = 0.0f;
  float4 pi = pos[i];
  for (int j = 0; j < n; j++) {
    float dx = pos[j].x - pi.x, dy = pos[j].y - pi.y, dz = pos[j].z - pi.z;
    float r2 = dx * dx + dy * dy + dz * dz;
    if (j == i || r2 > cut2) continue;
    float s6 = 1.0f / (r2 * r2 * r2);
    e += 4.0f * (s6 * s6 - s6);
  }
  float half = 0.5f * e;
  energy[i] = half;
  tree[threadIdx.x] = half;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) tree[threadIdx.x] += tree[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) block_energy[blockIdx.x] = tree[0];
}
