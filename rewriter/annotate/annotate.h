/*
 * annotate.h: what the files of annotate/ share: the tokens of a unit's text and the
 * pragma lexer over them (pragma.c), the preprocessor branches (branch.c), and the
 * functions found so far (annotate.c, for helper.c).
 */
#ifndef CPCONVERT_ANNOTATE_H
#define CPCONVERT_ANNOTATE_H

#include "internal.h"

typedef struct {
  const char *s;
  unsigned offset;
} token;

typedef struct {
  token *t;
  unsigned n, i;
  unsigned end_offset; /* offset just past the pragma's logical line */
  const cp_unit *u;    /* the unit whose text it reads */
} pragma_lexer;

/* ---- pragma.c ----------------------------------------------------------------------- */

/* Offset of the end of the logical line that starts at `offset` (backslash-newline
 * continues it). */
unsigned cp_logical_line_end(const cp_options *opt, unsigned offset);
/* Parses one pragma starting at lx->i (the `#`); returns 0 or -1 after a diagnostic. */
int cp_parse_pragma(cp_run *run, pragma_lexer *lx, cp_pragma *pr);
/* Whether `offset` lies in one of the preprocessor's skipped ranges. */
int cp_in_skipped_range(const CXSourceRangeList *skipped, unsigned offset);
/* Unit u's tokens as (spelling, offset) pairs, comments left out. */
token *cp_tokenize_main(cp_run *run, const cp_unit *u, unsigned *count);
/* Whether only blanks stand before `offset` on its line. */
int cp_starts_line(const cp_options *opt, unsigned offset);
/* Whether a header's text holds a `#pragma cp` line; its line and column if so. */
int cp_find_cp_pragma(const char *text, size_t len, unsigned *line, size_t *b_out, size_t *e_out);
/* Warnings for a misspelt `#pragma` (t[i] its first word) and for `_Pragma("cp ...")`. */
void cp_warn_near_miss(cp_run *run, const cp_unit *u, const token *t, unsigned nt, unsigned i,
                       unsigned end);
void cp_warn_operator_pragma(cp_run *run, const cp_unit *u, const token *t, unsigned nt,
                             unsigned i);

/* ---- branch.c ----------------------------------------------------------------------- */

/* Whether the untaken branch at `b` belongs to a conditional on __CUDA_ARCH__. */
int cp_arch_branch(const char *t, unsigned b, unsigned len);
/* Warnings at the untaken preprocessor branches of the functions of unit u found since
 * function `first`. */
void cp_warn_skipped_branches(cp_run *run, const cp_unit *u, unsigned first,
                              const CXSourceRangeList *skipped);

/* ---- annotate.c --------------------------------------------------------------------- */

/* The definition a call calls (a function template's for an instance of it). */
CXCursor cp_callee_definition(CXCursor call);
int cp_is_function_definition(CXCursor c);
/* Adds function `fn` of unit u to the run, marked by `pr` (NULL: none). */
cp_func *cp_add_func(cp_run *run, cp_unit *u, CXCursor fn, const cp_pragma *pr);
/* Whether a function template has a type parameter (it converts instance by instance). */
int cp_per_instance(CXCursor fn);
/* The name of an instance's copy (axpy_cp_float_4); NULL if an argument cannot be written. */
const char *cp_instance_name(cp_run *run, CXCursor inst);
void cp_unwritable_instance(cp_run *run, const cp_unit *u, CXCursor call, CXCursor inst);
/* Whether an instance computes in float: a type argument is float or floatN. */
int cp_float_instance(CXCursor inst);

#endif
