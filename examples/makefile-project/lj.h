// Lennard-Jones parameters (reduced units), shared by the kernels that evaluate the
// potential. Only forces.cu includes this file: editing it re-converts forces.cu alone.
#ifndef LJ_H
#define LJ_H

#define LJ_CUTOFF 2.5f
#define LJ_EPSILON 1.0f

#endif
