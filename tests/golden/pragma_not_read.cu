// Annotations cpconvert does not read leave their functions float, each with a warning.
#define N 64

#if 0
#pragma cp composite
__global__ void skipped(float *x) { x[0] *= 2.0f; }
#endif

_Pragma("cp composite")
__global__ void operator_form(float *x) { x[0] *= 2.0f; }

#pragma CP composite
__global__ void upper_case(float *x) { x[0] *= 2.0f; }

#pragma cpp composite
__global__ void cpp(float *x) { x[0] *= 2.0f; }

#pragma GCC diagnostic push
__global__ void other_pragma(float *x) { x[0] *= 2.0f; }
#pragma GCC diagnostic pop

#pragma cp composite
__global__ void read(float *x) { x[0] *= 2.0f; }
