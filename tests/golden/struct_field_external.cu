// --pair out: the field's buffer is allocated in code this run does not convert, which
// allocates out_err too; the struct, defined here, gains the companion field.
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
