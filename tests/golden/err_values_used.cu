// Values the converted code cannot provide: a postfix ++ whose old value is used, the old
// value returned by an atomicAdd into a paired buffer, the value of a paired store.
#pragma cp composite
__global__ void k(float *total, float *y) {
  float v = y[0];
  float before = v++;
  float old = atomicAdd(total, v);
  float z = (y[1] = before + old);
}
