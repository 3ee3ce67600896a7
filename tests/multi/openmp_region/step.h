/* The wrapper main.cu calls from inside an OpenMP parallel region. */
void step_cuda(float *out, const float *in, int n);
