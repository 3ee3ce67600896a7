// A host wrapper's prototype, seen by every file that calls it.
void scale_all(float *x, float s, int n);
