/* parse_util.c: the unit tests' libclang helpers (parse_util.h). */
#include "parse_util.h"

#include <check.h>
#include <string.h>

void ut_parse(ut_code *c, const char *text) {
  memset(c, 0, sizeof *c);
  c->text = text;
  c->arena = cp_arena_new();
  c->index = clang_createIndex(0, 0);
  struct CXUnsavedFile file = {"t.cpp", text, strlen(text)};
  const char *args[] = {"-x", "c++", "-std=c++17"};
  ck_assert_int_eq(clang_parseTranslationUnit2(c->index, "t.cpp", args, 3, &file, 1,
                                               CXTranslationUnit_DetailedPreprocessingRecord,
                                               &c->tu),
                   CXError_Success);
  cp_macros_collect(c->arena, c->tu, clang_getFile(c->tu, "t.cpp"), &c->macros);
}

void ut_close(ut_code *c) {
  clang_disposeTranslationUnit(c->tu);
  clang_disposeIndex(c->index);
  cp_arena_free(c->arena);
}

typedef struct {
  const char *name;
  CXCursor found;
} lookup;

static enum CXChildVisitResult find_decl(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  lookup *l = data;
  if (!clang_isDeclaration(clang_getCursorKind(c)))
    return CXChildVisit_Recurse;
  CXString s = clang_getCursorSpelling(c);
  int hit = strcmp(clang_getCString(s), l->name) == 0;
  clang_disposeString(s);
  if (!hit)
    return CXChildVisit_Recurse;
  l->found = c;
  return CXChildVisit_Break;
}

CXCursor ut_decl(CXCursor scope, const char *name) {
  lookup l = {name, clang_getNullCursor()};
  clang_visitChildren(scope, find_decl, &l);
  return l.found;
}

CXCursor ut_named(const ut_code *c, const char *name) {
  return ut_decl(clang_getTranslationUnitCursor(c->tu), name);
}

cp_node *ut_tree(ut_code *c, const char *name) {
  CXCursor fn = ut_named(c, name);
  ck_assert_msg(!clang_Cursor_isNull(fn), "no declaration '%s'", name);
  CXCursor def = clang_getCursorDefinition(fn);
  if (!clang_Cursor_isNull(def))
    fn = def;
  cp_node *root = cp_tree_build(c->arena, fn, &c->macros);
  ck_assert_ptr_nonnull(root);
  return root;
}

const char *ut_text(const ut_code *c, const cp_node *n) {
  return cp_arena_strndup(c->arena, c->text + n->begin, n->end - n->begin);
}
