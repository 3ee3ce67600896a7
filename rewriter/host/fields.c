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
  char msg[1024];
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
                 "it is in the converted files: allocate '%s' the same size, zeroed, and copy "
                 "it with it, then name it with --pair", v->is_field ? "field" : "pointer",
                 v->name, err);
  }
}
