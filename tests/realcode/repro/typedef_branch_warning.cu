// Found in the textbook program (atomic_cas.h): an #ifdef DOUBLE_PRECISION branch inside a
// converted function, the usual shape of a code with a `real` typedef switch.
// Today: exit 0 with
//   typedef_branch_warning.cu:18:1: warning: this preprocessor branch of 'k' was not taken,
//   so it is not converted and stays float; convert with the -D options that select it
//   to use it
// The branch is the double build, which is never converted. For the lead to decide: keep
// (it is true), or stay quiet for branches whose condition selects the double typedef.
#ifdef DOUBLE_PRECISION
typedef double real;
#else
typedef float real;
#endif

#pragma cp composite
__global__ void k(const real *x, real *out)
{
#ifdef DOUBLE_PRECISION
  out[0] = x[0] * 2.0;
#else
  out[0] = x[0] * 2.0f;
#endif
}
