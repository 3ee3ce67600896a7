// A conversion without TARGET whose first source is main.cu, as app4's twin's is.
#pragma cp composite
__global__ void scale_app4(float *x, float a) { x[threadIdx.x] *= a; }
