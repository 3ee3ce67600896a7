#define UPDATE(p, v) (p)[threadIdx.x] = (p)[threadIdx.x] * (v)
#pragma cp composite
__global__ void k(float *x, float a) {
  UPDATE(x, a);
}
