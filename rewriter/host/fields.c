/*
 * fields.c: companions of paired pointer fields and file-scope pointers, at their
 * declarations.
 *
 * A struct field or file-scope pointer that a converted kernel's buffer is paired with
 * gets its companion beside every declaration the run can edit (a header included by
 * several inputs gets it once); a declaration in a file the run does not write is an error
 * that says what to add there.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "host.h"

/* Whether the struct of `field` already has a field called `name` (added by hand). */
static int struct_has_field(CXCursor field, const char *name) {
  CXCursor rec = clang_getCursorSemanticParent(field);
  return clang_Type_getOffsetOf(clang_getCursorType(rec), name) >= 0;
}

/* A diagnostic at a declaration site, in whichever file it is (an input or a header). */
static void site_error(cp_run *run, const cp_site *site, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void site_error(cp_run *run, const cp_site *site, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cp_diag_cursor(run, CP_ERROR, site->unit->p.tu, site->decl, "%s [%s]", msg,
                 cp_rule_name(CP_RULE_HOST_PAIR));
}

/* Whether `field` is the first field of its struct that gains a companion (the note on
 * the struct's new layout is said once). */
static int first_paired_field(cp_run *run, CXCursor field) {
  CXCursor fields[64];
  unsigned n = cp_record_fields(clang_getCursorType(clang_getCursorSemanticParent(field)),
                                fields, 64);
  for (unsigned i = 0; i < n; i++) {
    const cp_var *f = cp_field_var(run, fields[i]);
    if (f && f->role == CP_VAR_PAIRED && !f->external)
      return clang_equalCursors(fields[i], field);
  }
  return 0;
}

/* The companion declared at one site: the next line after the declaration, in its unit. */
static void declare_at_site(cp_run *run, const cp_var *v, const cp_site *site, const char *type,
                            const char *err) {
  CXFile file;
  unsigned b, end;
  CXSourceRange ext = clang_getCursorExtent(site->decl);
  clang_getExpansionLocation(clang_getRangeStart(ext), &file, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &end);
  cp_unit *u = cp_unit_for_file(run, site->unit->p.tu, file);
  const char *sep = type[strlen(type) - 1] == '*' ? "" : " ";
  int is_extern = !v->is_field && clang_Cursor_getStorageClass(site->decl) == CX_SC_Extern;
  if (!u) {
    site_error(run, site, "%s '%s' is paired, but it is declared outside the converted file: "
               "add '%s%s%s%s;' after it here, then convert again (or convert with --o-dir, "
               "which writes this file converted, or name it with --pair)", v->is_field ? "field" : "pointer",
               v->name, is_extern ? "extern " : "", type, sep, err);
    return;
  }
  host h;
  memset(&h, 0, sizeof h);
  h.run = run;
  h.u = u;
  h.f = &run->structs;
  const char *t = text(&h);
  unsigned semi = end;
  while (semi < u->opt.input_len && t[semi] != ';')
    semi++;
  unsigned at = cp_host_line_insert_point(&h, semi < u->opt.input_len ? semi + 1 : end);
  const char *decl = cp_host_added_text(
      &h, at, b, cp_arena_printf(run->r->arena, "%s%s%s%s%s;", is_extern ? "extern " : "", type,
                                 sep, err, v->is_field || is_extern ? ""
                                           : strchr(err, '[') ? " = {}" : " = nullptr"));
  for (size_t i = 0; i < u->edits.count; i++) /* a header seen from several inputs */
    if (u->edits.items[i].offset == at && strcmp(u->edits.items[i].text, decl) == 0)
      return;
  cp_apply_edit(run, &u->edits, at, 0, decl, CP_RULE_HOST_PAIR);
  if (u->is_header && v->is_field && first_paired_field(run, site->decl))
    cp_diag_cursor(run, CP_NOTE, site->unit->p.tu, site->decl,
                   "the struct of field '%s' gains companion fields ('%s', ...) in the "
                   "converted '%s': its sizeof and layout change, so every file that uses it, "
                   "converted or not, must be built from the converted header (one built from "
                   "the original would read the struct at other offsets) [%s]", v->name, err,
                   u->opt.input, cp_rule_name(CP_RULE_HOST_PAIR));
}

/* Whether the struct type `t` declares `field`, or holds by value a struct that does
 * (SimGpu holding AtomsGpu holding NeighborListGpu holding vec_t lastR), to a depth of 4. */
static int holds_field(CXType t, CXCursor field, int depth) {
  CXCursor fields[64];
  t = clang_getCanonicalType(t);
  unsigned n = t.kind == CXType_Record && depth < 4 ? cp_record_fields(t, fields, 64) : 0;
  for (unsigned i = 0; i < n; i++)
    if (clang_equalCursors(fields[i], field) ||
        holds_field(clang_getCursorType(fields[i]), field, depth + 1))
      return 1;
  return 0;
}

/* "file:line:col" of a cursor, with the file's name as the user wrote it. */
static const char *place_of(cp_run *run, CXCursor c) {
  CXString file;
  unsigned line, col;
  clang_getPresumedLocation(clang_getCursorLocation(c), &file, &line, &col);
  const char *r = cp_arena_printf(run->r->arena, "%s:%u:%u", clang_getCString(file), line, col);
  clang_disposeString(file);
  return r;
}

/* A call in `n` (host code of the run) of a function whose body is in none of the run's
 * inputs, given a pointer to a struct that holds `field` (`initNeighborListGpu(gpu,
 * &gpu->atoms.neighborList, ...)`, defined in a file not converted): where the field's
 * buffer is most likely allocated. NULL if none. */
static const cp_node *outside_allocator(cp_run *run, const cp_node *n, CXCursor field) {
  CXCursor fn = n->kind == CXCursor_CallExpr ? cp_callee(n->cur) : clang_getNullCursor();
  int nargs = clang_Cursor_isNull(fn) ? 0 : cp_num_args(n->cur);
  int visible = 1;
  if (nargs > 0 && cp_cuda_kind(fn) == 0 &&
      !clang_Location_isInSystemHeader(clang_getCursorLocation(fn)))
    cp_param_write(run, fn, 0, &visible);
  for (int i = 0; i < nargs && !visible; i++) {
    CXType t = clang_getCanonicalType(clang_getCursorType(cp_arg(n->cur, (unsigned)i)));
    for (int k = 0; k < 2 && t.kind == CXType_Pointer; k++)
      t = clang_getCanonicalType(clang_getPointeeType(t));
    if (holds_field(t, field, 0))
      return n;
  }
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *c = outside_allocator(run, n->kids[i], field);
    if (c)
      return c;
  }
  return NULL;
}

/* For the error on a paired field that no converted file allocates: where its buffer comes
 * from, if a host function of the run hands its struct to a function defined elsewhere. */
static const char *allocated_where(cp_run *run, CXCursor field) {
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    const cp_node *call = f->is_host && f->body ? outside_allocator(run, f->body, field) : NULL;
    if (!call)
      continue;
    CXCursor fn = cp_callee(call->cur);
    return cp_arena_printf(run->r->arena,
                           "; its buffer most likely comes from '%s', which '%s' calls at %s "
                           "with the struct that holds it, declared at %s and defined in none "
                           "of the files converted in this run: convert the file that defines "
                           "it in the same run, or",
                           cp_cursor_spelling(run->r->arena, fn), f->name,
                           place_of(run, call->cur), place_of(run, fn));
  }
  return ":";
}

/* Paired pointer fields and file-scope pointers get their companion at every declaration
 * site the run can edit: a companion field on the next line of the struct (if the struct
 * has no field NAME_err yet, added by hand), a companion pointer beside the definition
 * (`= nullptr`) and beside each extern declaration (`extern`). A site in a file the run
 * does not write is an error that says what to add there. A pointer defined in no
 * converted file needs --pair; names given with --pair are trusted and left alone. */
void cp_convert_fields(cp_run *run) {
  cp_func *s = &run->structs;
  for (unsigned i = 0; i < s->n_vars; i++) {
    cp_var *v = &s->vars[i];
    /* symbols: symbol.c; an external (--pair) pointer's companion is declared elsewhere, but
     * a field's is declared in its struct, which is here */
    if (!is_paired(v) || (v->external && !v->is_field) || !v->n_sites || v->is_symbol)
      continue;
    const char *err = cp_arena_printf(run->r->arena, "%s" CP_ERR_SUFFIX, v->name);
    int defined = v->is_field;
    for (unsigned k = 0; k < v->n_sites; k++)
      defined |= clang_Cursor_getStorageClass(v->sites[k].decl) != CX_SC_Extern;
    if (!defined) {
      site_error(run, &v->sites[0], "'%s' is paired but defined outside the converted files: "
                 "define '%s' there (same type, allocated and zeroed with it) and convert with "
                 "--pair %s", v->name, err, v->name);
      continue;
    }
    if (!v->is_field || !struct_has_field(v->decl, err)) {
      CXType vt = clang_getCursorType(v->decl);
      int array = !v->is_field && cp_host_pointer_array(v->decl); /* float4 *dPos_err[2] = {}; */
      CXString t = clang_getTypeSpelling(array ? clang_getArrayElementType(vt) : vt);
      const char *type = cp_arena_strdup(run->r->arena, clang_getCString(t));
      clang_disposeString(t);
      const char *name = array ? cp_arena_printf(run->r->arena, "%s[%lld]", err, clang_getArraySize(vt))
                               : err;
      for (unsigned k = 0; k < v->n_sites; k++)
        declare_at_site(run, v, &v->sites[k], type, name);
    }
    if (!v->allocated && !v->external)
      site_error(run, &v->sites[0],
                 "%s '%s' is paired (a converted kernel writes its buffer) but no cudaMalloc of "
                 "it is in the converted files%s allocate '%s' the same size, zeroed, and copy "
                 "it with it, then name it with --pair", v->is_field ? "field" : "pointer",
                 v->name, v->is_field ? allocated_where(run, v->decl) : ":", err);
  }
}
