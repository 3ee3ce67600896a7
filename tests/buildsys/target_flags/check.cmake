# cmake -DFILE=... -P check.cmake: the conversion took the target's branch.
file(READ "${FILE}" text)
string(FIND "${text}" "cp_mul_cf(" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${FILE}: the CP_TEST_SELECT branch did not convert:\n${text}")
endif()
message(STATUS "PASS")
