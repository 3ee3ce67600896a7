/*
 * cpconvert's built-in CUDA prelude.
 *
 * cpconvert parses CUDA files against the installed CUDA headers. Where no CUDA
 * installation is found (or with -nocudainc) it parses against this file instead,
 * which clang sees as <cuda_runtime.h> and includes implicitly, as nvcc does with the
 * real one. It declares what kernels and their host code commonly use, so that the
 * parse succeeds and types resolve; it is never compiled into anything.
 */
#ifndef CPCONVERT_PRELUDE_CUDA_RUNTIME_H
#define CPCONVERT_PRELUDE_CUDA_RUNTIME_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define CUDART_VERSION 13000
#ifndef __CUDACC__
#define __CUDACC__ 1 /* nvcc defines it, and so does clang's wrapper of the real headers */
#endif

typedef __SIZE_TYPE__ size_t;

/* ---- vector types ---- */
#define CP_PRELUDE_VEC(T, N)                                                             \
  struct T##1 { N x; };                                                                  \
  struct T##2 { N x, y; };                                                               \
  struct T##3 { N x, y, z; };                                                            \
  struct T##4 { N x, y, z, w; };                                                         \
  typedef struct T##1 T##1;                                                              \
  typedef struct T##2 T##2;                                                              \
  typedef struct T##3 T##3;                                                              \
  typedef struct T##4 T##4;                                                              \
  static __host__ __device__ inline T##1 make_##T##1(N x) { T##1 r = {x}; return r; }   \
  static __host__ __device__ inline T##2 make_##T##2(N x, N y) {                         \
    T##2 r = {x, y}; return r; }                                                         \
  static __host__ __device__ inline T##3 make_##T##3(N x, N y, N z) {                    \
    T##3 r = {x, y, z}; return r; }                                                      \
  static __host__ __device__ inline T##4 make_##T##4(N x, N y, N z, N w) {               \
    T##4 r = {x, y, z, w}; return r; }
CP_PRELUDE_VEC(char, signed char)
CP_PRELUDE_VEC(uchar, unsigned char)
CP_PRELUDE_VEC(short, short)
CP_PRELUDE_VEC(ushort, unsigned short)
CP_PRELUDE_VEC(int, int)
CP_PRELUDE_VEC(uint, unsigned int)
CP_PRELUDE_VEC(long, long)
CP_PRELUDE_VEC(ulong, unsigned long)
CP_PRELUDE_VEC(longlong, long long)
CP_PRELUDE_VEC(ulonglong, unsigned long long)
CP_PRELUDE_VEC(float, float)
CP_PRELUDE_VEC(double, double)
#undef CP_PRELUDE_VEC

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

/* ---- runtime API (host) ---- */
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1,
                         cudaErrorMemoryAllocation = 2 } cudaError_t;
typedef enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                              cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                              cudaMemcpyDefault = 4 } cudaMemcpyKind;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1,
                               cudaBoundaryModeTrap = 2 };
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t t, int x);
template <class T> __device__ T tex1D(cudaTextureObject_t t, float x);
template <class T> __device__ T tex2D(cudaTextureObject_t t, float x, float y);
template <class T> __device__ T tex3D(cudaTextureObject_t t, float x, float y, float z);
template <class T>
__device__ T surf1Dread(cudaSurfaceObject_t s, int x,
                        cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T>
__device__ T surf2Dread(cudaSurfaceObject_t s, int x, int y,
                        cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T>
__device__ void surf1Dwrite(T v, cudaSurfaceObject_t s, int x,
                            cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T>
__device__ void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y,
                            cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);

extern "C" {
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem = 0,
                                     void *stream = 0);
cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0,
                              cudaStream_t stream = 0);
cudaError_t cudaMalloc(void **p, size_t size);
cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags = 1);
cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t stream);
cudaError_t cudaMallocHost(void **p, size_t size);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeAsync(void *p, cudaStream_t stream);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind);
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t n);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t stream = 0);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
#define CUDART_CB
typedef void (*cudaHostFn_t)(void *data);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data);
__device__ int printf(const char *fmt, ...); /* the host one comes from <stdio.h> */
__device__ unsigned __isGlobal(const void *p);
}
/* assert() in device code: CUDA's runtime headers include <assert.h> and declare its
 * __assert_fail for the device too (here, as clang's own CUDA wrapper does, a __device__
 * overload of the host one). */
#include <assert.h>
static __device__ void __assert_fail(const char *, const char *, unsigned int, const char *);

/* Templates, as the CUDA runtime's C++ API declares them, so that scalar symbols pass. */
template <class T>
cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t n, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t n, size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> cudaError_t cudaGetSymbolAddress(void **p, const T &symbol);
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t size) {
  return cudaMalloc((void **)p, size);
}
template <class T> static inline cudaError_t cudaMallocManaged(T **p, size_t size,
                                                               unsigned flags = 1) {
  return cudaMallocManaged((void **)p, size, flags);
}
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t size) {
  return cudaMallocHost((void **)p, size);
}
template <class T> static inline cudaError_t cudaMallocAsync(T **p, size_t size,
                                                             cudaStream_t s) {
  return cudaMallocAsync((void **)p, size, s);
}

/* ---- device functions ---- */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);

#define CP_PRELUDE_ATOMIC(T)                                                             \
  __device__ T atomicAdd(T *p, T v);                                                     \
  __device__ T atomicSub(T *p, T v);                                                     \
  __device__ T atomicExch(T *p, T v);                                                    \
  __device__ T atomicMin(T *p, T v);                                                     \
  __device__ T atomicMax(T *p, T v);                                                     \
  __device__ T atomicCAS(T *p, T cmp, T v);
CP_PRELUDE_ATOMIC(int)
CP_PRELUDE_ATOMIC(unsigned int)
CP_PRELUDE_ATOMIC(unsigned long long)
#undef CP_PRELUDE_ATOMIC
__device__ float atomicAdd(float *p, float v);
__device__ double atomicAdd(double *p, double v);
__device__ float atomicExch(float *p, float v);

#define CP_PRELUDE_SHFL(T)                                                               \
  __device__ T __shfl_sync(unsigned mask, T v, int src, int width = 32);                \
  __device__ T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32);      \
  __device__ T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32);    \
  __device__ T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32);
CP_PRELUDE_SHFL(int)
CP_PRELUDE_SHFL(unsigned int)
CP_PRELUDE_SHFL(long long)
CP_PRELUDE_SHFL(unsigned long long)
CP_PRELUDE_SHFL(float)
CP_PRELUDE_SHFL(double)
#undef CP_PRELUDE_SHFL
__device__ unsigned __ballot_sync(unsigned mask, int pred);
__device__ int __any_sync(unsigned mask, int pred);
__device__ int __all_sync(unsigned mask, int pred);
__device__ unsigned __activemask(void);
template <class T> __device__ T __ldg(const T *p);
__device__ unsigned __match_all_sync(unsigned mask, unsigned long long v, int *pred);
__device__ void __trap(void);

/* float and double math, device side: declared as device-only overloads (as clang's own
 * CUDA headers do), so that they coexist with the host declarations of <cmath> and
 * <cstdlib> in files that include those. */
#define CP_PRELUDE_MATH1(fn) static __device__ float fn##f(float); \
                             static __device__ double fn(double);
#define CP_PRELUDE_MATH2(fn) static __device__ float fn##f(float, float); \
                             static __device__ double fn(double, double);
CP_PRELUDE_MATH1(sqrt) CP_PRELUDE_MATH1(rsqrt) CP_PRELUDE_MATH1(cbrt)
CP_PRELUDE_MATH1(fabs) CP_PRELUDE_MATH1(floor) CP_PRELUDE_MATH1(ceil)
CP_PRELUDE_MATH1(rint) CP_PRELUDE_MATH1(round) CP_PRELUDE_MATH1(trunc)
CP_PRELUDE_MATH1(exp) CP_PRELUDE_MATH1(exp2) CP_PRELUDE_MATH1(expm1)
CP_PRELUDE_MATH1(log) CP_PRELUDE_MATH1(log2) CP_PRELUDE_MATH1(log10)
CP_PRELUDE_MATH1(log1p) CP_PRELUDE_MATH1(sin) CP_PRELUDE_MATH1(cos)
CP_PRELUDE_MATH1(tan) CP_PRELUDE_MATH1(asin) CP_PRELUDE_MATH1(acos)
CP_PRELUDE_MATH1(atan) CP_PRELUDE_MATH1(sinh) CP_PRELUDE_MATH1(cosh)
CP_PRELUDE_MATH1(tanh) CP_PRELUDE_MATH1(erf) CP_PRELUDE_MATH1(erfc)
CP_PRELUDE_MATH2(pow) CP_PRELUDE_MATH2(fmin) CP_PRELUDE_MATH2(fmax)
CP_PRELUDE_MATH2(fmod) CP_PRELUDE_MATH2(atan2) CP_PRELUDE_MATH2(hypot)
CP_PRELUDE_MATH2(copysign) CP_PRELUDE_MATH1(exp10) CP_PRELUDE_MATH2(rhypot)
#undef CP_PRELUDE_MATH1
#undef CP_PRELUDE_MATH2
static __device__ float fmaf(float, float, float);
static __device__ float norm3df(float, float, float);
static __device__ double norm3d(double, double, double);
static __device__ float rnorm3df(float, float, float);
static __device__ double rnorm3d(double, double, double);
static __device__ double fma(double, double, double);
static __device__ void sincosf(float, float *, float *);
static __device__ void sincos(double, double *, double *);
static __device__ float sinpif(float);
static __device__ double sinpi(double);
static __device__ float cospif(float);
static __device__ double cospi(double);
static __device__ int abs(int);
/* C++ overloads of the double names for float arguments, as CUDA provides them */
static __device__ float sqrt(float);
static __device__ float rsqrt(float);
static __device__ float fabs(float);
static __device__ float floor(float);
static __device__ float ceil(float);
static __device__ float rint(float);
static __device__ float fmin(float, float);
static __device__ float fmax(float, float);
static __device__ float fma(float, float, float);
__device__ float __fdividef(float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __frsqrt_rn(float);
__device__ float __fadd_rn(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fdiv_rn(float, float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __tanf(float);
__device__ void __sincosf(float, float *, float *);
__device__ float __powf(float, float);
__device__ float __exp10f(float);
__device__ float __log2f(float);
__device__ float __log10f(float);
__device__ double __dadd_rn(double, double);
__device__ double __dsub_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ double __ddiv_rn(double, double);
__device__ double __drcp_rn(double);
__device__ double __dsqrt_rn(double);
__device__ double __fma_rn(double, double, double);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __uint_as_float(unsigned);
__device__ unsigned __float_as_uint(float);
__device__ int __float2int_rn(float);
__device__ int __float2int_rz(float);
__device__ float __int2float_rn(int);
__device__ double __longlong_as_double(long long);
__device__ long long __double_as_longlong(double);
__device__ int __clzll(long long);
__device__ int min(int, int);
__device__ int max(int, int);
__device__ unsigned min(unsigned, unsigned);
__device__ unsigned max(unsigned, unsigned);
__device__ float min(float, float);
__device__ float max(float, float);
__device__ double min(double, double);
__device__ double max(double, double);

#endif
