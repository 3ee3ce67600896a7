// A keep() variable's address may go to a float * parameter that only float addresses
// reach (split1), not to one that converts because another call passes a composite's
// address (split2: the parameter becomes cp_float *). Refused at that argument.
#pragma cp composite
__device__ void split1(float a, float *o1, float *o2) {
  *o1 = a * 0.5f;
  *o2 = a;
}

#pragma cp composite
__device__ void split2(float a, float *o1, float *o2) {
  *o1 = a * 0.5f;
  *o2 = a;
}

#pragma cp composite keep(t)
__global__ void caller(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t = 0.0f;
  float u = 0.0f;
  split1(in[i], &t, &u);
  split2(in[i], &t, &u);
  float v = 0.0f;
  float w = 0.0f;
  split2(t, &v, &w);
  out[i] = u + v + w;
}
