// The accuracy of the composite math functions (high tier, ff backend; the mid tier with
// -DCP_ACC_MID, the low tier with -DCP_ACC_LOW: its units of 2^-48 divided by 2^24 are ulps
// of a float, the GPU's own reciprocal and square root approximations in them) and of CCCL fpmp's
// (fp32mp2) on the same inputs, on the GPU: 4M random pairs per function (a float and an
// error half below half its ulp), the double function of the pair's exact value as the
// reference (about 2^-53, so errors near 2^-44..2^-48 are resolved). Prints, per function
// and domain, the largest and the rms relative error in units of 2^-48 for each (rms over
// the n inputs). Results below 2^-100 are left out (no pair holds 48 bits there), and sin's
// below 2^-8 (near its zeros relative error measures the reduction's absolute error).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include -I CCCL_INCLUDE bench/math/accuracy.cu
// (CCCL_INCLUDE: the cuda-cccl wheel's cuda/cccl/headers/include, as bench/fpmp installs it)
#define CP_BACKEND CP_BACKEND_FF
#include <cp/cp.cuh>
#if defined(CP_ACC_MID)
#define TIER(f) cp_mid_##f
#define TIER_NAME "mid"
#elif defined(CP_ACC_LOW)
#define TIER(f) cp_low_##f
#define TIER_NAME "low"
#else
#define TIER(f) cp_high_##f
#define TIER_NAME "high"
#endif
#include <cuda/fpmp>
#include <cuda/fpmp_math>
#include <cstdio>
#include <cstring>

namespace fx = cuda::experimental;

enum { EXP, LOG, SIN, POW, ERFC, HYPOT, RNORM3D, TANH, ATAN2, LOG2, LOG10, LOG1P, COS, TAN, POWBIG, NF };
static const char *name[NF] = {"exp", "log", "sin", "pow", "erfc", "hypot", "rnorm3d", "tanh", "atan2",
                               "log2", "log10", "log1p", "cos", "tan", "pow"};
static const char *domain[NF] = {"[-69, 88]", "[2^-60, 2^60]", "[-100, 100], |sin| >= 2^-8", "x in [0.25, 4], y in [-20, 20]",
                                 "[0, 6]", "[-1e3, 1e3]^2", "[-1e3, 1e3]^3", "[-5, 5]", "[-1e3, 1e3]^2",
                                 "[2^-60, 2^60]", "[2^-60, 2^60]", "[-0.5, 4]", "[-100, 100], |cos| >= 2^-8",
                                 "[-100, 100], |tan| >= 2^-8", "x in [0.71, 1.41], |y log x| <= 88"};

__device__ unsigned int hash(unsigned int x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
__device__ float uni(unsigned int i, unsigned int k) { return (hash(i * 0x9E3779B9u + k * 0x85EBCA6Bu) >> 8) * 0x1p-24f; }
// v + e for an error half e below half an ulp of v, e a multiple of 2^(ilogb(v) - 50): the
// pair's value has at most 51 bits, so the double reference's argument is exact (a pair can
// hold more bits than a double, and the double function of a rounded argument is off by the
// function's condition number times 2^-53: log near 1, sin near its zeros)
__device__ cp_float exact_pair(float v, float e) {
  float q = ldexpf(1.0f, ilogbf(v) - 50);
  return cp_two_sum(v, rintf(e / q) * q);
}
// a pair: v in [lo, hi] and such an error half
__device__ cp_float pair_in(unsigned int i, unsigned int k, float lo, float hi) {
  float v = lo + (hi - lo) * uni(i, k);
  return exact_pair(v, (uni(i, k + 101) - 0.5f) * (fabsf(v) * 0x1p-24f));
}
__device__ double dv(cp_float p) { return (double)p.v + (double)p.e; }
__device__ fx::fp32mp2 fp(cp_float p) { return fx::fp32mp2(p.v) + fx::fp32mp2(p.e); }

// results below `tiny` are left out: exp's below 2^-100 (an error half below 2^-126 is
// subnormal, so no pair holds 48 bits there), sin's near its zeros (measured apart)
__device__ void record(unsigned long long *mx, double *sum, double got, double ref, double tiny) {
  if (!isfinite(ref) || fabs(ref) < tiny) return;
  double r = fabs(got - ref) / fabs(ref) * 0x1p48;
  if (!(r >= 0.0)) r = 1e30; // NaN from a finite reference: worst
  atomicMax(mx, __double_as_longlong(r)); // non-negative doubles order as their bits
  atomicAdd(sum, r * r);
}

__global__ void measure(int f, int n, unsigned long long *mx, double *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cp_float a, b, c, z;
  fx::fp32mp2 w;
  double ref;
  switch (f) {
  case EXP: a = pair_in(i, 1, -69.0f, 88.0f); z = TIER(exp)(a); w = fx::exp(fp(a)); ref = exp(dv(a)); break;
  case LOG: case LOG2: case LOG10: a = pair_in(i, 1, 0.0f, 1.0f);
    a = cp_make_float(ldexpf(1.0f + a.v, (int)(uni(i, 7) * 120.0f) - 60), 0.0f);
    a = exact_pair(a.v, (uni(i, 8) - 0.5f) * a.v * 0x1p-24f);
    if (f == LOG) { z = TIER(log)(a); w = fx::log(fp(a)); ref = log(dv(a)); }
    else if (f == LOG2) { z = TIER(log2)(a); w = fx::log2(fp(a)); ref = log2(dv(a)); }
    else { z = TIER(log10)(a); w = fx::log10(fp(a)); ref = log10(dv(a)); }
    break;
  case LOG1P: a = pair_in(i, 1, -0.5f, 4.0f); z = TIER(log1p)(a); w = fx::log1p(fp(a)); ref = log1p(dv(a)); break;
  case COS: a = pair_in(i, 1, -100.0f, 100.0f); z = TIER(cos)(a); w = fx::cos(fp(a)); ref = cos(dv(a)); break;
  case TAN: a = pair_in(i, 1, -100.0f, 100.0f); z = TIER(tan)(a); w = fx::tan(fp(a)); ref = tan(dv(a)); break;
  case SIN: a = pair_in(i, 1, -100.0f, 100.0f); z = TIER(sin)(a); w = fx::sin(fp(a)); ref = sin(dv(a)); break;
  case POW: a = pair_in(i, 1, 0.25f, 4.0f); b = pair_in(i, 2, -20.0f, 20.0f);
    z = TIER(pow)(a, b); w = fx::pow(fp(a), fp(b)); ref = pow(dv(a), dv(b)); break;
  case POWBIG: // large |t| = |y log x|: the error of log x weighs |t| times
    a = pair_in(i, 1, 0.7072f, 1.414f);
    b = cp_make_float((176.0f * uni(i, 2) - 88.0f) / logf(a.v), 0.0f);
    if (!(fabsf(b.v) < 1e30f)) b.v = 1.0f;
    b = exact_pair(b.v, (uni(i, 3) - 0.5f) * fabsf(b.v) * 0x1p-24f);
    z = TIER(pow)(a, b); w = fx::pow(fp(a), fp(b)); ref = pow(dv(a), dv(b)); break;
  case ERFC: a = pair_in(i, 1, 0.0f, 6.0f); z = TIER(erfc)(a); w = fx::erfc(fp(a)); ref = erfc(dv(a)); break;
  case HYPOT: a = pair_in(i, 1, -1e3f, 1e3f); b = pair_in(i, 2, -1e3f, 1e3f);
    z = TIER(hypot)(a, b); w = fx::hypot(fp(a), fp(b)); ref = hypot(dv(a), dv(b)); break;
  case RNORM3D: a = pair_in(i, 1, -1e3f, 1e3f); b = pair_in(i, 2, -1e3f, 1e3f); c = pair_in(i, 3, -1e3f, 1e3f);
    z = TIER(rnorm3d)(a, b, c); w = fx::rnorm3d(fp(a), fp(b), fp(c)); ref = rnorm3d(dv(a), dv(b), dv(c)); break;
  case TANH: a = pair_in(i, 1, -5.0f, 5.0f); z = TIER(tanh)(a); w = fx::tanh(fp(a)); ref = tanh(dv(a)); break;
  case ATAN2: a = pair_in(i, 1, -1e3f, 1e3f); b = pair_in(i, 2, -1e3f, 1e3f);
    z = TIER(atan2)(a, b); w = fx::atan2(fp(a), fp(b)); ref = atan2(dv(a), dv(b)); break;
  }
  double tiny = f == SIN || f == COS || f == TAN ? 0x1p-8 : 0x1p-100;
  record(mx, sum, dv(z), ref, tiny);
  record(mx + 1, sum + 1, (double)w.hi() + (double)w.lo(), ref, tiny);
}

int main() {
  const int n = 1 << 22;
  unsigned long long *mx;
  double *sum;
  cudaMalloc(&mx, 2 * sizeof *mx);
  cudaMalloc(&sum, 2 * sizeof *sum);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("%s, %d random pairs per function, tier %s; relative error against the double function, units of 2^-48\n",
         prop.name, n, TIER_NAME);
  printf("%-8s %-32s %12s %12s %12s %12s\n", "function", "domain", "cp max", "cp rms", "fpmp max", "fpmp rms");
  for (int f = 0; f < NF; f++) {
    cudaMemset(mx, 0, 2 * sizeof *mx);
    cudaMemset(sum, 0, 2 * sizeof *sum);
    measure<<<n / 256, 256>>>(f, n, mx, sum);
    unsigned long long hm[2];
    double hs[2];
    cudaMemcpy(hm, mx, sizeof hm, cudaMemcpyDeviceToHost);
    cudaMemcpy(hs, sum, sizeof hs, cudaMemcpyDeviceToHost);
    double m0, m1;
    memcpy(&m0, &hm[0], 8);
    memcpy(&m1, &hm[1], 8);
    printf("%-8s %-32s %12.3f %12.3f %12.3f %12.3f\n", name[f], domain[f], m0, sqrt(hs[0] / n), m1,
           sqrt(hs[1] / n));
  }
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) { printf("CUDA error: %s\n", cudaGetErrorString(err)); return 1; }
  return 0;
}
