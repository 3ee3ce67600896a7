/*
 * analyse.h: what the files of analyse/ share beyond internal.h.
 */
#ifndef CPCONVERT_ANALYSE_H
#define CPCONVERT_ANALYSE_H

#include "internal.h"

/* variables.c: the analysis' first pass: the run's struct fields and file-scope pointers,
 * every converted function's variables and precision, clauses checked and applied, the
 * pairing groups created (each its own) and those pair() and --pair name marked paired. */
void cp_collect_variables(cp_run *run);
/* variables.c: the field or file-scope pointer `decl` declares (run->structs: one per
 * USR); NULL if none. */
cp_var *cp_struct_var(cp_run *run, CXCursor decl);

/* members.c: the struct locals of `f` with float members, as variables (is_record). */
void cp_collect_records(cp_run *run, cp_func *f);
/* members.c: after the accumulators are known: which of them pair (CP_VAR_PAIRED), the
 * others stay float, with a warning where a wanted one is used whole. */
void cp_settle_records(cp_run *run, cp_func *f);

/* dynshared.c: every converted declaration of one `extern __shared__ T name[]` of a file
 * composite where one is; one in a function that is not converted is refused. */
void cp_agree_dynamic_shared(cp_run *run);

#endif
