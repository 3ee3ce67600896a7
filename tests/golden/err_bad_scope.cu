// scope() takes all or accumulators.
#pragma cp composite scope(everything)
__global__ void k(float *x) { x[0] += 1.0f; }
