/* md_all, written by hand over the number type T (see shapes/md_all.cu), and what md_all and
 * md_acc share: the atoms, the reference and the rows. Error: relative, of the force
 * components of 256 sampled atoms against long double all-pairs sums from the same float
 * positions (the energies are written and paired but not scored). */
#pragma once

template <typename T>
__global__ void a_md_all(const float4 *pos, float4 *fh, float4 *fl, float *eh, float *el, int n, float rc2)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 pi = pos[i];
  T fx = T(0.0f), fy = T(0.0f), fz = T(0.0f), e = T(0.0f);
  for (int j = 0; j < n; ++j) {
    float4 pj = pos[j];
    T dx = T(pi.x) - T(pj.x), dy = T(pi.y) - T(pj.y), dz = T(pi.z) - T(pj.z);
    T r2 = dx * dx + dy * dy + dz * dz;
    if (r2 > 0.0f && r2 < rc2) {
      T ir2 = 1.0f / r2;
      T ir6 = ir2 * ir2 * ir2;
      T f = 24.0f * ir2 * ir6 * (2.0f * ir6 - 1.0f);
      fx += f * dx;
      fy += f * dy;
      fz += f * dz;
      e += 2.0f * ir6 * (ir6 - 1.0f);
    }
  }
  fh[i] = make_float4(num_hi(fx), num_hi(fy), num_hi(fz), 0.0f);
  fl[i] = make_float4(num_lo(fx), num_lo(fy), num_lo(fz), 0.0f);
  eh[i] = num_hi(e);
  el[i] = num_lo(e);
}

CP_LAUNCHERS(md_all_run, (const float4 *pos, float4 *force, float4 *force_err, float *energy, float *energy_err, int n, float rc2));

typedef void (*md_launch)(const float4 *pos, float4 *fh, float4 *fl, float *eh, float *el, int n, float rc2);

template <typename T>
void md_all_launch(const float4 *pos, float4 *fh, float4 *fl, float *eh, float *el, int n, float rc2)
{
  a_md_all<T><<<(n + 63) / 64, 64>>>(pos, fh, fl, eh, el, n, rc2);
}

/* L^3 atoms (22^3 = 10648 at full size) on a simple cubic lattice of spacing 1.1 sigma, each
 * displaced by up to 0.05 sigma per coordinate, open boundaries, cutoff 2.5 sigma. */
inline void md_bench(const bench_opts &o, const char *title, const std::vector<std::pair<const char *, md_launch>> &variants)
{
  const int L = (int)std::lround(22 * std::pow(o.scale, 1.0 / 6)), n = L * L * L;
  const float rc2 = 2.5f * 2.5f;
  std::vector<float4> hp(n);
  srand(4);
  auto jitter = [] { return 0.1f * (float)rand() / RAND_MAX - 0.05f; };
  for (int i = 0; i < n; ++i)
    hp[i] = make_float4(1.1f * (i % L) + jitter(), 1.1f * (i / L % L) + jitter(), 1.1f * (i / (L * L)) + jitter(), 0.0f);
  float4 *pos;
  CK(cudaMalloc(&pos, n * sizeof(float4)));
  CK(cudaMemcpy(pos, hp.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  dpair f(4 * (size_t)n), e(n);
  std::vector<size_t> idx; /* components x, y, z of the sampled atoms, in the float4 layout */
  std::vector<long double> ref;
  for (size_t i : sample(n, 256)) {
    long double s[3] = { 0, 0, 0 };
    for (int j = 0; j < n; ++j) {
      long double d[3] = { (long double)hp[i].x - hp[j].x, (long double)hp[i].y - hp[j].y, (long double)hp[i].z - hp[j].z };
      long double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 > 0 && r2 < rc2) {
        long double ir2 = 1 / r2, ir6 = ir2 * ir2 * ir2, fr = 24 * ir2 * ir6 * (2 * ir6 - 1);
        for (int c = 0; c < 3; ++c) s[c] += fr * d[c];
      }
    }
    for (int c = 0; c < 3; ++c) {
      idx.push_back(4 * i + c);
      ref.push_back(s[c]);
    }
  }
  std::vector<result> rows;
  for (const auto &v : variants) {
    f.zero();
    e.zero();
    double ms = time_ms(o, [&] { v.second(pos, (float4 *)f.hi, (float4 *)f.lo, e.hi, e.lo, n, rc2); });
    result r{v.first, ms, 0, 0};
    rel_error(f.get_hi(), f.get_lo(), ref, idx, 1e-3, &r.max_rel, &r.rms_rel);
    rows.push_back(r);
  }
  report(o, title, rows);
  cudaFree(pos);
}

inline void bench_md_all(const bench_opts &o)
{
  md_bench(o, "md_all (Lennard-Jones all pairs, 10648 atoms, scope(all))",
           { { "float", md_all_launch<float> },
             { "double", md_all_launch<double> },
             { "fpmp_low", md_all_launch<fx::fp32mp2_low> },
             { "fpmp_mid", md_all_launch<fx::fp32mp2> },
             { "fpmp_high", md_all_launch<fx::fp32mp2_high> },
             { "cp_ff_high", md_all_run },
             { "cp_ff_mid", md_all_run_mid },
             { "cp_ff_low", md_all_run_low },
             { "cp_ff_strict", md_all_run_strict } });
}
