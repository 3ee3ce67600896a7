// profile_host.cpp - the profile's runtime in a host C++ file (a converted Solver.cpp beside
// Solver.cu), warnings as errors: its table registers through a static object's constructor,
// cp_prof is its argument, the host counts count. Built with and without CP_PROFILE.
#include "cp/cp.cuh"

#include <cstdio>

CP_PROFILE_TABLE(cp_prof_solver_00c0ffee,
  "\"kind\":\"input\",\"file\":\"Solver.cpp\",\"line\":3,\"function\":\"setup\",\"name\":\"d_x\"",
  "\"kind\":\"var\",\"file\":\"Solver.cpp\",\"line\":4,\"function\":\"f\",\"name\":\"a\"")

int main()
{
  cp_float a = cp_prof(cp_prof_solver_00c0ffee, 1, cp_from_float(2.0f));
  cp_prof_count(cp_prof_solver_00c0ffee, 0, 64);
  bool ok = cp_to_float(a) == 2.0f;
#if defined(CP_PROFILE)
  ok = ok && cp_detail_prof_state.head == &cp_prof_solver_00c0ffee_unit &&
       cp_prof_solver_00c0ffee_unit.n == 2 && cp_prof_solver_00c0ffee_host[0].count == 1 &&
       cp_prof_solver_00c0ffee_host[0].bytes == 64 && cp_detail_prof_state.armed;
#endif
  ok = ok && cp_profile_write(nullptr) == 0; // CP_PROFILE_OUT= (the test's): nothing written
  std::printf("profile host check: %s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
