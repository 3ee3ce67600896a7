// Every `extern __shared__ float4 tile[]` of a file names one array, so its declarations
// keep one type. The kernel, in scope(accumulators), would keep its tile float4; the
// helper it calls, annotated scope(all) (as the float-call warning on the accumulator
// asks), turns its own declaration cp_float4: both turn composite. Before, the output
// declared the array twice with two types, and the verify pass failed (an internal error).
__device__ float3 interact(float4 bi, float4 bj, float3 ai) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float d2 = r.x * r.x + r.y * r.y + r.z * r.z + 0.01f;
  float inv = rsqrtf(d2 * d2 * d2);
  ai.x += r.x * bj.w * inv;
  ai.y += r.y * bj.w * inv;
  ai.z += r.z * bj.w * inv;
  return ai;
}

#pragma cp composite scope(all)
__device__ float3 tile_forces(float4 me, float3 acc) {
  extern __shared__ float4 tile[];
  for (int i = 0; i < blockDim.x; i++)
    acc = interact(me, tile[i], acc);
  return acc;
}

#pragma cp composite scope(accumulators)
__global__ void forces(const float4 *pos, float4 *acc, int n) {
  extern __shared__ float4 tile[];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = pos[gid];
  float3 a = {0.0f, 0.0f, 0.0f};
  for (int t = 0; t < n / blockDim.x; t++) {
    tile[threadIdx.x] = pos[t * blockDim.x + threadIdx.x];
    __syncthreads();
    a = tile_forces(me, a);
    __syncthreads();
  }
  acc[gid] = make_float4(a.x, a.y, a.z, 0.0f);
}

void launch(const float4 *pos, float4 *acc, int n, int block) {
  forces<<<n / block, block, block * sizeof(float4)>>>(pos, acc, n);
}
