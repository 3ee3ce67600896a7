// A paired buffer's element bound to a reference parameter that converts (a float & helper
// `interp(r[i], out[i])`, helper_math.h's operator+=(float3 &, float3) in `vel[i] += a`):
// the element is read into a composite, the call works on it and both halves are stored
// back, in one statement standing for the call's (do { ... } while (0)), in a block, a
// branch or a loop body. The buffer pairs through the reference (the callee writes it).
#include <cstdio>

inline __host__ __device__ void operator+=(float3 &a, float3 b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
}

__device__ void interp(float r, float &f) { f = f * 0.5f + r / 3.0f; }

#pragma cp composite
__global__ void kick(float3 *vel, const float3 *force, float *out, const float *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int k = 0; k < 8; k++)
    vel[i] += force[i];
  if (i % 2)
    interp(r[i], out[i]);
  else
    interp(r[i] * 2.0f, out[i]);
}

int main() {
  const int n = 128;
  float3 h_f[n], h_v[n];
  float h_r[n], h_o[n];
  for (int i = 0; i < n; i++) {
    h_f[i] = make_float3(0.1f * (float)i, 1.0f / 3.0f, -0.7f);
    h_v[i] = make_float3(1000.0f, 1.0f, 0.001f * (float)i);
    h_r[i] = 1.0f + (float)i * 0.3f;
  }
  float3 *f, *v;
  float *r, *o;
  cudaMalloc(&f, n * sizeof(float3));
  cudaMalloc(&v, n * sizeof(float3));
  cudaMalloc(&r, n * sizeof(float));
  cudaMalloc(&o, n * sizeof(float));
  cudaMemcpy(f, h_f, n * sizeof(float3), cudaMemcpyHostToDevice);
  cudaMemcpy(v, h_v, n * sizeof(float3), cudaMemcpyHostToDevice);
  cudaMemcpy(r, h_r, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(o, 0, n * sizeof(float));
  for (int s = 0; s < 50; s++)
    kick<<<2, 64>>>(v, f, o, r, n);
  cudaMemcpy(h_v, v, n * sizeof(float3), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_o, o, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 17)
    printf("%.9g %.9g %.9g %.9g\n", h_v[i].x, h_v[i].y, h_v[i].z, h_o[i]);
  cudaFree(f);
  cudaFree(v);
  cudaFree(r);
  cudaFree(o);
  return 0;
}
