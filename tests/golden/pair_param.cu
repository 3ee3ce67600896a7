// Rules pair-param, buffer-read, buffer-write: a written float buffer gains a name_err
// companion (float4 buffers a float4 one); reads combine value and error, writes store
// both; read-only buffers stay float; pair() forces a companion, nopair() refuses one
// (stores write the recombined value). A buffer passed to another converted function is
// paired there too.
#pragma cp composite
__device__ void add_force(float4 *f, int i, float fx, float fy) {
  f[i].x += fx;
  f[i].y = f[i].y + fy;
}

#pragma cp composite pair(vel) nopair(diag)
__global__ void integrate(const float4 *pos, float4 *force, const float *vel, float *diag,
                          float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = pos[i];
  add_force(force, i, p.x * dt, vel[i] * dt);
  float4 f = force[i];
  force[i] = make_float4(f.x, f.y, f.z * 0.5f, 0.0f);
  diag[i] = f.x + f.y;
}

#pragma cp composite
__global__ void copy_vectors(const float4 *in, float4 *out, int n) {
  float4 a;
  a = in[0];
  out[n] = a;
}
