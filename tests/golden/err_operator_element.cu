// A compound operator function on float3 applied to an element of a paired buffer
// (`vel[i] += a`, helper_math.h's operator+=(float3 &, float3)): the converted operator
// takes a cp_float3 &, which a buffer element cannot bind to; refused with what to write.
inline __host__ __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
#pragma cp composite
__global__ void kick(float3 *vel, const float3 *force, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    vel[i] += force[i];
}
