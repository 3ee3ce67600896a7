// A paired buffer passed to a function that is not converted (its body is not in the
// converted file, so it cannot be converted with it): that function would update the value
// and never the error.
__device__ void scale(float *p, float s);

#pragma cp composite
__global__ void k(float *acc, int i) {
  acc[i] += 1.0f;
  scale(acc, 2.0f);
}
