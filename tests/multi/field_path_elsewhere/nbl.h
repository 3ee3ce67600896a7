#pragma once
#include "types.h"

void init_nbl(Nbl *n, int count);
void free_nbl(Nbl *n);
