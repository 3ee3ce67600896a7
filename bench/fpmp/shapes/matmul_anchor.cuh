/* matmul, written by hand over the number type T (see shapes/matmul.cu). Error: relative,
 * of 1024 sampled C entries against long double dot products. */
template <typename T>
__global__ void a_matmul(const float *A, const float *B, float *ch, float *cl, int n)
{
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  T acc = T(0.0f);
  for (int k = 0; k < n; ++k)
    acc += T(A[row * n + k]) * T(B[k * n + col]);
  ch[row * n + col] = num_hi(acc);
  cl[row * n + col] = num_lo(acc);
}

CP_LAUNCHERS(matmul_run, (const float *A, const float *B, float *C, float *C_err, int n));

inline void bench_matmul(const bench_opts &o)
{
  const int n = (int)(1024 * std::cbrt(o.scale));
  std::vector<float> ha((size_t)n * n), hb((size_t)n * n);
  srand(3);
  for (size_t i = 0; i < ha.size(); ++i) {
    ha[i] = 1.5f * (float)rand() / RAND_MAX - 0.5f; /* (-0.5, 1): entries of about n/16 */
    hb[i] = 1.5f * (float)rand() / RAND_MAX - 0.5f;
  }
  float *A = to_device(ha), *B = to_device(hb);
  dpair C((size_t)n * n);
  std::vector<size_t> idx = sample((size_t)n * n, 1024);
  std::vector<long double> ref;
  for (size_t e : idx) {
    size_t row = e / n, col = e % n;
    long double s = 0;
    for (int k = 0; k < n; ++k) s += (long double)ha[row * n + k] * hb[(size_t)k * n + col];
    ref.push_back(s);
  }
  shape_rows rows{o, C, ref, idx, 1e-3, {}};
  auto measure = [&](const char *name, const std::function<void()> &f) { rows.measure(name, f); };
  dim3 g((n + 15) / 16, (n + 15) / 16), b(16, 16);
  measure("float", [&] { a_matmul<float><<<g, b>>>(A, B, C.hi, C.lo, n); });
  measure("double", [&] { a_matmul<double><<<g, b>>>(A, B, C.hi, C.lo, n); });
  measure("fpmp_low", [&] { a_matmul<fx::fp32mp2_low><<<g, b>>>(A, B, C.hi, C.lo, n); });
  measure("fpmp_mid", [&] { a_matmul<fx::fp32mp2><<<g, b>>>(A, B, C.hi, C.lo, n); });
  measure("fpmp_high", [&] { a_matmul<fx::fp32mp2_high><<<g, b>>>(A, B, C.hi, C.lo, n); });
  measure("cp_ff_high", [&] { matmul_run(A, B, C.hi, C.lo, n); });
  measure("cp_ff_mid", [&] { matmul_run_mid(A, B, C.hi, C.lo, n); });
  measure("cp_ff_low", [&] { matmul_run_low(A, B, C.hi, C.lo, n); });
  measure("cp_ff_strict", [&] { matmul_run_strict(A, B, C.hi, C.lo, n); });
  report(o, "matmul (naive, n = 1024)", rows.rows);
  cudaFree(A);
  cudaFree(B);
}
