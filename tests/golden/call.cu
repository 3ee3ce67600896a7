// Rule call: converted functions pass and return composites; a float * parameter that
// receives a converted local's address becomes cp_float *; an unannotated helper that
// only converted code calls is converted too (auto-convert, see helper_autoconvert).
__device__ float plain_scale(float x) { return 0.5f * x; }

#pragma cp composite
__device__ float lj(float r2, float eps, float *virial) {
  float inv6 = 1.0f / (r2 * r2 * r2);
  *virial = 12.0f * eps * inv6 * inv6;
  return 4.0f * eps * (inv6 * inv6 - inv6);
}

#pragma cp composite
__global__ void energy(const float *r2, float *e, float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f, vir = 0.0f, v;
  for (int j = 0; j < n; j++) {
    sum += lj(r2[i * n + j], 0.2f, &v);
    vir += v;
  }
  e[i] = plain_scale(sum);
  w[i] = vir;
}
