// The factor the kernel applies, in a header so that editing it re-converts scale.cu.
#define SCALE_FACTOR 3.0f
