// --algo paper selects the Saponaro/Taufer algorithms in the output's header.
__global__ void copy(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }
