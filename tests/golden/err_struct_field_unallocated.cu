// A float pointer field of a struct passed by value that a converted kernel writes pairs
// like a buffer parameter: Buffers gains out_err. The buffer is allocated in code this run
// does not convert, so the tool cannot add the companion's allocation: an error that says
// what to write (never a kernel that writes out_err nobody allocated).
struct Buffers {
  const float *in;
  float *out;
};

#pragma cp composite
__global__ void scaled(Buffers b, float a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    b.out[i] = b.in[i] * a;
}
