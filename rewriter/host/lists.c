/*
 * lists.c: positional initializer lists of structs whose pointer fields gain companions.
 *
 * fields.c declares each companion field after its field's declaration, so in the converted
 * struct `{d_x, d_y, n}` would put d_y into x's companion: every such list in host code
 * gets the companions' values at their places (`{d_x, d_x_err, d_y, d_y_err, n}`).
 */
#include <string.h>

#include "state.h"

/* Where field `f`'s declaration begins: `float4 *pos, *vel;` declares two fields that begin
 * at one place, and their companions follow the pair, in the order of run->structs. */
static unsigned declaration_start(CXCursor f) {
  unsigned offset;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(f)), NULL, NULL, NULL, &offset);
  return offset;
}

/* The value of a companion field at element `e` (NULL: the field is not initialized by the
 * list): the element's expression on the companion of the paired buffer it points into,
 * `(float4 *)d_buf + n` -> `(float4 *)d_buf_err + n`, or a null value where the element
 * points into no paired buffer (a host buffer) or is absent. NULL after an error. */
static const char *companion_value(host *h, const cp_node *e, CXCursor f, cp_var *l) {
  cp_var *r = e ? cp_host_root(h, e) : NULL;
  if (!is_paired(r))
    return clang_getCanonicalType(clang_getCursorType(f)).kind == CXType_Pointer ? "nullptr" : "{}";
  l->allocated = 1; /* it points into an allocation the run follows (no second error) */
  if (e->macro || !cp_host_side_effect_free(h, e)) {
    cp_host_error(h, e, "this initializer of field '%s' %s, which the value of its companion "
                        "'%s' would have to repeat: compute it into a variable first", l->name,
                  e->macro ? "is a macro expansion" : "has side effects", err_of(h, l->name));
    return NULL;
  }
  return to_companion(h, cp_arena_strndup(arena(h), text(h) + e->begin, e->end - e->begin), r->name);
}

/* A designated list (`{.x = d_x, .n = n}`): refused where it sets a field that gains a
 * companion (the companion's designator would have to follow its declaration's fields). */
static void designated(host *h, const cp_node *n, cp_var **vars, unsigned nf) {
  for (unsigned k = 0; k < n->nkids; k++) {
    const char *t = text(h) + n->kids[k]->begin;
    for (unsigned i = 0; i < nf && *t == '.'; i++) {
      size_t len = vars[i] ? strlen(vars[i]->name) : 0;
      if (len && strncmp(t + 1, vars[i]->name, len) == 0 && !cp_ident_char(t[1 + len])) {
        vars[i]->allocated = 1; /* the error below is the one to fix */
        cp_host_error(h, n->kids[k], "a designated initializer of field '%s', which gains a "
                                     "companion: cpconvert does not place the companion's "
                                     "designator; initialize it with a positional list, or "
                                     "assign the field after the declaration", vars[i]->name);
        return;
      }
    }
  }
}

/* `Bodies d = {(float4 *)d_buf, (float4 *)d_buf + n};`, `P{dx, dy, n}` and every other
 * positional list of a struct whose fields gain companions: the converted struct has each
 * companion after the declaration of its field, so the list gets the companions' values at
 * those places (`{dx, dx_err, dy, dy_err, n}`), the fields after them keeping theirs. A
 * declaration the list stops inside gets `{}` for its fields the list leaves out, so the
 * companions land on their own fields; after the list's end everything is value-initialized
 * (null). A designated list is refused where it sets such a field (`.x = d_x`). */
void cp_host_init_list(host *h, const cp_node *n) {
  CXCursor fields[64];
  unsigned nf = n->kind == CXCursor_InitListExpr
                    ? cp_record_fields(clang_getCanonicalType(clang_getCursorType(n->cur)), fields, 64)
                    : 0;
  if (!nf || !n->nkids || n->macro)
    return;
  cp_var *vars[64];
  int any = 0;
  for (unsigned i = 0; i < nf; i++) {
    vars[i] = cp_field_gains_companion(h->run, fields[i]) ? cp_field_var(h->run, fields[i]) : NULL;
    any |= vars[i] != NULL;
  }
  if (!any)
    return;
  if (!cp_init_element(text(h), n, 0)) {
    designated(h, n, vars, nf);
    return;
  }
  unsigned last = n->nkids - 1; /* the last element written */
  for (unsigned a = 0; a < nf && a <= last;) {
    unsigned b = a, start = declaration_start(fields[a]);
    while (b + 1 < nf && declaration_start(fields[b + 1]) == start)
      b++;
    /* fields a..b are one declaration: its companions, in cp_convert_fields' order */
    const char *add = "";
    for (unsigned k = last + 1; k <= b; k++)
      add = cp_arena_printf(arena(h), "%s, {}", add);
    for (;;) {
      cp_var *next = NULL;
      unsigned at = 0;
      for (unsigned i = a; i <= b; i++)
        if (vars[i] && (!next || vars[i] < next)) {
          next = vars[i];
          at = i;
        }
      if (!next)
        break;
      const char *value = companion_value(h, at <= last ? n->kids[at] : NULL, fields[at], next);
      if (!value)
        return;
      add = cp_arena_printf(arena(h), "%s, %s", add, value);
      vars[at] = NULL;
    }
    if (*add) /* once: a header's function is walked from every input that includes it */
      cp_apply_insert_once(h->run, &h->u->edits, n->kids[b <= last ? b : last]->end, add,
                           CP_RULE_HOST_PAIR);
    a = b + 1;
  }
}
