// A device template in a header, called from a converted instance in main.cu: with
// --o-dir its float instance converts into the header's copy (template-instance), as a
// plain helper there does (auto-convert); its double instance stays.
template <class T>
__device__ inline int escape_steps(T x0, T y0, int limit) {
  T x = x0, y = y0;
  int k = 0;
  while (x * x + y * y < T(4) && k < limit) {
    T t = x * x - y * y + x0;
    y = 2 * x * y + y0;
    x = t;
    k++;
  }
  return k;
}
