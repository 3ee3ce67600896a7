// Mandelbrot set at deep zoom (after Narumi et al.'s quasi double precision test).
//
// The view is centred on c0 = (-0.7677000147655, 0.09478599420880) at zoom 3.2e12: the
// image is width x width pixels covering a square of side 4 / zoom, so neighbouring pixels
// differ by about 1e-15, below float's resolution of c0 (about 6e-8) and near the limit of
// a float pair's (about 3e-15). Each pixel iterates z = z^2 + c from z = 0 until |z| > 2 or
// maxit iterations; the count is the pixel's value in the image (PGM) and, optionally, in
// a raw file of int32 counts (row-major) for comparing variants pixel by pixel.
//
// Accuracy: the program also records |Z_100| (|z| after 100 iterations) per pixel, and on
// a sample grid (every 4th pixel in each direction) computes the reference |Z_100| on the
// host in long double (64-bit mantissa, 11 bits more than double) from the exact c of the
// pixel. A second kernel computes each sample's relative error |z - ref| / ref on the
// device in the variant's own arithmetic (ref passed as two reals, hi + lo), so a composite
// |Z_100| is compared before it is rounded to one float. An orbit that escaped before
// iteration 100 while the reference's did not counts as relative error 1, and so does any
// error above 1; samples whose reference escaped are left out.
//
// The centre enters the kernel as two reals (c0 = hi + lo): in float hi + lo rounds to
// float, in composite it is kept as an exact pair, in double it is c0 rounded to double.
//
// Variants (same source):
//   float:      nvcc -O3 -arch=sm_90 mandelbrot.cu -o mb_float
//   double:     nvcc -O3 -arch=sm_90 -DREAL_DOUBLE mandelbrot.cu -o mb_double
//   composite:  cpconvert mandelbrot.cu -o mandelbrot_cp.cu
//               nvcc -O3 -arch=sm_90 -I<cpconvert>/runtime/include mandelbrot_cp.cu -o mb_cp
//               (cpconvert --algo fast: Narumi's variant, normalization dropped)
//   run:        ./mb_float [image=mandelbrot.pgm] [width=1024] [maxit=10000] [counts=none]
//               quick setting: ./mb_float mb.pgm 256 2000
//
// Run time at full size, measured on an H100: under 0.5 s per variant, whole program (the
// image kernel: 0.4 ms in float, 0.7 ms in double, 6 ms in composite).
//
// Output: CSV `width,maxit,mean_iter,inside,samples,avg_rel_err_z100,max_rel_err_z100,
// time_ms`, one row: mean iteration count, pixels that reached maxit, samples compared,
// the average and maximum relative error of |Z_100|, and the kernel time of the image.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef REAL_DOUBLE
typedef double real;
#else
typedef float real;
#endif

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));      \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

#define SAMPLE 4                               // reference on every SAMPLE-th pixel

// Iteration counts, and |Z_100| (-1 if the orbit escaped before iteration 100).
#pragma cp composite
__global__ void mandelbrot(real cx_hi, real cx_lo, real cy_hi, real cy_lo, real step,
                           int width, int maxit, int *count, real *z100) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= width) return;
  real cx = cx_hi + cx_lo + (px - width / 2) * step;
  real cy = cy_hi + cy_lo + (py - width / 2) * step;
  real x = 0, y = 0, zabs = -1;
  int k = 0;
  for (; k < maxit; k++) {
    real x2 = x * x, y2 = y * y;
    if (k == 100) zabs = sqrt(x2 + y2);
    if (x2 + y2 > 4) break;
    y = 2 * x * y + cy;
    x = x2 - y2 + cx;
  }
  count[py * width + px] = k;
  z100[py * width + px] = zabs;
}

// Relative error of |Z_100| on the sample grid; ref = ref_hi + ref_lo > 0.
#pragma cp composite
__global__ void z100_error(const real *z100, const real *ref_hi, const real *ref_lo,
                           int width, int samples, real *err) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= samples) return;
  int per_row = width / SAMPLE;
  real z = z100[(i / per_row) * SAMPLE * width + (i % per_row) * SAMPLE];
  real ref = ref_hi[i] + ref_lo[i];
  if (z < 0) {
    err[i] = 1;
  } else {
    real d = fabs(z - ref) / ref;
    err[i] = d < 1 ? d : 1;
  }
}

// |Z_100| in long double, the same steps as the kernel; -1 if escaped before 100.
static long double reference_z100(long double cx, long double cy) {
  long double x = 0, y = 0;
  for (int k = 0; k < 100; k++) {
    long double x2 = x * x, y2 = y * y;
    if (x2 + y2 > 4) return -1;
    y = 2 * x * y + cy;
    x = x2 - y2 + cx;
  }
  return sqrtl(x * x + y * y);
}

static void write_pgm(const char *path, const int *count, int width, int maxit) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fprintf(f, "P5\n%d %d\n255\n", width, width);
  for (int i = 0; i < width * width; i++) {
    unsigned char g = count[i] >= maxit ? 0 : (unsigned char)(255 - (count[i] % 64) * 3);
    fputc(g, f);
  }
  fclose(f);
}

int main(int argc, char **argv) {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // load the kernels now, not in the timings
  const char *image = argc > 1 ? argv[1] : "mandelbrot.pgm";
  int width = argc > 2 ? atoi(argv[2]) : 1024;
  int maxit = argc > 3 ? atoi(argv[3]) : 10000;
  const char *counts = argc > 4 ? argv[4] : NULL;
  if (width < SAMPLE || width % SAMPLE || maxit <= 100) {
    fprintf(stderr, "usage: %s [image.pgm] [width=1024, a multiple of %d] [maxit=10000, > 100] "
            "[counts.bin]\n", argv[0], SAMPLE);
    return 2;
  }
  const long double c0x = -0.7677000147655L, c0y = 0.09478599420880L, zoom = 3.2e12L;
#if defined(REAL_DOUBLE)
  const char *variant = "double";
#elif defined(CP_ALGO_NAME)
  const char *variant = "composite_" CP_ALGO_NAME;
#else
  const char *variant = "float";
#endif
  real cx_hi = (real)c0x, cx_lo = (real)(c0x - cx_hi);
  real cy_hi = (real)c0y, cy_lo = (real)(c0y - cy_hi);
  real step = (real)(4 / (zoom * width));
  int pixels = width * width, per_row = width / SAMPLE, samples = per_row * per_row;

  // Reference on the sample grid, from the exact c of each pixel.
  real *h_ref = (real *)malloc(2 * samples * sizeof(real));
  int *valid = (int *)malloc(samples * sizeof(int));
  for (int i = 0; i < samples; i++) {
    int px = (i % per_row) * SAMPLE, py = (i / per_row) * SAMPLE;
    long double r = reference_z100(c0x + (long double)(px - width / 2) * step,
                                   c0y + (long double)(py - width / 2) * step);
    valid[i] = r > 0;
    if (r <= 0) r = 1;
    h_ref[i] = (real)r;
    h_ref[samples + i] = (real)(r - (long double)h_ref[i]);
  }

  int *d_count;
  real *d_z100, *d_ref_hi, *d_ref_lo, *d_err;
  CHECK(cudaMalloc(&d_count, pixels * sizeof(int)));
  CHECK(cudaMalloc(&d_z100, pixels * sizeof(real)));
  CHECK(cudaMalloc(&d_ref_hi, samples * sizeof(real)));
  CHECK(cudaMalloc(&d_ref_lo, samples * sizeof(real)));
  CHECK(cudaMalloc(&d_err, samples * sizeof(real)));
  CHECK(cudaMemcpy(d_ref_hi, h_ref, samples * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ref_lo, h_ref + samples, samples * sizeof(real), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
  float ms = 0;
  CHECK(cudaEventRecord(start));
  mandelbrot<<<grid, block>>>(cx_hi, cx_lo, cy_hi, cy_lo, step, width, maxit, d_count, d_z100);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaGetLastError());
  z100_error<<<(samples + 255) / 256, 256>>>(d_z100, d_ref_hi, d_ref_lo, width, samples, d_err);
  CHECK(cudaGetLastError());
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  int *h_count = (int *)malloc(pixels * sizeof(int));
  real *h_err = (real *)malloc(samples * sizeof(real));
  CHECK(cudaMemcpy(h_count, d_count, pixels * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_err, d_err, samples * sizeof(real), cudaMemcpyDeviceToHost));

  double mean_iter = 0, sum_err = 0, max_err = 0;
  int inside = 0, compared = 0;
  for (int i = 0; i < pixels; i++) {
    mean_iter += (double)h_count[i] / pixels;
    inside += h_count[i] >= maxit;
  }
  for (int i = 0; i < samples; i++) {
    if (!valid[i]) continue;
    double e = (double)h_err[i];
    sum_err += e;
    max_err = e > max_err ? e : max_err;
    compared++;
  }
  write_pgm(image, h_count, width, maxit);
  if (counts) {
    FILE *f = fopen(counts, "wb");
    if (!f || fwrite(h_count, sizeof(int), pixels, f) != (size_t)pixels) {
      perror(counts);
      return 1;
    }
    fclose(f);
  }

  printf("# mandelbrot variant=%s centre=(%.13Lf,%.14Lf) zoom=%.3Le side=4/zoom image=%s\n",
         variant, c0x, c0y, zoom, image);
  printf("width,maxit,mean_iter,inside,samples,avg_rel_err_z100,max_rel_err_z100,time_ms\n");
  printf("%d,%d,%.9e,%d,%d,%.9e,%.9e,%.9e\n", width, maxit, mean_iter, inside, compared,
         compared ? sum_err / compared : 0.0, max_err, (double)ms);

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_count));
  CHECK(cudaFree(d_z100));
  CHECK(cudaFree(d_ref_hi));
  CHECK(cudaFree(d_ref_lo));
  CHECK(cudaFree(d_err));
  free(h_ref);
  free(valid);
  free(h_count);
  free(h_err);
  return 0;
}
