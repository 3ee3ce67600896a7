// Calls that pass keep() variables (by address, or bound to a float &) where a helper's
// parameters convert, and composites only as values, go to the helper's float original,
// which is then kept beside the converted copy although no float function calls it;
// the composite values are recombined there (a warning at each such call).
__device__ void scale(float *q, float k)
{
    *q = *q * k;
}

__device__ void interp(float r, float &f)
{
    f = r * r;
}

#pragma cp composite keep(q, g)
__global__ void kern(const float *in, float *out)
{
    float s = in[threadIdx.x];
    float q = 2.0f;
    float g;
    scale(&q, s);
    scale(&s, 3.0f);
    interp(s, g);
    interp(q, s);
    s = s * q + g;
    out[threadIdx.x] = s;
}
