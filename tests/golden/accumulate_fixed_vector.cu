// accumulate(fixed) carries scalar float accumulators only: a float4 accumulator stays a
// composite pair, and a note says so (before: nothing was said).
#pragma cp composite accumulate(fixed)
__global__ void sum4(const float4 *x, float4 *out, float *tot, int n) {
  float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float t = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    a.x += x[i].x; a.y += x[i].y; a.z += x[i].z; a.w += x[i].w;
    t += x[i].x;
  }
  out[threadIdx.x] = a;
  tot[threadIdx.x] = t;
}
