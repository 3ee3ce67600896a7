// A variable kept in float that shares its declaration with ones that turn composite: the
// declaration is split where the type changes, each part with the declaration's own
// specifiers, in order (an initializer still sees the names before it).
#pragma cp composite keep(left, z)
__global__ void k(const float *T, float *dT) {
  int i = threadIdx.x;
  float up, down, left,
        right, cen;
  const float a = 1.0f, z = a * 2, b = z + a;
  cen = T[i]; up = T[i + 1]; down = T[i + 2]; right = T[i + 3]; left = T[i + 4];
  dT[i] = (up + down + left + right - 4 * cen) * b;
}
