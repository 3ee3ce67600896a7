/* dot, written by hand over the number type T (see shapes/dot.cu). Error: relative, of every
 * sampled thread's partial sum against a long double sum of the same products. */
template <typename T>
__global__ void a_dot(const float *x, const float *y, float *oh, float *ol, int n)
{
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  T sum = T(0.0f);
  for (int i = tid; i < n; i += stride)
    sum += T(x[i]) * T(y[i]);
  oh[tid] = num_hi(sum);
  ol[tid] = num_lo(sum);
}

CP_LAUNCHERS(dot_run, (const float *x, const float *y, float *out, float *out_err, int n, int threads));

inline void bench_dot(const bench_opts &o)
{
  const int n = (int)((1 << 24) * o.scale), threads = n / 1024; /* 1024 products a thread */
  std::vector<float> hx(n), hy(n);
  srand(2);
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)rand() / RAND_MAX;               /* (0, 1) */
    hy[i] = 1.5f * (float)rand() / RAND_MAX - 0.5f; /* (-0.5, 1): partials of about 128 */
  }
  float *x = to_device(hx), *y = to_device(hy);
  dpair out(threads);
  std::vector<size_t> idx = sample(threads, 4096);
  std::vector<long double> ref;
  for (size_t t : idx) {
    long double s = 0;
    for (size_t i = t; i < (size_t)n; i += threads) s += (long double)hx[i] * hy[i];
    ref.push_back(s);
  }
  shape_rows rows{o, out, ref, idx, 1e-3, {}};
  auto measure = [&](const char *name, const std::function<void()> &f) { rows.measure(name, f); };
  dim3 g(threads / 256), b(256);
  measure("float", [&] { a_dot<float><<<g, b>>>(x, y, out.hi, out.lo, n); });
  measure("double", [&] { a_dot<double><<<g, b>>>(x, y, out.hi, out.lo, n); });
  measure("fpmp_low", [&] { a_dot<fx::fp32mp2_low><<<g, b>>>(x, y, out.hi, out.lo, n); });
  measure("fpmp_mid", [&] { a_dot<fx::fp32mp2><<<g, b>>>(x, y, out.hi, out.lo, n); });
  measure("fpmp_high", [&] { a_dot<fx::fp32mp2_high><<<g, b>>>(x, y, out.hi, out.lo, n); });
  measure("cp_ff_high", [&] { dot_run(x, y, out.hi, out.lo, n, threads); });
  measure("cp_ff_mid", [&] { dot_run_mid(x, y, out.hi, out.lo, n, threads); });
  measure("cp_ff_low", [&] { dot_run_low(x, y, out.hi, out.lo, n, threads); });
  measure("cp_ff_strict", [&] { dot_run_strict(x, y, out.hi, out.lo, n, threads); });
  report(o, "dot (2^24 products, 2^14 threads x 1024 each)", rows.rows);
  cudaFree(x);
  cudaFree(y);
}
