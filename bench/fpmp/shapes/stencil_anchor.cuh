/* stencil, written by hand over the number type T (see shapes/stencil.cu). By hand the grid
 * is kept in T (fp32mp2 arrays: value and error interleaved, 8 bytes a cell, as double); the
 * converted code keeps two float arrays. Error: relative, of two 128x128 regions (a corner,
 * which holds the fixed boundary, and the centre) after the sweeps, against long double
 * sweeps over each region widened by `sweeps` cells: after s sweeps a cell depends only on
 * the cells within s of it, so the reference is exact without sweeping the whole grid. */
template <typename T>
__global__ void a_stencil(const T *in, T *out, int nx, int ny, float c0, float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  out[i] = c0 * in[i] + c1 * (in[i - nx] + in[i + nx] + in[i + 1] + in[i - 1]);
}

/* The same in the converted code's layout: values and errors in two float grids, each cell a
 * T made from its two floats. Tells the cost of the layout (two 4-byte streams per grid,
 * which the companion buffers of the conversion contract fix) from that of the arithmetic. */
template <typename T>
__global__ void a_stencil_split(const float *ih, const float *il, float *oh, float *ol, int nx, int ny, float c0,
                                float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  auto in = [&](int k) { return T(ih[k], il[k]); };
  T r = c0 * in(i) + c1 * (in(i - nx) + in(i + nx) + in(i + 1) + in(i - 1));
  oh[i] = r.hi();
  ol[i] = r.lo();
}

CP_LAUNCHERS(stencil_run, (float *a, float *a_err, float *b, float *b_err, int nx, int ny, float c0, float c1, int sweeps));

/* Long double sweeps over the region [ox, ox + w) x [oy, oy + w) widened by s cells (clipped
 * to the grid); appends the region's cells to idx and their values to ref. */
inline void stencil_reference(const std::vector<float> &h, int nx, int ny, float c0, float c1, int s, int ox, int oy,
                              int w, std::vector<size_t> &idx, std::vector<long double> &ref)
{
  int x0 = std::max(ox - s, 0), x1 = std::min(ox + w + s, nx), y0 = std::max(oy - s, 0), y1 = std::min(oy + w + s, ny);
  int ww = x1 - x0;
  std::vector<long double> u((size_t)ww * (y1 - y0)), v;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) u[(size_t)(y - y0) * ww + (x - x0)] = h[(size_t)y * nx + x];
  v = u;
  for (int k = 0; k < s; ++k) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        size_t j = (size_t)(y - y0) * ww + (x - x0);
        bool fixed = x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1 || x == x0 || y == y0 || x == x1 - 1 || y == y1 - 1;
        v[j] = fixed ? u[j] : (long double)c0 * u[j] + (long double)c1 * (u[j - ww] + u[j + ww] + u[j + 1] + u[j - 1]);
      }
    u.swap(v);
  }
  for (int y = oy; y < oy + w; ++y)
    for (int x = ox; x < ox + w; ++x) {
      idx.push_back((size_t)y * nx + x);
      ref.push_back(u[(size_t)(y - y0) * ww + (x - x0)]);
    }
}

inline void bench_stencil(const bench_opts &o)
{
  /* 4096^2: 64 MiB a float grid, so that float's two grids do not fit in the H100's 50 MB L2
   * while the pairs' do not either (at 2048^2 only float's would). */
  const int nx = (int)(4096 * std::sqrt(o.scale)), ny = nx, sweeps = 10;
  const size_t n = (size_t)nx * ny;
  const float c0 = 0.4f, c1 = 0.15f; /* c0 = 1 - 4 c1 */
  std::vector<float> h(n);
  srand(6);
  for (size_t i = 0; i < n; ++i) h[i] = (float)rand() / RAND_MAX;
  std::vector<size_t> idx;
  std::vector<long double> ref;
  stencil_reference(h, nx, ny, c0, c1, sweeps, 0, 0, 128, idx, ref);
  stencil_reference(h, nx, ny, c0, c1, sweeps, nx / 2, ny / 2, 128, idx, ref);
  dim3 blk(32, 8), grd((nx + 31) / 32, (ny + 7) / 8);
  std::vector<result> rows;
  /* Time `sweeps` sweeps (the grids evolve across the timed repetitions), then start again
   * from h and score one run. */
  auto measure = [&](const char *name, const std::function<void()> &load, const std::function<void()> &run,
                     const std::function<void(std::vector<float> &, std::vector<float> &)> &get) {
    load();
    double ms = time_ms(o, run);
    load();
    run();
    std::vector<float> hi, lo;
    get(hi, lo);
    result r{name, ms, 0, 0};
    rel_error(hi, lo, ref, idx, 1e-3, &r.max_rel, &r.rms_rel);
    rows.push_back(r);
  };
  auto anchor = [&](const char *name, auto zero) {
    using T = decltype(zero);
    std::vector<T> ht(h.begin(), h.end());
    T *a, *b;
    CK(cudaMalloc(&a, n * sizeof(T)));
    CK(cudaMalloc(&b, n * sizeof(T)));
    measure(
      name,
      [&] {
        CK(cudaMemcpy(a, ht.data(), n * sizeof(T), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(b, ht.data(), n * sizeof(T), cudaMemcpyHostToDevice));
      },
      [&] {
        for (int s = 0; s < sweeps; s += 2) {
          a_stencil<T><<<grd, blk>>>(a, b, nx, ny, c0, c1);
          a_stencil<T><<<grd, blk>>>(b, a, nx, ny, c0, c1);
        }
      },
      [&](std::vector<float> &hi, std::vector<float> &lo) {
        std::vector<T> r(n);
        CK(cudaMemcpy(r.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost));
        hi.resize(n);
        lo.resize(n);
        for (size_t i = 0; i < n; ++i) { hi[i] = num_hi(r[i]); lo[i] = num_lo(r[i]); }
      });
    cudaFree(a);
    cudaFree(b);
  };
  anchor("float", 0.0f);
  anchor("double", 0.0);
  anchor("fpmp_low", fx::fp32mp2_low(0.0f));
  anchor("fpmp_mid", fx::fp32mp2(0.0f));
  anchor("fpmp_high", fx::fp32mp2_high(0.0f));
  dpair a(n), b(n);
  auto load = [&] {
    a.zero();
    b.zero();
    CK(cudaMemcpy(a.hi, h.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b.hi, h.data(), n * 4, cudaMemcpyHostToDevice));
  };
  auto get = [&](std::vector<float> &hi, std::vector<float> &lo) { hi = a.get_hi(); lo = a.get_lo(); };
  auto split = [&](const char *name, auto zero) {
    using T = decltype(zero);
    measure(
      name, load,
      [&] {
        for (int s = 0; s < sweeps; s += 2) {
          a_stencil_split<T><<<grd, blk>>>(a.hi, a.lo, b.hi, b.lo, nx, ny, c0, c1);
          a_stencil_split<T><<<grd, blk>>>(b.hi, b.lo, a.hi, a.lo, nx, ny, c0, c1);
        }
      },
      get);
  };
  split("fpmp_low_split", fx::fp32mp2_low(0.0f));
  split("fpmp_mid_split", fx::fp32mp2(0.0f));
  split("fpmp_high_split", fx::fp32mp2_high(0.0f));
  measure("cp_ff_high", load, [&] { stencil_run(a.hi, a.lo, b.hi, b.lo, nx, ny, c0, c1, sweeps); }, get);
  measure("cp_ff_mid", load, [&] { stencil_run_mid(a.hi, a.lo, b.hi, b.lo, nx, ny, c0, c1, sweeps); }, get);
  measure("cp_ff_low", load, [&] { stencil_run_low(a.hi, a.lo, b.hi, b.lo, nx, ny, c0, c1, sweeps); }, get);
  measure("cp_ff_strict", load, [&] { stencil_run_strict(a.hi, a.lo, b.hi, b.lo, nx, ny, c0, c1, sweeps); }, get);
  report(o, "stencil (5-point Jacobi, 4096^2, 10 sweeps)", rows);
}
