// Rule local-type: float and floatN locals, local arrays and __shared__ arrays (static
// and extern) become cp_float / cp_floatN; make_floatN and member syntax keep working.
#pragma cp composite
__global__ void locals(const float *in, float *out, int n) {
  __shared__ float tile[64];
  extern __shared__ float dyn[];
  float a = in[threadIdx.x], b;
  float history[3] = {0.0f, 1.0f, 2};
  float4 v = make_float4(a, 1.0f, 2.0f, 3.0f);
  b = v.x + v.w;
  tile[threadIdx.x] = b;
  dyn[threadIdx.x] = history[1];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64] + dyn[0] + v.y;
}
