// A conversion without TARGET whose first source is main.cu, as app3's twin's is.
#pragma cp composite
__global__ void scale_app3(float *x, float a) { x[threadIdx.x] *= a; }
