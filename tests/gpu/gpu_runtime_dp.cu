// gpu_runtime_dp.cu - the dp backend computes the same bits on the GPU as on the host.
//
// Built with CP_BACKEND=CP_BACKEND_DP for both passes, so the host and the device share the
// one-double cp_float. Every cp_float operation runs on the same stored pairs (random
// doubles split into {v, e}, as paired buffers hold them) on the device and on the host;
// the double results and the stored pairs are compared bit for bit: each operation is one
// IEEE double operation with pinned rounding (__dadd_rn ... on the device, -ffp-contract=off
// on the host), so they must be identical; a NaN matches any NaN. Then: the warp sum (every
// lane equal to a host emulation of the butterfly), the atomic add into a __shared__
// cp_float cell (order-dependent, so within the bound of n double roundings: |err| <=
// (n-1) u_d sum|x_i| with u_d = 2^-53) and into a paired float cell in global memory.
//
// Exit status: 0 all identical, 1 a mismatch, 77 no CUDA device (ctest SKIP_RETURN_CODE).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cp/cp.cuh"

#if !CP_BACKEND_IS_DP
#error "gpu_runtime_dp.cu must be built with CP_BACKEND=CP_BACKEND_DP"
#endif

#define CUDA_OK(call)                                                                          \
  do {                                                                                         \
    cudaError_t err_ = (call);                                                                 \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

static const int N = 1 << 16;

struct In { float av, ae, bv, be, cv, ce; };
struct Out { double d; float v, e; int i; };

// X(name, expression over a, b, c (cp_float) and fa, fb (float)) -> cp_float
#define DP_OPS(X)                                                                              \
  X(add, cp_add(a, b)) X(sub, cp_sub(a, b)) X(mul, cp_mul(a, b)) X(div, cp_div(a, b))          \
  X(add_cf, cp_add_cf(a, fb)) X(sub_cf, cp_sub_cf(a, fb)) X(mul_cf, cp_mul_cf(a, fb))          \
  X(div_cf, cp_div_cf(a, fb)) X(add_fc, cp_add_fc(fa, b)) X(sub_fc, cp_sub_fc(fa, b))          \
  X(mul_fc, cp_mul_fc(fa, b)) X(div_fc, cp_div_fc(fa, b)) X(add_ff, cp_add_ff(fa, fb))         \
  X(sub_ff, cp_sub_ff(fa, fb)) X(mul_ff, cp_mul_ff(fa, fb)) X(div_ff, cp_div_ff(fa, fb))       \
  X(sqrt, cp_sqrt(cp_fabs(a))) X(rsqrt, cp_rsqrt(cp_fabs(a))) X(rcp, cp_rcp(a))                \
  X(fma, cp_fma(a, b, c)) X(neg, cp_neg(a)) X(fmin, cp_fmin(a, b)) X(fmax, cp_fmax(a, b))      \
  X(floor, cp_floor(a)) X(ceil, cp_ceil(a)) X(rint, cp_rint(a)) X(trunc, cp_trunc(a))          \
  X(from_double, cp_from_double(cp_to_double(a) * 1e30))                                       \
  X(fixed, cp_fixed_to_cp(cp_fixed_from_cp(a))) X(to_float, cp_from_float(cp_to_float(a)))
// Y(name, expression) -> int
#define DP_INT_OPS(Y)                                                                          \
  Y(lt, cp_lt(a, b)) Y(le, cp_le(a, b)) Y(eq, cp_eq(a, b)) Y(ne_cf, cp_ne_cf(a, fb))           \
  Y(gt_fc, cp_gt_fc(fa, b)) Y(to_int, cp_to_int(cp_mul_cf(a, 1e6f)))                           \
  Y(isnan, cp_isnan(a))

enum {
#define X(n, e) OP_##n,
  DP_OPS(X)
#undef X
#define Y(n, e) OP_##n,
  DP_INT_OPS(Y)
#undef Y
  OP_COUNT
};
static const char *const op_names[] = {
#define X(n, e) #n,
  DP_OPS(X)
#undef X
#define Y(n, e) #n,
  DP_INT_OPS(Y)
#undef Y
};

CP_HD static Out eval(int op, const In &in)
{
  cp_float a = cp_make_float(in.av, in.ae), b = cp_make_float(in.bv, in.be),
           c = cp_make_float(in.cv, in.ce);
  float fa = in.av, fb = in.bv;
  Out o;
  cp_float r = cp_from_float(0.0f);
  o.i = 0;
  switch (op) {
#define X(n, e) case OP_##n: r = e; break;
    DP_OPS(X)
#undef X
#define Y(n, e) case OP_##n: o.i = e; break;
    DP_INT_OPS(Y)
#undef Y
  }
  o.d = r.d;
  cp_store(&o.v, &o.e, r);
  return o;
}

__global__ void k_eval(const In *in, Out *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * OP_COUNT) out[i] = eval(i / n, in[i % n]);
}

static bool same(const Out &x, const Out &y)
{
  bool nan = x.d != x.d && y.d != y.d; // NaN payloads differ between x86 and the GPU
  if (nan) return x.i == y.i;
  return std::memcmp(&x.d, &y.d, sizeof x.d) == 0 && std::memcmp(&x.v, &y.v, sizeof x.v) == 0 &&
         std::memcmp(&x.e, &y.e, sizeof x.e) == 0 && x.i == y.i;
}

static void make_inputs(std::vector<In> &in)
{
  uint64_t s = 12345;
  auto rnd = [&s]() { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return s * 0x2545F4914F6CDD1DULL; };
  auto pair = [&](float &v, float &e) {
    double d = std::ldexp((double)(rnd() >> 11) * 0x1p-53 + 0.5, (int)(rnd() % 61) - 30);
    if (rnd() & 1) d = -d;
    if (rnd() % 64 == 0) d = 0.0; // zeros, and a few equal operands below
    cp_ff p = cp_detail_dp_split(d);
    v = p.v;
    e = p.e;
  };
  for (In &x : in) {
    pair(x.av, x.ae);
    pair(x.bv, x.be);
    pair(x.cv, x.ce);
    if (rnd() % 16 == 0) { x.bv = x.av; x.be = x.ae; }
  }
  in[0].av = NAN; // one NaN through every operation
}

static bool run_ops(const std::vector<In> &in)
{
  In *d_in;
  Out *d_out;
  size_t total = (size_t)N * OP_COUNT;
  CUDA_OK(cudaMalloc(&d_in, N * sizeof(In)));
  CUDA_OK(cudaMalloc(&d_out, total * sizeof(Out)));
  CUDA_OK(cudaMemcpy(d_in, in.data(), N * sizeof(In), cudaMemcpyHostToDevice));
  k_eval<<<(unsigned)((total + 255) / 256), 256>>>(d_in, d_out, N);
  CUDA_OK(cudaGetLastError());
  std::vector<Out> dev(total);
  CUDA_OK(cudaMemcpy(dev.data(), d_out, total * sizeof(Out), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_out));
  bool ok = true;
  for (int op = 0; op < OP_COUNT; ++op) {
    int bad = 0;
    for (int i = 0; i < N; ++i) {
      Out h = eval(op, in[i]);
      if (!same(h, dev[(size_t)op * N + i]) && bad++ == 0)
        std::printf("  %s input %d: host %a {%a, %a} %d, device %a {%a, %a} %d\n", op_names[op], i,
                    h.d, h.v, h.e, h.i, dev[(size_t)op * N + i].d, dev[(size_t)op * N + i].v,
                    dev[(size_t)op * N + i].e, dev[(size_t)op * N + i].i);
    }
    std::printf("  %-12s %s\n", op_names[op], bad ? "MISMATCH" : "bit-identical");
    ok = ok && !bad;
  }
  return ok;
}

// Warp sum of lane values and atomic adds into a __shared__ cp_float (`&x.v, &x.e`, as
// converted code writes it).
__global__ void k_warp_atomic(const In *in, double *warp, double *cell_out, float *gv, float *ge)
{
  __shared__ cp_float cell;
  int i = threadIdx.x;
  if (i == 0) cell = cp_from_float(0.0f);
  __syncthreads();
  cp_float x = cp_make_float(in[i].av, in[i].ae);
  warp[i] = cp_warp_sum(0xffffffffu, x).d;
  cp_atomic_add(&(cell).v, &(cell).e, x);
  cp_atomic_add(gv, ge, x); // a paired float cell in global memory: split, then ff's atomic
  __syncthreads();
  if (i == 0) *cell_out = cell.d;
}

static bool run_warp_atomic(const std::vector<In> &in)
{
  const int T = 256;
  In *d_in;
  double *d_warp, *d_cell;
  float *d_pair; // value cell, error cell
  CUDA_OK(cudaMalloc(&d_pair, 2 * sizeof(float)));
  CUDA_OK(cudaMemset(d_pair, 0, 2 * sizeof(float)));
  CUDA_OK(cudaMalloc(&d_in, T * sizeof(In)));
  CUDA_OK(cudaMalloc(&d_warp, T * sizeof(double)));
  CUDA_OK(cudaMalloc(&d_cell, sizeof(double)));
  CUDA_OK(cudaMemcpy(d_in, in.data() + 1, T * sizeof(In), cudaMemcpyHostToDevice)); // no NaN
  k_warp_atomic<<<1, T>>>(d_in, d_warp, d_cell, d_pair, d_pair + 1);
  CUDA_OK(cudaGetLastError());
  std::vector<double> warp(T);
  double cell;
  CUDA_OK(cudaMemcpy(warp.data(), d_warp, T * sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(&cell, d_cell, sizeof cell, cudaMemcpyDeviceToHost));
  float pair[2];
  CUDA_OK(cudaMemcpy(pair, d_pair, sizeof pair, cudaMemcpyDeviceToHost));
  CUDA_OK(cudaFree(d_pair));
  CUDA_OK(cudaFree(d_in));
  CUDA_OK(cudaFree(d_warp));
  CUDA_OK(cudaFree(d_cell));
  bool ok = true;
  double sum = 0.0, abs_sum = 0.0;
  for (int w = 0; w < T / 32; ++w) {
    double lane[32]; // host butterfly: lower lane on the left, as warp.cuh
    for (int l = 0; l < 32; ++l) lane[l] = cp_make_float(in[1 + w * 32 + l].av, in[1 + w * 32 + l].ae).d;
    for (int o = 16; o > 0; o >>= 1) {
      double next[32];
      for (int l = 0; l < 32; ++l) next[l] = (l & o) ? lane[l ^ o] + lane[l] : lane[l] + lane[l ^ o];
      std::memcpy(lane, next, sizeof lane);
    }
    for (int l = 0; l < 32; ++l) ok = ok && std::memcmp(&lane[l], &warp[w * 32 + l], sizeof(double)) == 0;
  }
  for (int i = 0; i < T; ++i) {
    double x = cp_make_float(in[1 + i].av, in[1 + i].ae).d;
    sum += x; // reference: any order is within the same bound; long double would be better
    abs_sum += std::fabs(x);
  }
  double bound = 2.0 * (T - 1) * 0x1p-53 * abs_sum; // device order and host order, each (T-1)u
  bool atomic_ok = std::fabs(cell - sum) <= bound;
  // The paired float cell: each operand loses <= 2^-49 in its split, the error cell's float
  // atomics round each addend; 2^-47 T sum|x_i| is loose for both, yet 2^-23 times float
  // atomicAdd's worst case (T 2^-24 sum|x_i|), which a lost error cell would approach.
  double pair_err = std::fabs(((double)pair[0] + (double)pair[1]) - sum);
  double pair_bound = 0x1p-47 * T * abs_sum;
  bool pair_ok = pair_err <= pair_bound;
  std::printf("  warp_sum     %s\n  atomic cell  %s (|device - host| %.3g, bound %.3g)\n",
              ok ? "bit-identical" : "MISMATCH", atomic_ok ? "within bound" : "OUT OF BOUND",
              std::fabs(cell - sum), bound);
  std::printf("  atomic pair  %s (|device - host| %.3g, bound %.3g)\n",
              pair_ok ? "within bound" : "OUT OF BOUND", pair_err, pair_bound);
  return ok && atomic_ok && pair_ok;
}

int main()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: skipped\n");
    return 77;
  }
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s (sm_%d%d), backend %s, %d operations x %d inputs, device vs host:\n",
              prop.name, prop.major, prop.minor, CP_BACKEND_NAME, (int)OP_COUNT, N);
  std::vector<In> in(N);
  make_inputs(in);
  bool ok = run_ops(in);
  ok = run_warp_atomic(in) && ok;
  std::printf("%s\n", ok ? "all identical" : "FAILED");
  return ok ? 0 : 1;
}
