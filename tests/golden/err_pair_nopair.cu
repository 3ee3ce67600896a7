// A buffer named in both pair() and nopair(): one would silently win, so it is an error.
#pragma cp composite pair(x, y) nopair(y)
__global__ void k(float *x, const float *y) {
  x[0] += y[0];
}
