/* header_error.c - compiled only by ctest with options the header must refuse
 * (-DCP_ALGO=7, -ffast-math); the test passes when the compiler prints the #error. */
#include "cp/cp.cuh"
int main(void) { return 0; }
