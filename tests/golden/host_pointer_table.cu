/* Rule host-pair: a pointer into a paired buffer stored in an array element (a table of
 * pointers for halo copies) is not followed, so copies through it move values without their
 * error terms: a warning where it is stored. A pointer into an unpaired buffer (a, only read)
 * is no concern. */
#pragma cp composite
__global__ void k(float *out, const float *in, int n)
{
  int i = threadIdx.x;
  if (i < n) out[i] = in[i] * 3.0f;
}
int main()
{
  float *a, *b, *alias[2];
  int n = 256;
  cudaMalloc(&a, 2 * n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  k<<<1, n>>>(b, a, n);
  alias[0] = a + 10;
  alias[1] = b;
  cudaMemcpyPeer(alias[1], 0, alias[0], 0, n * sizeof(float));
  cudaFree(a);
  cudaFree(b);
  return 0;
}
