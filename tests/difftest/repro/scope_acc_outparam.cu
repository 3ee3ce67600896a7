// difftest bug (issue 11 item 4): in scope(accumulators), a local whose address goes to
// a converted helper's float * out-parameter stays float while the parameter becomes
// cp_float *; cpconvert exits 0 and nvcc rejects the output:
//   error: argument of type "float *" is incompatible with parameter of type "cp_float *"
// Found by: scripts/difftest.sh --seed 1 --count 500 (seeds 66, 83, 113, ...; features
// `helpers` with `scope_accumulators`).
#pragma cp composite
__device__ void split(float a, float *o1) {
  *o1 = a * 0.5f;
}

#pragma cp composite scope(accumulators)
__global__ void caller(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = 0.0f;
  split(in[i], &t);
  out[i] = t;
}
