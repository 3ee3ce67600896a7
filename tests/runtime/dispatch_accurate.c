/* dispatch_accurate.c - the generic names under CP_ALGO = CP_ALGO_ACCURATE (see dispatch_impl.h). */
#define CP_ALGO CP_ALGO_ACCURATE
#include "cp/cp.cuh"

#define DISPATCH_FN dispatch_check_accurate
#define DISPATCH_FAMILY(op) cp_accurate_##op
int DISPATCH_FN(const char **name);
#include "dispatch_impl.h"
