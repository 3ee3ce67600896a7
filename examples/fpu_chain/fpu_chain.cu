// A chain of anharmonic oscillators (Fermi-Pasta-Ulam-Tsingou beta chain) integrated with
// velocity Verlet, written the way many older codes write their boundary conditions: every
// step the state is copied to the host, the two end particles are pinned there (x = v = 0),
// and the state is copied back.
//
// The point of the example is where the error enters. The forces, the integration and the
// energies are annotated and convert to composite precision, but each step's host round
// trip is float: the positions and velocities re-enter the device without their error
// terms, so the converted build is barely more accurate than float. `cpconvert --profile`
// and `cpconvert --explain` show it (docs/guide.md, "Where composite pays"): the input
// sites of x and v run once per step. Built with -DBOUNDARY_ON_DEVICE the ends are pinned
// by an annotated kernel, the state never leaves the device, and the converted build keeps
// its gain.
//
// Variants (same source):
//   float:      nvcc -O3 -arch=sm_90 fpu_chain.cu -o fpu_float
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE fpu_chain.cu -o fpu_double
//   composite:  cpconvert fpu_chain.cu -o fpu_chain_cp.cu
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include fpu_chain_cp.cu -o fpu_cp
//   each of them with -DBOUNDARY_ON_DEVICE (given to cpconvert as well)
//   run:        ./fpu_float [n=4096] [steps=2000]
//
// Output: `step energy kinetic` every 200 steps, then `final energy kinetic x1 v1`; the
// energies are sums in double on the host of the recombined per-particle values.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef REAL_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));      \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

// F_i = (x_{i+1} - x_i) - (x_i - x_{i-1}) + beta ((x_{i+1} - x_i)^3 - (x_i - x_{i-1})^3)
#pragma cp composite
__global__ void forces(const real *x, real *f, int n, real beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  real left = i > 0 ? x[i] - x[i - 1] : x[i];
  real right = i < n - 1 ? x[i + 1] - x[i] : -x[i];
  f[i] = right - left + beta * (right * right * right - left * left * left);
}

#pragma cp composite
__global__ void half_kick(real *v, const real *f, int n, real dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += dt / 2 * f[i];
}

#pragma cp composite
__global__ void drift(real *x, const real *v, int n, real dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += dt * v[i];
}

// The boundary condition on the device: the end particles stay at rest at 0.
#pragma cp composite
__global__ void pin_ends(real *x, real *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0 || i == n - 1) {
    x[i] = 0;
    v[i] = 0;
  }
}

// Per particle: kinetic energy and the potential energy of the bond to its right.
#pragma cp composite
__global__ void energies(const real *x, const real *v, real *ke, real *pe, int n,
                         real beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  real d = i < n - 1 ? x[i + 1] - x[i] : -x[i];
  real d2 = d * d;
  ke[i] = v[i] * v[i] / 2;
  pe[i] = d2 / 2 + beta * d2 * d2 / 4 + (i == 0 ? x[0] * x[0] / 2 : 0);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4096;
  int steps = argc > 2 ? atoi(argv[2]) : 2000;
  const real dt = 0.01f, beta = 0.5f;
  std::vector<real> hx(n), hv(n), hke(n), hpe(n);
  for (int i = 0; i < n; i++) {
    hx[i] = 0.1f * sinf(0.37f * i);
    hv[i] = 0.5f * cosf(0.11f * i);
  }
  hx[0] = hx[n - 1] = hv[0] = hv[n - 1] = 0;
  size_t bytes = n * sizeof(real);
  real *x, *v, *f, *ke, *pe;
  CHECK(cudaMalloc(&x, bytes));
  CHECK(cudaMalloc(&v, bytes));
  CHECK(cudaMalloc(&f, bytes));
  CHECK(cudaMalloc(&ke, bytes));
  CHECK(cudaMalloc(&pe, bytes));
  CHECK(cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(v, hv.data(), bytes, cudaMemcpyHostToDevice));
  int block = 256, grid = (n + block - 1) / block;
  forces<<<grid, block>>>(x, f, n, beta);
  double e = 0, k = 0;
  for (int step = 1; step <= steps; step++) {
    half_kick<<<grid, block>>>(v, f, n, dt);
    drift<<<grid, block>>>(x, v, n, dt);
#ifdef BOUNDARY_ON_DEVICE
    pin_ends<<<grid, block>>>(x, v, n);
#else
    // the boundary condition on the host: the state makes a round trip through float
    CHECK(cudaMemcpy(hx.data(), x, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hv.data(), v, bytes, cudaMemcpyDeviceToHost));
    hx[0] = hx[n - 1] = hv[0] = hv[n - 1] = 0;
    CHECK(cudaMemcpy(x, hx.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(v, hv.data(), bytes, cudaMemcpyHostToDevice));
#endif
    forces<<<grid, block>>>(x, f, n, beta);
    half_kick<<<grid, block>>>(v, f, n, dt);
    if (step % 200 == 0 || step == steps) {
      energies<<<grid, block>>>(x, v, ke, pe, n, beta);
      CHECK(cudaMemcpy(hke.data(), ke, bytes, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(hpe.data(), pe, bytes, cudaMemcpyDeviceToHost));
      k = 0, e = 0;
      for (int i = 0; i < n; i++) {
        k += hke[i];
        e += hke[i] + hpe[i];
      }
      printf("%d %.17g %.17g\n", step, e, k);
    }
  }
  CHECK(cudaMemcpy(hx.data(), x, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hv.data(), v, bytes, cudaMemcpyDeviceToHost));
  printf("final %.17g %.17g %.9g %.9g\n", e, k, (double)hx[1], (double)hv[1]);
  CHECK(cudaFree(x));
  CHECK(cudaFree(v));
  CHECK(cudaFree(f));
  CHECK(cudaFree(ke));
  CHECK(cudaFree(pe));
  return 0;
}
