// Converted in groups (driver/split.c): this kernel is launched from b_main.cu, so the
// two convert together; c_alone.cu reaches no other file and converts alone; e_decl.cu
// declares and launches the kernel that kernels.cuh defines and only d_header.cu includes.
#pragma cp composite
__global__ void scale_a(const float *x, float *out)
{
  out[threadIdx.x] += 3.0f * x[threadIdx.x];
}
