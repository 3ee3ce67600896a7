// Lennard-Jones parameters (reduced units). Of the kernel files only forces.cu includes
// this file, so editing it re-converts forces.cu alone (reference.cpp includes it too).
#ifndef LJ_H
#define LJ_H

#define LJ_CUTOFF 2.5f
#define LJ_EPSILON 1.0f

#endif
