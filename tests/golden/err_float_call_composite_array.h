// A device helper in a header that a golden converts without --o-dir
// (err_float_call_composite_array.cu).
__device__ inline float lane_read(float v, int from, volatile float *buf)
{
  buf[threadIdx.x] = v;
  return buf[(threadIdx.x & ~31) + from];
}
