// A preprocessor branch of a converted function that was not taken stays as it is, with
// a warning, unless it is the double side of a precision switch: it names double (the
// type, a literal like 2.0, sqrt, __double_as_longlong) and no float token (float, 2.0f,
// sqrtf). So k, the usual `real` typedef code, is quiet; scaled, whose other branch is
// float code, warns. CUDA's min and max take float and double alike: a branch naming only
// them (clamped) is float code too, and warns (it was taken for a double branch).
#ifdef DOUBLE_PRECISION
typedef double real;
#else
typedef float real;
#endif

#pragma cp composite
__global__ void k(const real *x, real *out)
{
#ifdef DOUBLE_PRECISION
  out[0] = sqrt(x[0]) * 2.0; // a float in a comment is not a float token
#else
  out[0] = x[0] * 2.0f;
#endif
}

#pragma cp composite
__global__ void scaled(const float *x, float *out)
{
#ifdef FAST_SCALE
  out[0] = __fdividef(x[0], 3.0);
#else
  out[0] = x[0] / 3.0f;
#endif
}

#pragma cp composite
__global__ void clamped(const float *x, float *out)
{
#ifdef CLAMP
  out[0] = max(x[0], 0);
#else
  out[0] = x[0] + 1.0f;
#endif
}
