// profile_wrappers.cu - every wrapper of cpconvert --profile compiles (nvcc, warnings as
// errors): with CP_PROFILE (profile.cuh) and without (cp.cuh's empty forms), under ff and dp,
// on sm_90 (warp reductions) and sm_75 (the shuffle tree), sampled or not.
#include <cp/cp.cuh>

CP_PROFILE_TABLE(cp_prof_wrappers_1b2c3d4e,
  "\"kind\":\"store\",\"file\":\"w.cu\",\"line\":1,\"function\":\"k\",\"name\":\"x\"",
  "\"kind\":\"var\",\"file\":\"w.cu\",\"line\":2,\"function\":\"k\",\"name\":\"a\"",
  "\"kind\":\"drop\",\"file\":\"w.cu\",\"line\":3,\"function\":\"k\",\"name\":\"a\",\"why\":\"call\",\"call\":\"expf\"",
  "\"kind\":\"launch\",\"file\":\"w.cu\",\"line\":4,\"function\":\"main\",\"name\":\"\",\"kernel\":\"k\",\"args\":{\"x\":\"d_x\"},\"writes\":[\"x\"],\"reads\":[]",
  "\"kind\":\"input\",\"file\":\"w.cu\",\"line\":5,\"function\":\"main\",\"name\":\"d_x\"",
  "\"kind\":\"unconverted\",\"file\":\"w.cu\",\"line\":6,\"function\":\"main\",\"name\":\"d_x\",\"call\":\"other\"")

#define T cp_prof_wrappers_1b2c3d4e

__host__ __device__ cp_float twice(cp_float a) { return cp_prof(T, 1, cp_add(a, a)); }

__global__ void k(float *x, float *x_err, float4 *v, float4 *v_err, cp_double *d, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cp_float a = cp_prof(T, 1, cp_make_float(x[i], x_err[i]));
  a = twice(cp_prof(T, 1, cp_div_cf(a, 3.0f)));
  cp_float2 a2 = cp_prof(T, 1, cp_make_float2(a, a));
  cp_float3 a3 = cp_prof(T, 1, cp_make_float3(a, a, a));
  cp_float4 a4 = cp_prof(T, 0, cp_pair_float4(v[i], v_err[i]));
  cp_store_float4(&v[i], &v_err[i], a4);
  d[i] = cp_prof(T, 1, cp_dd_add(d[i], d[i]));
  x[i] = expf(cp_to_float(cp_prof(T, 2, cp_add(a2.x, a3.z))));
  cp_store(&x[i], &x_err[i], cp_prof(T, 0, a));
}

void launch(float *x, float *x_err, float4 *v, float4 *v_err, cp_double *d, int n)
{
  cp_prof_count(T, 4, n * sizeof(float));
  k<<<(cp_prof_launch(T, 3), (n + 255) / 256), 256>>>(x, x_err, v, v_err, d, n);
  cp_prof_count(T, 5, 0);
  float h[4];
  cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost);
  cp_recombine(h, x_err, sizeof h);
  cp_profile_write(NULL);
}
