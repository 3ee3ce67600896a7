// A file that does not parse: errors like a compiler's, exit status 1, no output.
__global__ void broken(float *x) {
  x[threadIdx.x] = undeclared_value;
}
