/* reduce, written by hand over the number type T (see shapes/reduce.cu). Error: relative, of
 * 4096 sampled block sums against long double sums of the same 256 values. */
template <typename T>
__global__ void a_reduce(const float *x, float *oh, float *ol, int n)
{
  __shared__ T s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? T(x[i]) : T(0.0f);
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    oh[blockIdx.x] = num_hi(s[0]);
    ol[blockIdx.x] = num_lo(s[0]);
  }
}

CP_LAUNCHERS(reduce_run, (const float *x, float *out, float *out_err, int n));

inline void bench_reduce(const bench_opts &o)
{
  const int n = (int)((1 << 24) * o.scale), blocks = n / 256;
  std::vector<float> hx(n);
  srand(7);
  for (int i = 0; i < n; ++i) { /* +-10^u, u uniform in (-4, 4) */
    float m = std::pow(10.0f, 8.0f * (float)rand() / RAND_MAX - 4.0f);
    hx[i] = rand() & 1 ? m : -m;
  }
  float *x = to_device(hx);
  dpair out(blocks);
  std::vector<size_t> idx = sample(blocks, 4096);
  std::vector<long double> ref;
  for (size_t b : idx) {
    long double s = 0;
    for (int t = 0; t < 256; ++t) s += hx[b * 256 + t];
    ref.push_back(s);
  }
  shape_rows rows{o, out, ref, idx, 1e-3, {}};
  auto measure = [&](const char *name, const std::function<void()> &f) { rows.measure(name, f); };
  dim3 g(blocks), b(256);
  measure("float", [&] { a_reduce<float><<<g, b>>>(x, out.hi, out.lo, n); });
  measure("double", [&] { a_reduce<double><<<g, b>>>(x, out.hi, out.lo, n); });
  measure("fpmp_low", [&] { a_reduce<fx::fp32mp2_low><<<g, b>>>(x, out.hi, out.lo, n); });
  measure("fpmp_mid", [&] { a_reduce<fx::fp32mp2><<<g, b>>>(x, out.hi, out.lo, n); });
  measure("fpmp_high", [&] { a_reduce<fx::fp32mp2_high><<<g, b>>>(x, out.hi, out.lo, n); });
  measure("cp_ff_high", [&] { reduce_run(x, out.hi, out.lo, n); });
  measure("cp_ff_mid", [&] { reduce_run_mid(x, out.hi, out.lo, n); });
  measure("cp_ff_low", [&] { reduce_run_low(x, out.hi, out.lo, n); });
  measure("cp_ff_strict", [&] { reduce_run_strict(x, out.hi, out.lo, n); });
  report(o, "reduce (block tree, 256 threads, 2^24 values of mixed magnitude)", rows.rows);
  cudaFree(x);
}
