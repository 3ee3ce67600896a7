// A particle step whose integrator and force kernel are converted, and whose cell update is
// not: it moves atoms between cells by copying their positions and momenta (r.x[j] =
// r.x[i]), and reorders a cell through a warp shuffle of values loaded into locals. The
// copies store values without their error terms: each lands beside the error term of the
// atom that held the element before, and an atom and a copy of it, equal in float, differ
// as pairs, so the force loop's r2 > 0 test, which skips the atom itself, lets the copy
// through at a distance of their error terms (the force overflows; in CoMD-CUDA with three
// kernels annotated the positions became infinite and the host crashed). The warning at
// each such launch names the copy and says to annotate the kernel (before: the generic
// "writes the paired field" warning, which reads as a loss of precision only, and which
// a kernel that updates a value in place still gets).
typedef struct vec {
  float *x;
  float *y;
} vec;

typedef struct Atoms {
  vec r;
  vec p;
  vec f;
  int *cell;
} Atoms;

#pragma cp composite
__global__ void advance(Atoms a, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  a.p.x[i] += dt * a.f.x[i];
  a.p.y[i] += dt * a.f.y[i];
  a.r.x[i] += dt * a.p.x[i];
  a.r.y[i] += dt * a.p.y[i];
}

#pragma cp composite
__global__ void force(Atoms a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float fx = 0.0f, fy = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = a.r.x[i] - a.r.x[j];
    float dy = a.r.y[i] - a.r.y[j];
    float r2 = dx * dx + dy * dy;
    if (r2 > 0.0f) {
      float s = 1.0f / (r2 * r2);
      fx += s * dx;
      fy += s * dy;
    }
  }
  a.f.x[i] = fx;
  a.f.y[i] = fy;
}

__global__ void update_cells(Atoms a, const int *to, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || to[i] == i)
    return;
  int j = to[i];
  a.r.x[j] = a.r.x[i];
  a.r.y[j] = a.r.y[i];
  a.p.x[j] = a.p.x[i];
  a.p.y[j] = a.p.y[i];
  a.cell[j] = a.cell[i];
}

__global__ void sort_cell(Atoms a, const int *lane, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float rx = 0.0f, ry = 0.0f;
  if (i < n) {
    rx = a.r.x[i];
    ry = a.r.y[i];
  }
  unsigned mask = __ballot_sync(0xffffffffu, i < n);
  if (i < n) {
    a.r.x[i] = __shfl_sync(mask, rx, lane[i]);
    a.r.y[i] = __shfl_sync(mask, ry, lane[i]);
  }
}

// Scales momenta through a local updated in place: a new value, not a copy (the generic
// warning).
__global__ void rescale(Atoms a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float px = a.p.x[i];
  px *= s;
  a.p.x[i] = px;
}

void step(Atoms a, const int *to, const int *lane, int n, float dt) {
  int grid = (n + 127) / 128;
  advance<<<grid, 128>>>(a, dt, n);
  update_cells<<<grid, 128>>>(a, to, n);
  sort_cell<<<grid, 128>>>(a, lane, n);
  force<<<grid, 128>>>(a, n);
  rescale<<<grid, 128>>>(a, 0.99f, n);
}

int main() {
  Atoms a;
  int n = 1024;
  size_t size = n * sizeof(float);
  int *to, *lane;
  cudaMalloc((void **)&a.r.x, size);
  cudaMalloc((void **)&a.r.y, size);
  cudaMalloc((void **)&a.p.x, size);
  cudaMalloc((void **)&a.p.y, size);
  cudaMalloc((void **)&a.f.x, size);
  cudaMalloc((void **)&a.f.y, size);
  cudaMalloc((void **)&a.cell, n * sizeof(int));
  cudaMalloc((void **)&to, n * sizeof(int));
  cudaMalloc((void **)&lane, n * sizeof(int));
  step(a, to, lane, n, 0.001f);
  cudaFree(a.r.x);
  cudaFree(a.r.y);
  cudaFree(a.p.x);
  cudaFree(a.p.y);
  cudaFree(a.f.x);
  cudaFree(a.f.y);
  cudaFree(a.cell);
  cudaFree(to);
  cudaFree(lane);
  return 0;
}
