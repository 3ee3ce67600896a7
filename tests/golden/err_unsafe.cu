// Code cpconvert cannot convert safely is refused at its place: inline assembly on a
// converted variable, the address of a composite that escapes.
#pragma cp composite
__global__ void k(float *y) {
  float v = y[0];
  asm("add.f32 %0, %0, %1;" : "+f"(v) : "f"(1.0f));
  float *p = &v;
  y[0] = v + *p;
}
