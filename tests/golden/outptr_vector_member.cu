// Rule signature for out-parameters: the address of a vector local's member (&v.y of a
// float3) is a float's address like &x: the helper's float * becomes cp_float * and every
// caller's vector turns composite, also in scope(accumulators).
__device__ void add3(float *p, float v) { *p = *p + v; }
#pragma cp composite scope(accumulators)
__global__ void ka(float *out, int n) {
  float3 v = make_float3(0.f, 0.f, 0.f);
  for (int j = 0; j < n; j++) v.x += 1.0f / (j + 1);
  add3(&v.y, 1.0f);
  out[threadIdx.x] = v.x + v.y;
}
#pragma cp composite
__global__ void kb(float *out, int n) {
  float3 v = make_float3(0.f, 0.f, 0.f);
  add3(&v.x, 0.5f);
  out[threadIdx.x] = v.x;
}
