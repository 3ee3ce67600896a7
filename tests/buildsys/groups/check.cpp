// Compiled in each program: the converted particles.h comes first on the include path
// (include/ is also there, with the original, which has no x_err).
#include "particles.h"

int main() {
  Particles p;
  p.x_err = nullptr;
  return p.x_err != nullptr;
}
