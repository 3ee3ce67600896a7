/* dispatch_paper.c - the generic names under CP_ALGO = CP_ALGO_PAPER (see dispatch_impl.h). */
#define CP_ALGO CP_ALGO_PAPER
#include "cp/cp.cuh"

#define DISPATCH_FN dispatch_check_paper
#define DISPATCH_FAMILY(op) cp_paper_##op
int DISPATCH_FN(const char **name);
#include "dispatch_impl.h"
