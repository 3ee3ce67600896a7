// Prototypes of converted functions in the file of their definition take the same new
// signature: composite parameters and results, cp_float * out-parameters, companions
// after paired buffers (named after the prototype's parameter, or unnamed like it).
__device__ float lj(float r2, float *virial);
__device__ void scale(float *, float);
__global__ void k(const float *r2, float *e, float *w, int n);

void run(const float *d_r2, int n)
{
  float *d_e, *d_w;
  cudaMalloc((void **)&d_e, n * sizeof(float));
  cudaMalloc((void **)&d_w, n * sizeof(float));
  k<<<1, n>>>(d_r2, d_e, d_w, n);
  cudaFree(d_e);
  cudaFree(d_w);
}

#pragma cp composite
__global__ void k(const float *r2, float *e, float *w, int n)
{
  int i = threadIdx.x;
  float v;
  e[i] = lj(r2[i], &v);
  w[i] = v;
  scale(e, 0.5f);
}

#pragma cp composite
__device__ float lj(float r2, float *virial)
{
  float inv6 = 1.0f / (r2 * r2 * r2);
  *virial = 12.0f * inv6 * inv6;
  return 4.0f * (inv6 * inv6 - inv6);
}

__device__ void scale(float *p, float s)
{
  p[threadIdx.x] *= s;
}
