/*
 * twin.c: converted copies written beside the float originals.
 *
 *   twins      a helper converted because converted code calls it keeps its float original
 *              where float code calls it too: the converted copy NAME_cp is written after it
 *              (an operator's copy keeps its name and overloads it on the composite types);
 *   instances  an instance of a function template with a type parameter converts into a
 *              function of its own, written after the template (rule template-instance).
 * function.c makes the edits of each; this file decides which functions get a copy, writes
 * the copies out of their edits and says so in notes.
 */
#include <string.h>

#include "internal.h"

/* annotate.c took only instances whose arguments can be written out. */
void cp_instance_args_of(cp_run *run, CXCursor inst, cp_instance_args *a) {
  int n = cp_template_args(run->r->arena, inst, a->name, a->value);
  a->n = n > 0 ? (unsigned)n : 0;
}

/* ---- unannotated helpers: in place, or as a twin ---------------------------------- */

/* A helper converted because converted code calls it (helper.c) keeps its float
 * original when float code calls it too (a function that is not converted, host code, or
 * the float original of another twin): the converted copy is then a twin NAME_cp (an
 * operator's twin keeps its name and overloads it by its composite parameters). Found
 * until nothing changes, since a twin's original is float code calling further helpers. */
typedef struct {
  cp_run *run;
  cp_unit *u; /* the unit walked */
  int changed;
} twin_ctx;

/* A helper always (its float callers keep the float one); an annotated device function
 * when its signature changes, so that float callers still compile. A kernel is launched
 * from host code, which converts with it. */
static int needs_twin(const cp_func *f) {
  return f->auto_conv || (!f->is_kernel && !f->is_host && cp_signature_changes(f));
}

/* Float code calls `callee` (NULL: not a converted function): it gets a twin if it needs one. */
static void called_from_float(twin_ctx *ctx, cp_func *callee) {
  if (callee && !callee->twin && needs_twin(callee)) {
    /* an operator's twin overloads it (operator+(cp_float3, cp_float3)) */
    callee->twin = strncmp(callee->name, "operator", 8) == 0
                       ? callee->name
                       : cp_arena_printf(ctx->run->r->arena, "%s_cp", callee->name);
    ctx->changed = 1;
  }
}

static enum CXChildVisitResult find_float_calls(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  twin_ctx *ctx = data;
  if (clang_getCursorKind(c) != CXCursor_CallExpr)
    return CXChildVisit_Recurse;
  CXCursor callee = cp_callee(c), set[16];
  if (!clang_Cursor_isNull(callee)) {
    called_from_float(ctx, cp_func_of(ctx->run, callee));
    return CXChildVisit_Recurse;
  }
  /* unresolved in a template (its arguments depend on a parameter): nvcc checks what does
   * not depend on one when it reads the template, so every function of the name counts */
  for (unsigned k = 0, n = cp_callee_set(c, set, 16); k < n; k++)
    called_from_float(ctx, cp_func_of(ctx->run, set[k]));
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult float_callers(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  twin_ctx *ctx = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (!cp_in_unit(ctx->u, c)) /* the unit's own file: an input or a converted header */
    return CXChildVisit_Continue;
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
    return CXChildVisit_Recurse;
  cp_func *f;
  if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate) &&
      clang_isCursorDefinition(c) &&
      (!(f = cp_func_of(ctx->run, c)) || f->is_host || f->twin))
    clang_visitChildren(c, find_float_calls, ctx);
  return CXChildVisit_Continue;
}

/* A call of converted code that passes keep() locals where the callee's parameters convert
 * goes to the float original (cp_kept_call): float code too. */
static void kept_calls(twin_ctx *ctx, cp_func *f, const cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    kept_calls(ctx, f, n->kids[i]);
  if (cp_kept_call(ctx->run, f, n))
    called_from_float(ctx, cp_func_of(ctx->run, cp_callee(n->cur)));
}

void cp_find_twins(cp_run *run) {
  twin_ctx ctx = {run, NULL, 1};
  for (unsigned i = 0; i < run->n_funcs; i++)
    if (!run->funcs[i].is_host && run->funcs[i].body)
      kept_calls(&ctx, &run->funcs[i], run->funcs[i].body);
  while (ctx.changed) {
    ctx.changed = 0;
    for (unsigned u = 0; u < run->n_units; u++) {
      if (!run->units[u]->p.tu) /* a header that only gets companion declarations */
        continue;
      ctx.u = run->units[u];
      clang_visitChildren(clang_getTranslationUnitCursor(ctx.u->p.tu), float_callers, &ctx);
    }
  }
}

/* ---- instances of function templates (rule template-instance) -------------------- */

/* Whether an identifier at s[i] follows `.`, `->` or `::` (a member named T is not T). */
static int after_member_access(const char *s, size_t i) {
  while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
    i--;
  return i > 0 && (s[i - 1] == '.' || (i > 1 && s[i - 1] == '>' && s[i - 2] == '-') ||
                   (i > 1 && s[i - 1] == ':' && s[i - 2] == ':'));
}

/* The copy's text with the template's parameters written out as the instance's arguments:
 * every identifier T that is not in a comment, a literal or after a member access (C++
 * forbids redeclaring a template parameter inside the template, so no other T exists). */
static const char *write_out_args(cp_run *run, const cp_instance_args *a, const char *s) {
  size_t n = strlen(s), cap = n + 1, len = 0;
  for (unsigned k = 0; k < a->n; k++)
    cap += n * strlen(a->value[k]); /* enough were every byte a parameter */
  char *o = cp_arena_alloc(run->r->arena, cap);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    if (s[i] == '/' && s[i + 1] == '/') {
      while (j < n && s[j] != '\n')
        j++;
    } else if (s[i] == '/' && s[i + 1] == '*') {
      const char *e = strstr(s + i + 2, "*/");
      j = e ? (size_t)(e - s) + 2 : n;
    } else if (s[i] == '"' || s[i] == '\'') {
      for (j = i + 1; j < n && s[j] != s[i]; j++)
        j += s[j] == '\\' && j + 1 < n;
      j += j < n;
    } else if (cp_ident_char(s[i]) && !(s[i] >= '0' && s[i] <= '9')) {
      while (j < n && cp_ident_char(s[j]))
        j++;
      for (unsigned k = 0; k < a->n && !after_member_access(s, i); k++)
        if (strlen(a->name[k]) == j - i && memcmp(s + i, a->name[k], j - i) == 0) {
          memcpy(o + len, a->value[k], strlen(a->value[k]));
          len += strlen(a->value[k]);
          i = j;
          break;
        }
      if (i == j)
        continue;
    } else {
      while (j < n && cp_ident_char(s[j]))
        j++; /* a number, with its suffix */
      j += j == i;
    }
    memcpy(o + len, s + i, j - i);
    len += j - i;
    i = j;
  }
  o[len] = 0;
  return o;
}

/* The twin: the function's text with its conversion edits (collected apart in `list`)
 * and the new name, inserted after the float original. */
void cp_emit_twin(cp_run *run, cp_func *f, cp_edit_list *list) {
  unsigned b = cp_extent_begin(f->cursor), e = cp_extent_end(f->cursor);
  cp_edit_list shifted;
  memset(&shifted, 0, sizeof shifted);
  for (size_t i = 0; i < list->count; i++) {
    const cp_edit *x = &list->items[i];
    cp_edit_add(run->r->arena, &shifted, x->offset - b, x->length, x->text, x->rule);
  }
  cp_edit_add(run->r->arena, &shifted, cp_cursor_offset(f->cursor) - b, strlen(f->name), f->twin,
              CP_RULE_AUTO_CONVERT);
  char *out = NULL;
  size_t len = 0;
  const char *why = NULL;
  const char *text = f->unit->opt.input_text;
  if (cp_edit_apply(run->r->arena, &shifted, text + b, e - b, &out, &len, &why) != 0) {
    cp_diag_at(run, f->unit, CP_ERROR, b, "internal error: %s", why);
    return;
  }
  const char *nl = cp_line_ending(text + b, e - b);
  const char *copy = out;
  if (f->instance) {
    cp_instance_args args;
    cp_instance_args_of(run, f->cursor, &args);
    copy = write_out_args(run, &args, out);
  }
  cp_apply_edit(run, &f->unit->edits, e, 0, cp_arena_printf(run->r->arena, "%s%s%s", nl, nl, copy),
                f->instance ? CP_RULE_TEMPLATE_INSTANCE : CP_RULE_AUTO_CONVERT);
}

void cp_note_instance(cp_run *run, cp_func *f) {
  cp_instance_args args;
  cp_instance_args_of(run, f->cursor, &args);
  const char *spelled = "";
  for (unsigned k = 0; k < args.n; k++)
    spelled = cp_arena_printf(run->r->arena, "%s%s%s", spelled, k ? ", " : "", args.value[k]);
  cp_diag_at(run, f->unit, CP_NOTE, cp_cursor_offset(f->cursor),
             "'%s<%s>' is converted as '%s', a copy of the template with its parameters "
             "written out, after the template; calls and launches of that instance call it, "
             "other instances stay as they are [%s]",
             f->name, spelled, f->twin, cp_rule_name(CP_RULE_TEMPLATE_INSTANCE));
}

/* `changed`: whether converting it edited it (in scope(accumulators) a helper whose
 * floats are all per-term arithmetic stays as written, and the note says so). */
void cp_note_helper(cp_run *run, cp_func *f, int changed) {
  if (!changed) {
    cp_diag_at(run, f->unit, CP_NOTE, cp_cursor_offset(f->cursor),
               "'%s' is not annotated; converted code calls it, and converted with its "
               "caller's scope(%s) it needs no change%s: it stays as written [%s]", f->name,
               f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS ? "accumulators" : "all",
               f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS
                   ? " (no accumulator in it)" : "", cp_rule_name(CP_RULE_AUTO_CONVERT));
    return;
  }
  if (f->twin && strcmp(f->twin, f->name) == 0)
    cp_diag_at(run, f->unit, CP_NOTE, cp_cursor_offset(f->cursor),
               "'%s' is not annotated; converted code calls it, so a converted copy that "
               "overloads it on the composite types is written after it, and float code keeps "
               "calling the float one [%s]", f->name, cp_rule_name(CP_RULE_AUTO_CONVERT));
  else if (f->twin)
    cp_diag_at(run, f->unit, CP_NOTE, cp_cursor_offset(f->cursor),
               "'%s' is not annotated; converted code calls it, so its converted copy '%s' is "
               "written after it and called there, and float code keeps calling '%s' [%s]",
               f->name, f->twin, f->name, cp_rule_name(CP_RULE_AUTO_CONVERT));
  else
    cp_diag_at(run, f->unit, CP_NOTE, cp_cursor_offset(f->cursor),
               "'%s' is not annotated; only converted code calls it, so it is converted [%s]",
               f->name, cp_rule_name(CP_RULE_AUTO_CONVERT));
  if (!f->twin)
    run->r->applied[CP_RULE_AUTO_CONVERT]++;
}
