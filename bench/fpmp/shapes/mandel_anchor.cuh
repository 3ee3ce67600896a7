/* mandel, written by hand over the number type T (see shapes/mandel.cu). The result is a
 * count, so the error is not relative: in the max_rel column, the fraction of the sampled
 * pixels whose count differs from the long double count (orbits from the same float corner
 * and spacing); in the rms_rel column, the RMS of |count - reference| / reference. */
template <typename T>
__global__ void a_mandel(float *ch, float *cl, int w, int h, float x0, float y0, float d, int maxit)
{
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= w || py >= h) return;
  T cr = T(x0) + px * T(d);
  T ci = T(y0) + py * T(d);
  T zr = T(0.0f), zi = T(0.0f);
  int it = 0;
  while (it < maxit && zr * zr + zi * zi <= 4.0f) {
    T t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  ch[py * w + px] = (float)it;
  cl[py * w + px] = 0.0f;
}

CP_LAUNCHERS(mandel_run, (float *count, float *count_err, int w, int h, float x0, float y0, float d, int maxit));

inline void bench_mandel(const bench_opts &o)
{
  const int w = (int)(1024 * std::sqrt(o.scale)), h = w, maxit = 1024;
  const float d = (float)(1e-5 / w); /* a square 1e-5 wide around a point of the boundary */
  const float x0 = (float)(-0.743643887 - 0.5e-5), y0 = (float)(0.131825904 - 0.5e-5);
  dpair c((size_t)w * h);
  std::vector<size_t> idx = sample((size_t)w * h, 16384);
  std::vector<long double> ref;
  for (size_t p : idx) {
    long double cr = (long double)x0 + (long double)(p % w) * d, ci = (long double)y0 + (long double)(p / w) * d;
    long double zr = 0, zi = 0;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi <= 4) {
      long double t = zr * zr - zi * zi + cr;
      zi = 2 * zr * zi + ci;
      zr = t;
      ++it;
    }
    ref.push_back(it);
  }
  std::vector<result> rows;
  auto measure = [&](const char *name, const std::function<void()> &f) {
    c.zero();
    double ms = time_ms(o, f);
    std::vector<float> got = c.get_hi(), lo = c.get_lo();
    size_t differ = 0;
    long double ss = 0;
    for (size_t k = 0; k < idx.size(); ++k) {
      long double g = (long double)got[idx[k]] + lo[idx[k]], e = std::fabs(g - ref[k]) / ref[k];
      differ += g != ref[k];
      ss += e * e;
    }
    rows.push_back({name, ms, (double)differ / idx.size(), (double)std::sqrt(ss / idx.size())});
  };
  dim3 g((w + 15) / 16, (h + 15) / 16), b(16, 16);
  measure("float", [&] { a_mandel<float><<<g, b>>>(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("double", [&] { a_mandel<double><<<g, b>>>(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("fpmp_low", [&] { a_mandel<fx::fp32mp2_low><<<g, b>>>(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("fpmp_mid", [&] { a_mandel<fx::fp32mp2><<<g, b>>>(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("fpmp_high", [&] { a_mandel<fx::fp32mp2_high><<<g, b>>>(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("cp_ff_high", [&] { mandel_run(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("cp_ff_mid", [&] { mandel_run_mid(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("cp_ff_low", [&] { mandel_run_low(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  measure("cp_ff_strict", [&] { mandel_run_strict(c.hi, c.lo, w, h, x0, y0, d, maxit); });
  report(o, "mandel (1024^2 pixels, 1e-5 wide, 1024 iterations; err: fraction of counts that differ)", rows);
}
