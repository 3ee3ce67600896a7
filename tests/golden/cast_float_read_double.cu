// A float made from a double by a cast and read back as a double: in the converted
// function the float is the composite split of the double, so the double is read whole
// (the float program rounds there, the composite one does not). A cast that only
// converts (t2) splits as before.
#pragma cp composite
__global__ void halve(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float t1 = in[i] * 3.0f;
  out[i] = in[i] + (double)((float)((double)t1 * 0.5)) * 0.5;
  float t2 = (float)((double)t1 * 0.25);
  double back = (float)(t2 * 0.125);
  out[i] += t2 + (float)back;
}
