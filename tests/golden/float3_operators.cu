// Operator functions on float3 (as in CUDA samples' helper_math.h) that converted code
// calls are converted like other helpers: the composite copy keeps the operator's name and
// overloads it on cp_float3, so `a + b` in converted code stays an operator and host code
// keeps the float3 one. A compound operator on a paired element (`vel[i] += a`) would bind
// a buffer element to a cp_float3 &: written through a local here (see err_operator_element).
#include <cstdio>

inline __host__ __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
inline __host__ __device__ float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
inline __host__ __device__ float3 operator-(float3 a) { return make_float3(-a.x, -a.y, -a.z); }
inline __host__ __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
inline __host__ __device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

#pragma cp composite
__global__ void step(float3 *pos, float3 *vel, const float3 *force, float dt, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int s = 0; s < steps; s++) {
    float3 v = vel[i] + force[i] * dt;
    vel[i] = v;
    float3 p = pos[i];
    p += -v * (-dt);
    pos[i] = p;
  }
}

int main() {
  const int n = 32;
  float3 hp[n], hv[n], hf[n];
  for (int i = 0; i < n; i++) {
    hp[i] = make_float3(0.1f * i, 1.0f, -0.5f * i);
    hv[i] = make_float3(0.0f, 0.01f * i, 0.0f);
    hf[i] = make_float3(1e-3f * (i + 1), -2e-3f, 3e-4f * i) + make_float3(0.0f, 0.0f, 1e-5f);
  }
  float3 *pos, *vel, *force;
  cudaMalloc(&pos, sizeof hp);
  cudaMalloc(&vel, sizeof hv);
  cudaMalloc(&force, sizeof hf);
  cudaMemcpy(pos, hp, sizeof hp, cudaMemcpyHostToDevice);
  cudaMemcpy(vel, hv, sizeof hv, cudaMemcpyHostToDevice);
  cudaMemcpy(force, hf, sizeof hf, cudaMemcpyHostToDevice);
  step<<<1, n>>>(pos, vel, force, 0.001f, n, 2000);
  cudaMemcpy(hp, pos, sizeof hp, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("%.9g %.9g %.9g %.9g\n", hp[i].x, hp[i].y, hp[i].z, dot(hp[i], hp[i]));
  return 0;
}
