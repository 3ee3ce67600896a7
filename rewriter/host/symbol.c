/*
 * symbol.c: companions of `__device__` float symbols.
 *
 * A file-scope `__device__ float y[128]` (or a scalar, or floatN) that a converted
 * function writes pairs like a buffer (variables.c gives it a pairing group); its companion
 * is a second symbol, `__device__ float y_err[128];`, declared on the line after every
 * declaration of y the run can write (its definition, and each `extern` declaration),
 * with the same qualifiers and size and no initializer (a symbol starts zeroed, and a
 * constant initializer is exact, so its error is zero). Kernels store and load both
 * halves (call.c finds the symbol), and host.c follows cudaMemcpyToSymbol,
 * cudaMemcpyFromSymbol and cudaGetSymbolAddress. `__constant__` symbols cannot be written
 * by kernels, so they never pair: kernels read them as exact composites.
 */
#include <string.h>

#include "internal.h"

/* The offset just past the first `c` at bracket depth 0 in [from, to) of `t`; `to` if none. */
static unsigned scan_to(const char *t, unsigned from, unsigned to, char c) {
  int depth = 0;
  for (unsigned i = from; i < to; i++) {
    if (t[i] == '(' || t[i] == '[' || t[i] == '{')
      depth++;
    else if (t[i] == ')' || t[i] == ']' || t[i] == '}')
      depth--;
    else if (t[i] == c && depth == 0)
      return i;
  }
  return to;
}

/* `decl` (in text `t`, [b, end) with its name at `name`) as the declaration of its
 * companion: the name gets `_err`, the initializer is dropped. NULL when the statement
 * declares several names (the shared specifiers cannot be told apart from the text). */
static const char *companion_text(cp_run *run, const char *t, unsigned b, unsigned name,
                                  unsigned end, const char *var) {
  size_t n = strlen(var);
  if (scan_to(t, b, name, ',') != name || strncmp(t + name, var, n) != 0)
    return NULL;
  unsigned stop = scan_to(t, name + (unsigned)n, end, '=');
  while (stop > name + n && (t[stop - 1] == ' ' || t[stop - 1] == '\t'))
    stop--;
  return cp_arena_printf(run->r->arena, "%.*s%s" CP_ERR_SUFFIX "%.*s;", (int)(name - b), t + b, var,
                         (int)(stop - name - n), t + name + n);
}

/* Inserts the companion of `v` after one declaration site. */
static void declare_symbol_at(cp_run *run, const cp_var *v, const cp_site *site) {
  CXFile file;
  unsigned b, end, name, line, col;
  CXSourceRange ext = clang_getCursorExtent(site->decl);
  clang_getExpansionLocation(clang_getRangeStart(ext), &file, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &end);
  clang_getExpansionLocation(clang_getCursorLocation(site->decl), NULL, &line, &col, &name);
  cp_unit *u = cp_unit_for_file(run, site->unit->p.tu, file);
  const char *t = u ? u->opt.input_text : NULL;
  const char *decl = t ? companion_text(run, t, b, name, end, v->name) : NULL;
  if (!u) {
    CXString fn = clang_getFileName(file);
    cp_diag_add(run->r, CP_ERROR, cp_arena_strdup(run->r->arena, clang_getCString(fn)), line, col,
                NULL, "device symbol '%s' is paired (a converted kernel writes it) but declared "
                "in a file this run does not write: declare '%s" CP_ERR_SUFFIX "' after it, the same way, or "
                "convert with --o-dir [%s]", v->name, v->name, cp_rule_name(CP_RULE_HOST_PAIR));
    clang_disposeString(fn);
    return;
  }
  if (!decl) {
    cp_diag_at(run, u, CP_ERROR, name, "paired device symbol '%s' is declared together with other "
               "names: declare it in a statement of its own [%s]", v->name,
               cp_rule_name(CP_RULE_HOST_PAIR));
    return;
  }
  size_t len = u->opt.input_len;
  unsigned semi = scan_to(t, end, (unsigned)len, ';');
  unsigned at = semi < len ? semi + 1 : (unsigned)len;
  const char *nl = cp_line_ending(t, len);
  unsigned ls = b; /* the declaration's indentation */
  while (ls > 0 && t[ls - 1] != '\n' && t[ls - 1] != '\r')
    ls--;
  unsigned ie = ls;
  while (ie < b && (t[ie] == ' ' || t[ie] == '\t'))
    ie++;
  const char *text = cp_arena_printf(run->r->arena, "%s%.*s%s", nl, (int)(ie - ls), t + ls, decl);
  cp_apply_insert_once(run, &u->edits, at, text, CP_RULE_HOST_PAIR); /* a header seen from several inputs */
}

void cp_convert_symbols(cp_run *run) {
  const cp_func *s = &run->structs;
  for (unsigned i = 0; i < s->n_vars; i++) {
    const cp_var *v = &s->vars[i];
    if (!v->is_symbol || v->role != CP_VAR_PAIRED)
      continue;
    for (unsigned k = 0; k < v->n_sites; k++)
      declare_symbol_at(run, v, &v->sites[k]);
  }
}
