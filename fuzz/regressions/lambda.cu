#pragma cp composite
__global__ void k(float *x, float a) {
  auto twice = [=](float v) { return v * a; };
  x[threadIdx.x] = twice(x[threadIdx.x]) + a;
}
