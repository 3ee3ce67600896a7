// host_message_view with its warning's advice followed: `unpack` is annotated. The CoMD
// shape (unloadAtomsBufferToGpu launching UnloadAtomsBufferPacked): a received message of
// plain floats carved into local vec_t views (`r.x = (float *)buf; r.y = r.x + n; ...;
// p.x = r.z + n; ...`), handed to an unconverted kernel through a host helper and to the
// converted `unpack`, which copies it into the paired atoms. `unpack` only reads through
// r and p, and every launch passes such a view: they are plain views, read as floats
// without companions (the message carries no error terms, so its values enter the atoms
// with a zero error, as a host-to-device copy's do; a companion would need a zeroed buffer
// the size of each message), and the views stay unpaired instances: no error at
// `r.x = (float *)buf` (before: "assigned a value cpconvert cannot follow").
#include <cstdio>

struct vec_t {
  float *x, *y, *z;
};

struct atoms_t {
  vec_t r, p;
};

#pragma cp composite
__global__ void advance(atoms_t a, float dt, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a.r.x[i] += dt * a.p.x[i];
    a.r.y[i] += dt * a.p.y[i];
    a.r.z[i] += dt * a.p.z[i];
  }
}

__global__ void box_ids(vec_t r, int *box, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    box[i] = (int)r.x[i];
}

#pragma cp composite
__global__ void unpack(vec_t r, vec_t p, atoms_t a, const int *box, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && box[i] >= 0) {
    a.r.x[i] = r.x[i];
    a.r.y[i] = r.y[i];
    a.r.z[i] = r.z[i];
    a.p.x[i] = p.x[i];
    a.p.y[i] = p.y[i];
    a.p.z[i] = p.z[i] * 0.5f;
  }
}

static void offsets(vec_t r, int *box, int n)
{
  box_ids<<<1, n>>>(r, box, n);
}

static void unload(char *buf, atoms_t a, int *box, int n)
{
  vec_t r, p;
  r.x = (float *)buf;
  r.y = r.x + n;
  r.z = r.y + n;
  p.x = r.z + n;
  p.y = p.x + n;
  p.z = p.y + n;
  offsets(r, box, n);
  unpack<<<1, n>>>(r, p, a, box, n);
}

int main()
{
  const int n = 32;
  atoms_t a;
  cudaMalloc(&a.r.x, n * sizeof(float));
  cudaMalloc(&a.r.y, n * sizeof(float));
  cudaMalloc(&a.r.z, n * sizeof(float));
  cudaMalloc(&a.p.x, n * sizeof(float));
  cudaMalloc(&a.p.y, n * sizeof(float));
  cudaMalloc(&a.p.z, n * sizeof(float));
  char *buf;
  int *box;
  cudaMalloc(&buf, 6 * n * sizeof(float));
  cudaMalloc(&box, n * sizeof(int));
  float h[6 * n];
  for (int i = 0; i < 6 * n; i++)
    h[i] = 0.5f + 0.01f * i;
  cudaMemcpy(a.r.x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(a.r.y, h + n, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(a.r.z, h + 2 * n, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(a.p.x, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(a.p.y, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(a.p.z, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(buf, h, sizeof h, cudaMemcpyHostToDevice);
  for (int s = 0; s < 10; s++)
    advance<<<1, n>>>(a, 0.001f, n);
  unload(buf, a, box, n);
  advance<<<1, n>>>(a, 0.001f, n);
  cudaMemcpy(h, a.r.x, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%.9g\n", h[n - 1]);
  return 0;
}
