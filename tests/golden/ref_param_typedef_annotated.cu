// ref_param_typedef's shape with the helper annotated and only converted code calling
// it: converted in place, `real_t &` becoming `cp_float &` (before: internal errors).
typedef float real_t;

#pragma cp composite
__device__ void lj(real_t r2, real_t &f, real_t &e)
{
    real_t ir2 = 1.0f / r2;
    real_t ir6 = ir2 * ir2 * ir2;
    f = ir6 * ir2;
    e = ir6 - 1.0f;
}

#pragma cp composite
__global__ void forces(const float *r2s, float *force, float *energy, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f, e;
    lj(r2s[i], f, e);
    force[i] += f;
    energy[i] += e;
}
