// Device pointers into one allocation, handed out through a struct's initializer list
// (positions and velocities share one cudaMalloc): the companions point into the
// allocation's companion the same way, and the host instance of the struct (host memory)
// is left alone. The integration runs on the device too, so that the double build (which
// the semantics guard compares with) differs from the float one only in the kernels.
#include <cstdio>
#include <cstdlib>

typedef struct { float4 *pos, *vel; } Bodies;

#pragma cp composite
__global__ void kick(float4 *p, float4 *v, float dt, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    float fx = 0.0f;
    for (int j = 0; j < n; j++)
      fx += p[j].x - p[i].x;
    v[i].x += dt * fx;
  }
}

#pragma cp composite
__global__ void drift(float4 *p, const float4 *v, float dt, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n)
    p[i].x += v[i].x * dt;
}

int main() {
  const int n = 256;
  int bytes = 2 * n * sizeof(float4);
  float *buf = (float *)malloc(bytes);
  Bodies h = {(float4 *)buf, ((float4 *)buf) + n};
  for (int i = 0; i < 8 * n; i++)
    buf[i] = 0.001f * (i % 97);
  float *d_buf;
  cudaMalloc(&d_buf, bytes);
  Bodies d = {(float4 *)d_buf, ((float4 *)d_buf) + n};
  cudaMemcpy(d_buf, buf, bytes, cudaMemcpyHostToDevice);
  for (int it = 0; it < 10; it++) {
    kick<<<(n + 127) / 128, 128>>>(d.pos, d.vel, 0.01f, n);
    drift<<<(n + 127) / 128, 128>>>(d.pos, d.vel, 0.01f, n);
  }
  cudaMemcpy(buf, d_buf, bytes, cudaMemcpyDeviceToHost);
  printf("%.9g %.9g\n", h.pos[0].x, h.vel[n - 1].x);
  free(buf);
  cudaFree(d_buf);
  return 0;
}
