// --backend dp: the output forces native double (CP_BACKEND_DP) on every GPU; the converted
// code itself is the same as under ff or auto. A block sum into a __shared__ composite and a
// paired-buffer update exercise the runtime names that change representation under dp.
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
