// A Monte Carlo option pricer in the shape where a float math intrinsic sits in the path
// loop: each thread follows one geometric Brownian path (64 steps of s *= __expf(drift +
// vol z)) and adds its payoff to its option's sum; 64 options (strikes), 65 536 paths each.
// The normal draws are one float table made on the host, the same bytes in every build.
//   float:     nvcc -O3 -arch=sm_90 mc_option.cu -o mc_float
//   double:    nvcc -O3 -arch=sm_90 -DREAL_DOUBLE mc_option.cu -o mc_double
//   composite: cpconvert mc_option.cu -o mc_option_cp.cu, then nvcc -I<runtime/include>
// Prints the 64 option prices, one per line (bench/math/compare.py compares builds).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef REAL_DOUBLE
typedef double real;
#define __expf exp
#else
typedef float real;
#endif

#define OPTIONS 64
#define PATHS 65536
#define STEPS 64
#define NZ (1 << 20)

__device__ real path_step(real s, real drift, real vol, real z) { return s * __expf(drift + vol * z); }

#pragma cp composite
__global__ void price(const float *z, real *sum, real s0, real drift, real vol, real strike) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int opt = blockIdx.y;
  real k = strike * (0.8f + 0.00625f * (real)opt); // (real): double arithmetic in the double build
  real s = s0;
  for (int j = 0; j < STEPS; j++)
    s = path_step(s, drift, vol, z[(p * 7 + j * 131 + opt * 17) & (NZ - 1)]);
  real pay = s > k ? s - k : 0.0f;
  atomicAdd(&sum[opt], pay);
}

int main() {
  std::vector<float> hz(NZ);
  unsigned long long st = 88172645463325252ull;
  for (int i = 0; i < NZ; i += 2) { // Box-Muller on xorshift64 uniforms, in double
    st ^= st << 13; st ^= st >> 7; st ^= st << 17;
    double u1 = ((st >> 11) + 0.5) * 0x1p-53;
    st ^= st << 13; st ^= st >> 7; st ^= st << 17;
    double u2 = ((st >> 11) + 0.5) * 0x1p-53;
    double r = sqrt(-2.0 * log(u1));
    hz[i] = (float)(r * cos(6.283185307179586 * u2));
    hz[i + 1] = (float)(r * sin(6.283185307179586 * u2));
  }
  float *z;
  real *sum;
  cudaMalloc(&z, NZ * sizeof(float));
  cudaMalloc(&sum, OPTIONS * sizeof(real));
  cudaMemcpy(z, hz.data(), NZ * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(sum, 0, OPTIONS * sizeof(real));
  // r = 0.03, sigma = 0.25, T = 1: the parameters as floats, the same values in every build
  // (so that the builds differ only in the kernel's arithmetic)
  const float drift = (float)((0.03 - 0.5 * 0.25 * 0.25) / STEPS), vol = (float)(0.25 / sqrt((double)STEPS));
  price<<<dim3(PATHS / 256, OPTIONS), 256>>>(z, sum, 100.0f, drift, vol, 100.0f);
  real h[OPTIONS];
  cudaMemcpy(h, sum, OPTIONS * sizeof(real), cudaMemcpyDeviceToHost);
  for (int o = 0; o < OPTIONS; o++)
    printf("%.17g\n", exp(-0.03) * (double)h[o] / PATHS);
  cudaFree(z);
  cudaFree(sum);
  return 0;
}
