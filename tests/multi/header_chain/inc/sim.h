// Reaches atom.h for the inputs and changes nothing itself: it is written too, so that
// the output tree's sim.h includes the converted atom.h beside it, not the input's.
#ifndef SIM_H
#define SIM_H
#include "atom.h"
void launch_move(Atom a);
#endif
