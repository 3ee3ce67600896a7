/* poly, written by hand over the number type T (see shapes/poly.cu). */
template <typename T>
__global__ void a_poly(const float *x, const float *c, float *yh, float *yl, int n, int deg)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T xi = T(x[i]);
  T acc = T(c[deg]);
  for (int k = deg - 1; k >= 0; --k)
    acc = acc * xi + T(c[k]);
  yh[i] = num_hi(acc);
  yl[i] = num_lo(acc);
}

CP_LAUNCHERS(poly_run, (const float *x, const float *c, float *y, float *y_err, int n, int deg));

inline void bench_poly(const bench_opts &o)
{
  const int n = (int)((1 << 24) * o.scale), deg = 256;
  std::vector<float> hx(n), hc(deg + 1);
  srand(1);
  for (int i = 0; i < n; ++i) hx[i] = 0.5f + 0.5f * (float)rand() / RAND_MAX; /* (0.5, 1): no overflow */
  for (int k = 0; k <= deg; ++k) hc[k] = ((float)rand() / RAND_MAX - 0.5f) / (k + 1);
  float *x = to_device(hx), *c = to_device(hc);
  dpair y(n);
  std::vector<size_t> idx = sample(n, 4096);
  std::vector<long double> ref;
  for (size_t i : idx) {
    long double acc = hc[deg];
    for (int k = deg - 1; k >= 0; --k) acc = acc * hx[i] + hc[k];
    ref.push_back(acc);
  }
  shape_rows rows{o, y, ref, idx, 1e-30, {}};
  auto measure = [&](const char *name, const std::function<void()> &f) { rows.measure(name, f); };
  dim3 g((n + 255) / 256), b(256);
  measure("float", [&] { a_poly<float><<<g, b>>>(x, c, y.hi, y.lo, n, deg); });
  measure("double", [&] { a_poly<double><<<g, b>>>(x, c, y.hi, y.lo, n, deg); });
  measure("fpmp_low", [&] { a_poly<fx::fp32mp2_low><<<g, b>>>(x, c, y.hi, y.lo, n, deg); });
  measure("fpmp_mid", [&] { a_poly<fx::fp32mp2><<<g, b>>>(x, c, y.hi, y.lo, n, deg); });
  measure("fpmp_high", [&] { a_poly<fx::fp32mp2_high><<<g, b>>>(x, c, y.hi, y.lo, n, deg); });
  CP_MEASURE(measure, poly_run, (x, c, y.hi, y.lo, n, deg));
  report(o, "poly (Horner, degree 256, 2^24 elements)", rows.rows);
  cudaFree(x);
  cudaFree(c);
}
