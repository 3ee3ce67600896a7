// A pragma written between a template's parameter list and its function marks that
// template (before: the next function, here 'other', silently).
template <int B>
#pragma cp composite
__global__ void scale(float *x, float f, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f * B;
}

__global__ void other(float *y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += 1.0f;
}

void run(float *x, float *y, int n) { scale<2><<<1, 32>>>(x, 0.5f, n); other<<<1, 32>>>(y, n); }
