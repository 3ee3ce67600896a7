// A host wrapper defined in integrate.cu and called from main.cu: its prototype here
// gains the companion parameter with its definition, so this header is written too; so
// does the prototype of a reader (total) that converted host code calls with the buffer.
#ifndef INTEGRATE_H
#define INTEGRATE_H

void drift(float *x, const float *v, float dt, int n);
void reset(float *x, int n);
double total(const float *x, int n);

#endif
