/* cp/host.cuh - host helpers of converted programs: the final value + error recombination.
 *
 * A paired device buffer x (values) with its companion x_err (errors) is copied back by
 * the converted program's own cudaMemcpy for the values, followed by cp_recombine for the
 * errors, which adds them in: host[i] = RN(x[i] + x_err[i]), the float nearest the
 * composite value (exact pair, one rounding; -0 kept where the error is 0).
 *
 * cp_recombine_host is plain C (tested on the CPU); cp_recombine and cp_recombine_async
 * need the CUDA runtime and return its error codes, so a user's error-checking macro can
 * wrap them like the copies they follow.
 */
#ifndef CP_HOST_CUH
#define CP_HOST_CUH

#include <stddef.h>
#include <stdlib.h>

#include "config.cuh"
#include "types.cuh"
#include "convert.cuh"
#include "report.cuh"

/* cp_recombine and the functions below it call the CUDA runtime: nvcc declares it in a .cu
 * file; a host C or C++ file the conversion changed (Solver.cpp beside Solver.cu, built by
 * the host compiler) gets it from cuda_runtime_api.h where that is on the include path. */
#if !defined(__CUDACC__) && defined(__has_include)
#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#define CP_DETAIL_HOST_CUDART 1
#endif
#endif
#if defined(__CUDACC__) || defined(CP_DETAIL_HOST_CUDART)
#define CP_DETAIL_CUDART 1
#endif

/* cp_recombine_host, keeping what the rounding drops when `res` is not NULL:
 * dst[i] = RN(v + e) and res[i] = v + e - dst[i], exactly (TwoSum), so (dst, res) is the
 * pair, normalized, for a later sum over MPI ranks (cp/mpi.h). The one loop of both, and
 * where -DCP_REPORT and -DCP_PROFILE measure. */
static inline void cp_recombine_keep_host(float *dst, float *res, const float *err, size_t n) {
#if CP_DETAIL_MEASURE
  cp_report_site site;
  cp_detail_report(cp_detail_report_take(&site), dst, err, n, 0);
#endif
  for (size_t i = 0; i < n; i++) {
    cp_ff s = cp_two_sum(dst[i], err[i]);
    if (err[i] != 0.0f) /* -0 with no error stays -0 */
      dst[i] = s.v;
    if (res)
      res[i] = err[i] != 0.0f ? s.e : 0.0f;
  }
}

/* dst[i] = RN(dst[i] + err[i]) for n floats: the float pair itself, whatever the backend
 * (under dp, going through a double could round twice). */
static inline void cp_recombine_host(float *dst, const float *err, size_t n) {
  cp_recombine_keep_host(dst, NULL, err, n);
}

/* dst[i] = RN(dst[i] + err[i]) for n doubles (buffers of converted double kernels). */
static inline void cp_recombine_host_double(double *dst, const double *err, size_t n) {
#if CP_DETAIL_MEASURE
  cp_report_site site;
  cp_detail_report(cp_detail_report_take(&site), dst, err, n, 1);
#endif
  for (size_t i = 0; i < n; i++)
    dst[i] = cp_dd_to_double(cp_make_double(dst[i], err[i]));
}

#if defined(CP_DETAIL_CUDART)
/* The raw error terms of a paired buffer: copies `bytes` bytes of its companion x_err
 * (floats, or doubles for converted double kernels) from the device into `host`, unchanged
 * (with the values copied beside them, cp_error_stats_add measures them as -DCP_REPORT
 * does). */
static inline cudaError_t cp_read_errors(void *host, const void *err_dev, size_t bytes) {
  return cudaMemcpy(host, err_dev, bytes, cudaMemcpyDeviceToHost);
}

/* cp_recombine that keeps the residuals in `res` (host floats, as many as at `dst`):
 * cp_recombine_keep_host after the copy of the errors. For a value summed over MPI ranks
 * next (the conversion writes it before cp_mpi_allreduce_sum). With res NULL, it is
 * cp_recombine. */
static inline cudaError_t cp_recombine_keep(void *dst, void *res, const void *err_dev, size_t bytes) {
  if (bytes % sizeof(float) != 0)
    return cudaErrorInvalidValue;
  float *tmp = (float *)malloc(bytes ? bytes : 1);
  if (!tmp)
    return cudaErrorMemoryAllocation;
  cudaError_t e = cudaMemcpy(tmp, err_dev, bytes, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    cp_recombine_keep_host((float *)dst, (float *)res, tmp, bytes / sizeof(float));
  free(tmp);
  return e;
}

/* Copies `bytes` bytes of errors (floats, or float2/3/4: float members) from the device
 * and recombines them into the values at `dst`. */
static inline cudaError_t cp_recombine(void *dst, const void *err_dev, size_t bytes) {
  return cp_recombine_keep(dst, NULL, err_dev, bytes);
}

typedef struct {
  void *dst, *tmp;
  size_t n;
  int is_double;
#if CP_DETAIL_MEASURE
  cp_report_site site; /* where the recombination was enqueued */
#endif
} cp_detail_recombine_job;

static void CUDART_CB cp_detail_recombine_cb(void *p) {
  cp_detail_recombine_job *job = (cp_detail_recombine_job *)p;
#if CP_DETAIL_MEASURE
  if (job->site.line)
    cp_detail_report_set(job->site.file, job->site.args, job->site.line);
#endif
  if (job->is_double)
    cp_recombine_host_double((double *)job->dst, (const double *)job->tmp, job->n);
  else
    cp_recombine_host((float *)job->dst, (const float *)job->tmp, job->n);
  free(job->tmp);
  free(job);
}

/* The same in stream order: the errors are copied on `stream` and added by a host function
 * enqueued after the copy, so the values are complete when the stream's later work (or a
 * cudaStreamSynchronize) sees them. */
static inline cudaError_t cp_detail_recombine_async(void *dst, const void *err_dev, size_t bytes,
                                                    cudaStream_t stream, int is_double) {
  size_t elem = is_double ? sizeof(double) : sizeof(float);
  if (bytes % elem != 0)
    return cudaErrorInvalidValue;
  cp_detail_recombine_job *job = (cp_detail_recombine_job *)malloc(sizeof *job);
  void *tmp = malloc(bytes ? bytes : 1);
  if (!job || !tmp) {
    free(job);
    free(tmp);
    return cudaErrorMemoryAllocation;
  }
  job->dst = dst;
  job->tmp = tmp;
  job->n = bytes / elem;
  job->is_double = is_double;
#if CP_DETAIL_MEASURE
  cp_detail_report_take(&job->site);
#endif
  cudaError_t e = cudaMemcpyAsync(tmp, err_dev, bytes, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess)
    e = cudaLaunchHostFunc(stream, cp_detail_recombine_cb, job);
  if (e != cudaSuccess) {
    free(job);
    free(tmp);
  }
  return e;
}

static inline cudaError_t cp_recombine_async(void *dst, const void *err_dev, size_t bytes,
                                             cudaStream_t stream) {
  return cp_detail_recombine_async(dst, err_dev, bytes, stream, 0);
}

static inline cudaError_t cp_recombine_double_async(void *dst, const void *err_dev, size_t bytes,
                                                    cudaStream_t stream) {
  return cp_detail_recombine_async(dst, err_dev, bytes, stream, 1);
}
/* cp_recombine for double data (buffers of converted double kernels). */
static inline cudaError_t cp_recombine_double(void *dst, const void *err_dev, size_t bytes) {
  if (bytes % sizeof(double) != 0)
    return cudaErrorInvalidValue;
  double *tmp = (double *)malloc(bytes ? bytes : 1);
  if (!tmp)
    return cudaErrorMemoryAllocation;
  cudaError_t e = cudaMemcpy(tmp, err_dev, bytes, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    cp_recombine_host_double((double *)dst, tmp, bytes / sizeof(double));
  free(tmp);
  return e;
}

#if defined(__cplusplus)
/* cudaMemcpyFromSymbol(dst, sym, bytes, offset) of a paired __device__ symbol, followed by
 * this: the errors come from the companion symbol sym_err (same offset) and are added in,
 * as cp_recombine does for buffers. */
template <class T>
static inline cudaError_t cp_recombine_symbol(void *dst, const T &err_symbol, size_t bytes,
                                              size_t offset = 0) {
  void *err = NULL;
  cudaError_t e = cudaGetSymbolAddress(&err, err_symbol);
  return e == cudaSuccess ? cp_recombine(dst, (const char *)err + offset, bytes) : e;
}

/* cudaMemcpyToSymbol(sym, src, bytes, offset) of a paired symbol, followed by this: fresh
 * values carry no error, so the companion's bytes are zeroed. */
template <class T>
static inline cudaError_t cp_zero_symbol(const T &err_symbol, size_t bytes, size_t offset = 0) {
  void *err = NULL;
  cudaError_t e = cudaGetSymbolAddress(&err, err_symbol);
  return e == cudaSuccess ? cudaMemset((char *)err + offset, 0, bytes) : e;
}
#endif
#endif

#if CP_DETAIL_MEASURE
/* Each call written in the program records its file, line and arguments for the report
 * (report.cuh); a macro does not expand inside itself, so the function is then called. */
#define CP_DETAIL_REPORTED(f, text, ...) (cp_detail_report_set(__FILE__, text, __LINE__), f(__VA_ARGS__))
#define cp_recombine_host(...) CP_DETAIL_REPORTED(cp_recombine_host, #__VA_ARGS__, __VA_ARGS__)
#define cp_recombine_keep_host(...) CP_DETAIL_REPORTED(cp_recombine_keep_host, #__VA_ARGS__, __VA_ARGS__)
#define cp_recombine_host_double(...) CP_DETAIL_REPORTED(cp_recombine_host_double, #__VA_ARGS__, __VA_ARGS__)
#if defined(CP_DETAIL_CUDART)
#define cp_recombine(...) CP_DETAIL_REPORTED(cp_recombine, #__VA_ARGS__, __VA_ARGS__)
#define cp_recombine_double(...) CP_DETAIL_REPORTED(cp_recombine_double, #__VA_ARGS__, __VA_ARGS__)
#define cp_recombine_keep(...) CP_DETAIL_REPORTED(cp_recombine_keep, #__VA_ARGS__, __VA_ARGS__)
#define cp_recombine_async(...) CP_DETAIL_REPORTED(cp_recombine_async, #__VA_ARGS__, __VA_ARGS__)
#define cp_recombine_double_async(...) CP_DETAIL_REPORTED(cp_recombine_double_async, #__VA_ARGS__, __VA_ARGS__)
#if defined(__cplusplus)
#define cp_recombine_symbol(...) CP_DETAIL_REPORTED(cp_recombine_symbol, #__VA_ARGS__, __VA_ARGS__)
#endif
#endif
#endif

#endif /* CP_HOST_CUH */
