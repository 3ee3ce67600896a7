// A keep() variable's address passed to a helper cpconvert converts on its own, which a
// float kernel calls too: its float original stays beside the converted copy, and the
// call with the kept variable goes to the original, the one with a composite's address
// to the copy (before: refused, as if no float version existed).
__device__ void scale(float *q)
{
    *q = *q * 0.5f;
}

__global__ void plain(float *out)
{
    float q = out[threadIdx.x];
    scale(&q);
    out[threadIdx.x] = q;
}

#pragma cp composite keep(q)
__global__ void kern(const float *in, float *out)
{
    float s = in[threadIdx.x];
    float q = 2.0f;
    scale(&q);
    scale(&s);
    s = s * q;
    out[threadIdx.x] = s;
}
