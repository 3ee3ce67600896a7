/*
 * run.c: the tables of a conversion run, which every stage reads: its files (units),
 * its converted functions with their variables, the identity of declarations across
 * translation units (USRs), and the edits that count as one application of a rule.
 *
 * Stages fill these tables (annotate.c adds functions, variables.c variables) and every
 * stage looks them up; kept here, below all stages, they let each stage call only
 * downwards (before, annotate.c called convert.c for them, and accum.c analyse.c). Functions are found by cursor through a hash index, and by USR when the run
 * has several translation units (a kernel launched from another file).
 */
#include <string.h>

#include "internal.h"

const char *cp_usr(cp_run *run, CXCursor c) {
  CXString s = clang_getCursorUSR(c);
  const char *u = cp_arena_strdup(run->r->arena, clang_getCString(s));
  clang_disposeString(s);
  return u;
}

cp_unit *cp_unit_new(cp_run *run) {
  if (run->n_units == run->cap_units) {
    run->cap_units = run->cap_units ? 2 * run->cap_units : 8;
    run->units = cp_arena_grow(run->r->arena, run->units, run->n_units, run->cap_units,
                               sizeof *run->units);
  }
  cp_unit *u = cp_arena_alloc(run->r->arena, sizeof *u);
  memset(u, 0, sizeof *u);
  run->units[run->n_units++] = u;
  return u;
}

/* Whether header unit `u` is `file`: the same file on disk (a header reached through
 * different include paths, or named on the command line another way, is one unit). */
static int header_is(const cp_unit *u, CXTranslationUnit tu, CXFile file) {
  CXFile mine = u->p.tu ? u->p.main_file : clang_getFile(tu, u->opt.input);
  CXFileUniqueID a, b;
  if (!mine || clang_getFileUniqueID(mine, &a) != 0 || clang_getFileUniqueID(file, &b) != 0)
    return 0;
  return memcmp(&a, &b, sizeof a) == 0;
}

/* A header unit parses nothing: its cursors, tokens and text come from the translation
 * unit that first reached it, with the header as its "main file". A header named on the
 * command line takes the parser's path, so its output lands where it would have
 * unnamed, however the user spelled it. */
static cp_unit *claim_header(cp_run *run, cp_unit *u, CXTranslationUnit tu, CXFile file) {
  if (!u->p.tu) {
    u->p = (cp_parse){.tu = tu, .main_file = file};
    u->opt.input = cp_file_name(run, tu, file);
  }
  return u;
}

cp_unit *cp_unit_for_file(cp_run *run, CXTranslationUnit tu, CXFile file) {
  for (unsigned i = 0; i < run->n_inputs; i++)
    if (run->units[i]->p.tu == tu && clang_File_isEqual(run->units[i]->p.main_file, file))
      return run->units[i];
  const char *path = cp_file_name(run, tu, file);
  for (unsigned i = 0; i < run->n_units; i++) /* an input seen from another unit, a header */
    if (strcmp(run->units[i]->opt.input, path) == 0 ||
        (run->units[i]->is_header && header_is(run->units[i], tu, file)))
      return run->units[i]->is_header ? claim_header(run, run->units[i], tu, file) : run->units[i];
  if (!run->units[0]->opt.edit_headers)
    return NULL;
  cp_unit *u = cp_unit_new(run);
  u->p = (cp_parse){.tu = tu, .main_file = file};
  size_t size = 0;
  const char *text = clang_getFileContents(tu, file, &size);
  u->opt = run->units[0]->opt;
  u->opt.input = path;
  u->opt.input_text = cp_arena_strndup(run->r->arena, text ? text : "", text ? size : 0);
  u->opt.input_len = text ? size : 0;
  u->is_header = 1;
  return u;
}

/* funcs is looked up once per call and per declaration: a hash index on the cursor keeps
 * that constant, where a scan made a file of n kernels cost n^2. Twice as many slots as
 * functions, open addressing. */
static void index_func(cp_run *run, unsigned i) {
  unsigned mask = 2 * run->cap_funcs - 1, h = clang_hashCursor(run->funcs[i].cursor) & mask;
  while (run->func_slots[h])
    h = (h + 1) & mask;
  run->func_slots[h] = i + 1;
}

int cp_in_unit(const cp_unit *u, CXCursor c) {
  CXFile file = NULL;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
  return file && clang_File_isEqual(file, u->p.main_file);
}

cp_func *cp_func_add(cp_run *run, cp_unit *u, CXCursor fn) {
  if (run->n_funcs == run->cap_funcs) {
    run->cap_funcs = run->cap_funcs ? 2 * run->cap_funcs : 32;
    run->funcs = cp_arena_grow(run->r->arena, run->funcs, run->n_funcs, run->cap_funcs,
                               sizeof *run->funcs);
    run->func_slots = cp_arena_alloc(run->r->arena, 2 * run->cap_funcs * sizeof *run->func_slots);
    memset(run->func_slots, 0, 2 * run->cap_funcs * sizeof *run->func_slots);
    for (unsigned i = 0; i < run->n_funcs; i++)
      index_func(run, i);
  }
  cp_func *f = &run->funcs[run->n_funcs++];
  memset(f, 0, sizeof *f);
  f->cursor = fn;
  index_func(run, run->n_funcs - 1);
  f->unit = u;
  f->usr = cp_usr(run, fn);
  f->name = cp_cursor_spelling(run->r->arena, fn);
  return f;
}

/* The function defined by `decl`'s definition, from the hash index; NULL if none. */
static cp_func *func_at(cp_run *run, CXCursor decl) {
  CXCursor def = clang_getCursorDefinition(decl);
  if (clang_Cursor_isNull(def) || !run->n_funcs)
    return NULL;
  unsigned mask = 2 * run->cap_funcs - 1;
  for (unsigned h = clang_hashCursor(def) & mask; run->func_slots[h]; h = (h + 1) & mask)
    if (clang_equalCursors(run->funcs[run->func_slots[h] - 1].cursor, def))
      return &run->funcs[run->func_slots[h] - 1];
  return NULL;
}

cp_func *cp_func_of(cp_run *run, CXCursor decl) {
  enum CXCursorKind k = clang_getCursorKind(decl);
  if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate && k != CXCursor_CXXMethod &&
      k != CXCursor_Constructor && k != CXCursor_Destructor)
    return NULL;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
  if (!clang_Cursor_isNull(tmpl)) { /* kern<2, true>: an instance of the template kern */
    cp_func *inst = func_at(run, decl); /* converted one instance at a time (annotate.c) */
    if (inst)
      return inst;
    decl = tmpl;
  }
  cp_func *f = func_at(run, decl);
  if (f)
    return f;
  if (run->n_inputs < 2)
    return NULL;
  /* defined in another translation unit of the run (a kernel launched from another file) */
  const char *usr = cp_usr(run, decl);
  for (unsigned i = 0; i < run->n_funcs; i++)
    if (strcmp(run->funcs[i].usr, usr) == 0)
      return &run->funcs[i];
  return NULL;
}

/* Enters variable i of `f` in its hash index (as index_func does for functions): every
 * reference to a variable looks it up, and a scan made a function with 20 000 float
 * locals take 7 s, one with 100 000 278 s. */
static void index_var(cp_func *f, unsigned i) {
  unsigned mask = 2 * f->cap_vars - 1, h = clang_hashCursor(f->vars[i].decl) & mask;
  while (f->var_slots[h])
    h = (h + 1) & mask;
  f->var_slots[h] = i + 1;
}

cp_var *cp_var_add(cp_run *run, cp_func *f, CXCursor decl) {
  if (f->n_vars == f->cap_vars) {
    f->cap_vars = f->cap_vars ? 2 * f->cap_vars : 16;
    f->vars = cp_arena_grow(run->r->arena, f->vars, f->n_vars, f->cap_vars, sizeof *f->vars);
    f->var_slots = cp_arena_alloc(run->r->arena, 2 * f->cap_vars * sizeof *f->var_slots);
    memset(f->var_slots, 0, 2 * f->cap_vars * sizeof *f->var_slots);
    for (unsigned i = 0; i < f->n_vars; i++)
      index_var(f, i);
  }
  cp_var *v = &f->vars[f->n_vars++];
  memset(v, 0, sizeof *v);
  v->decl = decl;
  index_var(f, f->n_vars - 1);
  return v;
}

cp_var *cp_var_of(cp_func *f, CXCursor decl) {
  if (clang_Cursor_isNull(decl) || !f->n_vars)
    return NULL;
  unsigned mask = 2 * f->cap_vars - 1;
  for (unsigned h = clang_hashCursor(decl) & mask; f->var_slots[h]; h = (h + 1) & mask)
    if (clang_equalCursors(f->vars[f->var_slots[h] - 1].decl, decl))
      return &f->vars[f->var_slots[h] - 1];
  return NULL;
}

void cp_apply_edit(cp_run *run, cp_edit_list *edits, size_t offset, size_t length, const char *text,
                   cp_rule rule) {
  cp_edit_add(run->r->arena, edits, offset, length, text, rule);
  run->r->applied[rule]++;
}

int cp_apply_insert_once(cp_run *run, cp_edit_list *edits, size_t offset, const char *text,
                         cp_rule rule) {
  for (size_t i = 0; i < edits->count; i++)
    if (edits->items[i].offset == offset && !edits->items[i].length &&
        strcmp(edits->items[i].text, text) == 0)
      return 0;
  cp_apply_edit(run, edits, offset, 0, text, rule);
  return 1;
}

cp_edit_list *cp_func_edits(cp_func *f) {
  return f->twin_edits ? f->twin_edits : &f->unit->edits;
}
