__global__ void sum_h(const float *x, float *out);

void launch_e(const float *x, float *out)
{
  sum_h<<<1, 32>>>(x, out);
}
