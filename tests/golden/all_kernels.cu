// --all converts every kernel, annotated or not, and the __device__ functions they call.
__device__ float square(float x) { return x * x; }

__global__ void sum_squares(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += square(x[i]);
  atomicAdd(out, s);
}
