// A variable kept in float cannot share a for statement's declaration with one that turns
// composite (a for statement has room for one declaration only).
#pragma cp composite keep(a)
__global__ void k(float *y, int n) {
  for (float a = 1.0f, b = 2.0f; a < n; a += 1.0f)
    y[0] += a + b;
}
