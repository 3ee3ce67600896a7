/* bench/fpmp/layout/stencil_layout.cu: what the two-array layout of a paired buffer costs the
 * stencil of shapes/stencil.cu, apart from the arithmetic (docs/results.md section 16).
 *
 * The same 5-point Jacobi sweep (10 sweeps, 4096^2 unless argv[1] says otherwise) with the
 * same runtime calls (the accurate family, as the converter writes them), timed in one
 * process: float; interleaved (one array of cp_ff pairs, 8 bytes a cell, as fpmp's grid);
 * split (two float arrays, the conversion contract's layout, as cpconvert writes it); split
 * with __restrict__; split with every load issued before the arithmetic; split with the
 * error array in the same allocation as the values at several offsets (DRAM bank or channel
 * aliasing); split under other block shapes. Medians of 15 runs.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I runtime/include bench/fpmp/layout/stencil_layout.cu -o stencil_layout
 *   ./stencil_layout [n]
 *   ncu --kernel-name regex:'^k_(split|inter)$' --launch-skip 4 --launch-count 1 --set full ./stencil_layout
 */
#define CP_BACKEND CP_BACKEND_FF
#include <cp/cp.cuh>
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do{cudaError_t e_=(x); if(e_){printf("%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e_)); exit(1);} }while(0)
__global__ void k_split(const float *in, const float *in_err, float *out, float *out_err, int nx, int ny, float c0, float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  cp_store(&out[i], &out_err[i], cp_add(cp_mul_fc(c0, cp_make_float(in[i], in_err[i])), cp_mul_fc(c1, cp_add(cp_add(cp_add(cp_make_float(in[i - nx], in_err[i - nx]), cp_make_float(in[i + nx], in_err[i + nx])), cp_make_float(in[i + 1], in_err[i + 1])), cp_make_float(in[i - 1], in_err[i - 1])))));
}
__global__ void k_split_r(const float *__restrict__ in, const float *__restrict__ in_err, float *__restrict__ out, float *__restrict__ out_err, int nx, int ny, float c0, float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  cp_store(&out[i], &out_err[i], cp_add(cp_mul_fc(c0, cp_make_float(in[i], in_err[i])), cp_mul_fc(c1, cp_add(cp_add(cp_add(cp_make_float(in[i - nx], in_err[i - nx]), cp_make_float(in[i + nx], in_err[i + nx])), cp_make_float(in[i + 1], in_err[i + 1])), cp_make_float(in[i - 1], in_err[i - 1])))));
}
/* errors read first, then values */
__global__ void k_split_eo(const float *in, const float *in_err, float *out, float *out_err, int nx, int ny, float c0, float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  float v0=in[i],v1=in[i-nx],v2=in[i+nx],v3=in[i+1],v4=in[i-1];
  float e0=in_err[i],e1=in_err[i-nx],e2=in_err[i+nx],e3=in_err[i+1],e4=in_err[i-1];
  cp_store(&out[i], &out_err[i], cp_add(cp_mul_fc(c0, cp_make_float(v0,e0)), cp_mul_fc(c1, cp_add(cp_add(cp_add(cp_make_float(v1,e1), cp_make_float(v2,e2)), cp_make_float(v3,e3)), cp_make_float(v4,e4)))));
}
__global__ void k_inter(const cp_ff *in, cp_ff *out, int nx, int ny, float c0, float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
#define L(k) cp_make_float(in[k].v, in[k].e)
  cp_store(&out[i].v, &out[i].e, cp_add(cp_mul_fc(c0, L(i)), cp_mul_fc(c1, cp_add(cp_add(cp_add(L(i - nx), L(i + nx)), L(i + 1)), L(i - 1)))));
}
__global__ void k_float(const float *in, float *out, int nx, int ny, float c0, float c1)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int i = y * nx + x;
  out[i] = c0 * in[i] + c1 * (in[i - nx] + in[i + nx] + in[i + 1] + in[i - 1]);
}
template <class F> float tm(F f) {
  f(); CK(cudaDeviceSynchronize());
  cudaEvent_t a,b; cudaEventCreate(&a); cudaEventCreate(&b); std::vector<float> t;
  for (int r=0;r<15;++r){ cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms,a,b); t.push_back(ms);} 
  CK(cudaGetLastError()); std::sort(t.begin(),t.end()); return t[t.size()/2];
}
int main(int argc,char**argv){
  int nx = argc>1?atoi(argv[1]):4096, ny=nx; size_t n=(size_t)nx*ny; float c0=.4f,c1=.15f; int sweeps=10;
  dim3 blk(32,8), grd((nx+31)/32,(ny+7)/8);
  float *fa,*fb; CK(cudaMalloc(&fa,n*4)); CK(cudaMalloc(&fb,n*4)); cudaMemset(fa,0,n*4); cudaMemset(fb,0,n*4);
  float tf = tm([&]{for(int s=0;s<sweeps;s+=2){k_float<<<grd,blk>>>(fa,fb,nx,ny,c0,c1);k_float<<<grd,blk>>>(fb,fa,nx,ny,c0,c1);}});
  printf("float            %.4f ms\n", tf);
  cp_ff *ia,*ib; CK(cudaMalloc(&ia,n*8)); CK(cudaMalloc(&ib,n*8)); cudaMemset(ia,0,n*8); cudaMemset(ib,0,n*8);
  float ti = tm([&]{for(int s=0;s<sweeps;s+=2){k_inter<<<grd,blk>>>(ia,ib,nx,ny,c0,c1);k_inter<<<grd,blk>>>(ib,ia,nx,ny,c0,c1);}});
  printf("interleaved      %.4f ms  %.3f float\n", ti, ti/tf);
  cudaFree(ia); cudaFree(ib);
  float *a,*ae,*b,*be; CK(cudaMalloc(&a,n*4)); CK(cudaMalloc(&ae,n*4)); CK(cudaMalloc(&b,n*4)); CK(cudaMalloc(&be,n*4));
  cudaMemset(a,0,n*4);cudaMemset(ae,0,n*4);cudaMemset(b,0,n*4);cudaMemset(be,0,n*4);
  printf("ptrs a %p ae %p b %p be %p\n",a,ae,b,be);
  float ts = tm([&]{for(int s=0;s<sweeps;s+=2){k_split<<<grd,blk>>>(a,ae,b,be,nx,ny,c0,c1);k_split<<<grd,blk>>>(b,be,a,ae,nx,ny,c0,c1);}});
  printf("split            %.4f ms  %.3f inter\n", ts, ts/ti);
  float tr = tm([&]{for(int s=0;s<sweeps;s+=2){k_split_r<<<grd,blk>>>(a,ae,b,be,nx,ny,c0,c1);k_split_r<<<grd,blk>>>(b,be,a,ae,nx,ny,c0,c1);}});
  printf("split restrict   %.4f ms  %.3f inter\n", tr, tr/ti);
  float te = tm([&]{for(int s=0;s<sweeps;s+=2){k_split_eo<<<grd,blk>>>(a,ae,b,be,nx,ny,c0,c1);k_split_eo<<<grd,blk>>>(b,be,a,ae,nx,ny,c0,c1);}});
  printf("split loads 1st  %.4f ms  %.3f inter\n", te, te/ti);
  cudaFree(a);cudaFree(ae);cudaFree(b);cudaFree(be);
  size_t pads[] = {0, 32, 1056, 16480, 262144+96};
  for (size_t pad: pads) {
    float *A,*B; CK(cudaMalloc(&A,(2*n+pad)*4)); CK(cudaMalloc(&B,(2*n+pad)*4)); cudaMemset(A,0,(2*n+pad)*4); cudaMemset(B,0,(2*n+pad)*4);
    float *Ae=A+n+pad,*Be=B+n+pad;
    float tp = tm([&]{for(int s=0;s<sweeps;s+=2){k_split<<<grd,blk>>>(A,Ae,B,Be,nx,ny,c0,c1);k_split<<<grd,blk>>>(B,Be,A,Ae,nx,ny,c0,c1);}});
    printf("split pad %7zu  %.4f ms  %.3f inter\n", pad, tp, tp/ti);
    cudaFree(A);cudaFree(B);
  }
  for (int by : {4, 16}) {
    dim3 blk2(32*8/by,by), grd2((nx+blk2.x-1)/blk2.x,(ny+by-1)/by);
    float *a,*ae,*b,*be; CK(cudaMalloc(&a,n*4)); CK(cudaMalloc(&ae,n*4)); CK(cudaMalloc(&b,n*4)); CK(cudaMalloc(&be,n*4));
    cudaMemset(a,0,n*4);cudaMemset(ae,0,n*4);cudaMemset(b,0,n*4);cudaMemset(be,0,n*4);
    float t2 = tm([&]{for(int s=0;s<sweeps;s+=2){k_split<<<grd2,blk2>>>(a,ae,b,be,nx,ny,c0,c1);k_split<<<grd2,blk2>>>(b,be,a,ae,nx,ny,c0,c1);}});
    printf("blk %dx%d split %.4f ms\n", blk2.x, by, t2);
    cudaFree(a);cudaFree(ae);cudaFree(b);cudaFree(be);
  }
  return 0;
}
