// keep(v): v stays float; values flowing into it are recombined, values read from it
// are exact composites.
#pragma cp composite keep(scale)
__global__ void keep_scale(const float *x, float *y, int n) {
  float scale = 1.0f / n;
  float acc = 0.0f;
  for (int i = 0; i < n; i++)
    acc += x[i];
  scale = scale * acc;
  y[0] = acc * scale;
}
