// A helper's reference and pointer out-parameters spelled through typedefs (`real_t &`,
// `typedef real_t &real_ref`, `typedef real_t *real_ptr`): each converts to what it
// stands for (cp_float &, cp_float *), the typedef's name replaced by the composite type
// and what the typedef hides written after it (before: `real_t &f` was left float, an
// internal error, and `real_ref f` became a cp_float passed by value). A float kernel
// calls both helpers too, so they keep their float originals beside their copies.
typedef float real_t;
typedef real_t &real_ref;
typedef real_t *real_ptr;

__device__ void lj(real_t r2, real_ref f, real_t &e)
{
    real_t ir2 = 1.0f / r2;
    real_t ir6 = ir2 * ir2 * ir2;
    f = ir6 * ir2;
    e = ir6 - 1.0f;
}

__device__ void halve(real_ptr p)
{
    *p = *p * 0.5f;
}

__global__ void plain(const float *r2s, float *force)
{
    float f, e;
    lj(r2s[threadIdx.x], f, e);
    halve(&f);
    force[threadIdx.x] = f + e;
}

#pragma cp composite
__global__ void forces(const float *r2s, float *force, float *energy, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f, e;
    lj(r2s[i], f, e);
    halve(&f);
    force[i] += f;
    energy[i] += e;
}
