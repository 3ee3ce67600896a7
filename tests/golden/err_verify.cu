// Rule verify: the output is parsed again before it is written. Here the input's own
// cp_float (a name the runtime owns) collides with the runtime's: the input compiles, its
// conversion would not, so nothing is written and the error names both lines.
typedef int cp_float;

#pragma cp composite
__global__ void scale(float *x, float a) {
  x[threadIdx.x] = x[threadIdx.x] * a;
}
