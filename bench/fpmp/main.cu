/* bench/fpmp/main.cu - the side-by-side suite: converted ff against CCCL fpmp (low, mid,
 * high), float and double, one shape after another in one process (see common.cuh).
 *
 *   fpmp_bench [--quick] [--only NAME] [--csv FILE] [--reps N]
 */
#include "common.cuh"

#include "shapes/poly_anchor.cuh"
#include "shapes/dot_anchor.cuh"
#include "shapes/mandel_anchor.cuh"
#include "shapes/matmul_anchor.cuh"
#include "shapes/md_all_anchor.cuh"
#include "shapes/md_acc_anchor.cuh"
#include "shapes/stencil_anchor.cuh"
#include "shapes/reduce_anchor.cuh"

struct shape {
  const char *name;
  void (*run)(const bench_opts &);
};

static const shape shapes[] = {
  { "poly", bench_poly },
  { "dot", bench_dot },
  { "mandel", bench_mandel },
  { "matmul", bench_matmul },
  { "md_all", bench_md_all },
  { "md_acc", bench_md_acc },
  { "stencil", bench_stencil },
  { "reduce", bench_reduce },
};

int main(int argc, char **argv)
{
  bench_opts o;
  const char *only = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--quick") o.scale = 1.0 / 16;
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (a == "--reps" && i + 1 < argc) o.reps = std::atoi(argv[++i]);
    else if (a == "--csv" && i + 1 < argc) {
      o.csv = std::fopen(argv[++i], "w");
      if (!o.csv) { std::perror(argv[i]); return 2; }
      std::fprintf(o.csv, "shape,variant,ms,x_float,x_double,x_fpmp_mid,max_rel_err,rms_rel_err\n");
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--only NAME] [--csv FILE] [--reps N]\n", argv[0]);
      return 2;
    }
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  int drv = 0;
  CK(cudaDriverGetVersion(&drv));
  std::printf("device: %s (sm_%d%d), driver API %d, median of %d launches\n", p.name, p.major, p.minor,
              drv, o.reps);
  for (const shape &s : shapes)
    if (!only || std::string(only) == s.name) s.run(o);
  if (o.csv) std::fclose(o.csv);
  return 0;
}
