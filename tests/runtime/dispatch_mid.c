/* dispatch_mid.c - the generic names under CP_ALGO = CP_ALGO_MID (see dispatch_impl.h). */
#define CP_ALGO CP_ALGO_MID
#include "cp/cp.cuh"

#define DISPATCH_FN dispatch_check_mid
#define DISPATCH_FAMILY(op) cp_mid_##op
int DISPATCH_FN(const char **name);
#include "dispatch_impl.h"
