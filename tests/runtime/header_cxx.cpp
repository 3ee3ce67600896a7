// header_cxx.cpp - the runtime header compiles as C++ (warnings are errors for this file),
// and a few results match the C build's. Built twice: ff (default) and dp (forced).
#include "cp/cp.cuh"

#include <cstdio>

int main()
{
  cp_float q = cp_div(cp_from_float(1.0f), cp_from_float(3.0f));
  cp_double d = cp_dd_sqrt(cp_dd_from_double(2.0));
  cp_fixed f = cp_fixed_from_cp(q);
  float qv, qe; // the stored pair: the same under both backends (runtime_header_cxx_dp)
  cp_store(&qv, &qe, q);
  bool ok = qv == 0x1.555556p-2f && qe == -0x1.555556p-27f && d.hi == 0x1.6a09e667f3bcdp+0 &&
            cp_lt(q, cp_from_float(0.34f)) && cp_fixed_to_double(f) > 0.333 && cp_to_int(q) == 0;
  std::printf("C++ header check: %s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
