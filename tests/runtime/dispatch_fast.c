/* dispatch_fast.c - the generic names under CP_ALGO = CP_ALGO_FAST (see dispatch_impl.h). */
#define CP_ALGO CP_ALGO_FAST
#include "cp/cp.cuh"

#define DISPATCH_FN dispatch_check_fast
#define DISPATCH_FAMILY(op) cp_fast_##op
int DISPATCH_FN(const char **name);
#include "dispatch_impl.h"
