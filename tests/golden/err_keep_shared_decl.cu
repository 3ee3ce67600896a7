// A variable kept in float cannot share its declaration with one that turns composite.
#pragma cp composite keep(a)
__global__ void k(float *y) {
  float a = 1.0f, b = 2.0f;
  y[0] = a + b;
}
