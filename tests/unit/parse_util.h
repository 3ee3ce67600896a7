/* parse_util.h: what the unit tests share to read code with libclang: one in-memory file
 * parsed as plain C++17 (no CUDA headers needed), a declaration found by name, the
 * rewriter's node tree over a function, the text a node spans. */
#ifndef CPCONVERT_TEST_PARSE_UTIL_H
#define CPCONVERT_TEST_PARSE_UTIL_H

#include "internal.h"

typedef struct {
  const char *text; /* the source parsed, as the file t.cpp */
  cp_arena *arena;
  CXIndex index;
  CXTranslationUnit tu;
  cp_macros macros; /* its macro expansions, which cp_tree_build marks */
} ut_code;

/* Parses `text` (which must outlive `c`) and collects its macro expansions; the test
 * fails if libclang makes no translation unit. */
void ut_parse(ut_code *c, const char *text);
void ut_close(ut_code *c);
/* The first declaration named `name` inside `scope`, at any depth, in source order (a
 * function of the file, a parameter or local of a function, a field of a struct); a null
 * cursor if none. */
CXCursor ut_decl(CXCursor scope, const char *name);
/* The same over the whole file. */
CXCursor ut_named(const ut_code *c, const char *name);
/* The node tree of the function `name`, over its definition where it has one (the test
 * fails if there is no such declaration). */
cp_node *ut_tree(ut_code *c, const char *name);
/* The source text a node spans, in the arena. */
const char *ut_text(const ut_code *c, const cp_node *n);

#endif
