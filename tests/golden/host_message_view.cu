// The CoMD shape (docs/realcode.md, "CoMD-CUDA"): atoms kept as a struct of vec_t
// (`atoms_t a` holding `vec_t r, p`), a received message carved into a local vec_t view of a
// raw buffer (`r.x = (float *)buf; r.y = r.x + n; ...`), handed to a host helper that
// launches an unconverted kernel with it and to an unconverted kernel that unpacks it into the
// atoms. The view reaches no converted function, so it is an unpaired instance: no companion
// and no error at `r.x = (float *)buf` (before: "assigned a value cpconvert cannot follow").
// `unpack` writes the paired positions through the vec_t held inside atoms_t: warned about,
// naming the field with the type that declares it (the companion goes stale there).
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

__global__ void unpack(vec_t r, atoms_t a, const int *box, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && box[i] >= 0) {
    a.r.x[i] = r.x[i];
    a.r.y[i] = r.y[i];
    a.r.z[i] = r.z[i];
  }
}

static void offsets(vec_t r, int *box, int n)
{
  box_ids<<<1, n>>>(r, box, n);
}

static void unload(char *buf, atoms_t a, int *box, int n)
{
  vec_t r;
  r.x = (float *)buf;
  r.y = r.x + n;
  r.z = r.y + n;
  offsets(r, box, n);
  unpack<<<1, n>>>(r, a, box, n);
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
  cudaMalloc(&buf, 3 * n * sizeof(float));
  cudaMalloc(&box, n * sizeof(int));
  float h[3 * n];
  for (int i = 0; i < 3 * n; i++)
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
