// A struct in a header: cpconvert converts one file and leaves headers untouched.
struct Atoms {
  float4 *pos;
  float *energy;
  int n;
};
