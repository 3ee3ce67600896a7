// Converts only with the flags its target compiles with (derive/CMakeLists.txt): the
// other branches stop the parser, and nvcc, at an #error.
#if !defined(FROM_CUDA_FLAGS) || !defined(FROM_CONFIG_FLAGS) || !defined(FROM_TARGET_OPTIONS)
#error "a flag of the build (CMAKE_CUDA_FLAGS[_RELEASE], a compile option) is missing"
#elif __cplusplus != 201402L
#error "the target's CUDA_STANDARD 14 is not the standard"
#else
#pragma cp composite
__global__ void scale_selected(float *x, float a)
{
  x[threadIdx.x] *= a;
}
#endif
