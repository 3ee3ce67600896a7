// --backend ff: the output forces float-float (CP_BACKEND_FF) on every GPU, also where FP64
// is fast; the converted code is the same as under dp or auto. A block sum into a __shared__
// composite and a paired-buffer update exercise the runtime names that change under dp.
#pragma cp composite
__global__ void block_energy(const float *v, float *energy, float *pos, int n) {
  __shared__ float sum;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) sum = 0.0f;
  __syncthreads();
  if (i < n) {
    atomicAdd(&sum, 0.5f * v[i] * v[i]);
    pos[i] += 0.01f * v[i];
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(energy, sum);
}
