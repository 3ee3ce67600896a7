/*
 * instances.c: pairing by buffer, not by struct type, for struct variables of one host
 * function.
 *
 * A pointer field is paired for its struct type: every `vec_t` gains `x_err` once a
 * converted kernel writes some `vec_t`'s `x`. The host-side companion (allocated, zeroed,
 * copied, recombined, sent by MPI) belongs to each struct variable, though: a local `vec_t
 * halo` that no converted function ever sees (a halo message packed by an unconverted
 * kernel, copied and sent in float) needs none, and giving it one only adds allocations,
 * companion copies, MPI messages and warnings about the unconverted kernel that writes it.
 * Such a variable is an unpaired instance: a local struct (not a pointer, not a reference)
 * whose every use goes where no converted function sees it (goes_nowhere_converted: its
 * fields to calls that are not converted, such as cudaMalloc, cudaMemcpy, MPI or an
 * unconverted kernel, or assigned values that are not paired buffers; the whole struct by
 * value to such calls, or to a host function whose parameter is used that way there, such
 * as a helper that launches the unconverted kernel). A field's value may also flow into a
 * field of itself or of another unpaired instance, with pointer arithmetic on the way (a
 * message buffer carved into fields, `r.y = r.x + n; p.x = r.z + n;`). Anything else (a
 * field or the struct passed to a converted function, `halo.x = pos.x`, the struct copied,
 * its address taken, returned) keeps the instance paired, as before.
 */
#include <string.h>

#include "state.h"

/* The DeclRefExpr of a local struct variable that a field access `s.f` is made on, or
 * NULL (`p->f`, `a.b.f`, a call's result). */
static const cp_node *instance_of(const cp_node *member) {
  if (member->kind != CXCursor_MemberRefExpr || member->nkids == 0)
    return NULL;
  const cp_node *base = cp_node_strip(member->kids[0]);
  return base->kind == CXCursor_DeclRefExpr ? base : NULL;
}

static int all_uses_harmless(host *h, const cp_node *n, CXCursor var);

/* Whether the argument `arg` of `call` binds to a reference to a non-const type (the
 * callee can assign the whole struct: std::swap, a user's exchange(a, b)). */
static int takes_reference(const cp_node *call, const cp_node *arg) {
  int nargs = cp_num_args(call->cur);
  CXType ft = clang_getCursorType(clang_getCursorReferenced(call->cur));
  for (int i = 0; i < nargs; i++) {
    if (cp_call_arg(call, nargs, i) != arg)
      continue;
    CXType t = clang_getArgType(ft, (unsigned)i);
    if (t.kind != CXType_LValueReference && t.kind != CXType_RValueReference)
      return 0;
    return !clang_isConstQualifiedType(clang_getPointeeType(t));
  }
  return 0;
}

/* The local struct variable a pointer expression is a field of (`r.x`, `r.x + n`, `(T *)r.x`),
 * or a null cursor. */
static CXCursor instance_root(const cp_node *n) {
  const cp_node *m = cp_node_root(n, 1);
  const cp_node *ref = m ? instance_of(m) : NULL;
  return ref ? clang_getCursorReferenced(ref->cur) : clang_getNullCursor();
}

/* Whether the pointer expression `n` is a field of `self` or of another unpaired instance. */
static int of_unpaired(host *h, const cp_node *n, CXCursor self) {
  CXCursor v = instance_root(n);
  return !clang_Cursor_isNull(v) && (clang_equalCursors(v, self) || cp_host_unpaired_instance(h, v));
}

/* Whether argument `n` of `call` lands in a by-value struct parameter of a host function
 * whose every use there goes where no converted function sees it (a helper that hands the
 * struct to an unconverted kernel). */
static int harmless_param(host *h, const cp_node *call, const cp_node *n) {
  CXCursor callee = clang_getCursorReferenced(call->cur);
  cp_func *g = cp_func_of(h->run, callee);
  int nargs = cp_num_args(call->cur);
  if (!g || !g->is_host || !g->body || g == h->f || h->depth >= 4 ||
      clang_getCanonicalType(clang_getCursorType(n->cur)).kind != CXType_Record)
    return 0; /* (helpers calling helpers: four deep at most, so recursion ends) */
  for (int i = 0; i < nargs; i++)
    if (cp_call_arg(call, nargs, i) == n && i < cp_num_args(g->cursor)) {
      host in = *h; /* the callee's pass, for reading its body */
      in.f = g;
      in.u = g->unit;
      in.n_unpaired = 0;
      in.depth = h->depth + 1;
      return all_uses_harmless(&in, g->body, cp_arg(g->cursor, (unsigned)i));
    }
  return 0;
}

/* Whether argument `n` of launch `call` of converted kernel `g` lands in a plain view
 * parameter (cp_plain_view_param): read as floats there. */
static int view_param(host *h, const cp_node *call, const cp_node *n, cp_func *g) {
  int nargs = cp_num_args(call->cur);
  for (int i = 0; i < nargs; i++)
    if (cp_call_arg(call, nargs, i) == n)
      return cp_plain_view_param(h->run, g, i);
  return 0;
}

/* Whether the value at `n` goes only where no converted function sees it. A field of the
 * instance `self` (`halo.x`, `&halo.x`, `halo.x + k`): an argument of a call that is not
 * converted (cudaMalloc, cudaMemcpy, MPI, an unconverted kernel), a host-side element access,
 * the left side of an assignment whose value is not a paired buffer (or is a field of an
 * unpaired instance), or the value assigned to a field of an unpaired instance. The whole
 * instance (`whole`): only a by-value argument of a call that is not converted, or of a host
 * function that uses its parameter that way (its address or a copy of it could carry its
 * pointers anywhere; `halo = pos` would alias pos's buffers). */
static int goes_nowhere_converted(host *h, const cp_node *n, int whole, CXCursor self) {
  char op[4];
  while (n->parent && (n->parent->kind == CXCursor_UnexposedExpr ||
                       n->parent->kind == CXCursor_ParenExpr ||
                       n->parent->kind == CXCursor_CStyleCastExpr ||
                       (!whole && n->parent->kind == CXCursor_UnaryOperator &&
                        strcmp(cp_node_operator(text(h), n->parent, op), "&") == 0) ||
                       (!whole && n->parent->kind == CXCursor_BinaryOperator && /* r.x + n */
                        clang_getCanonicalType(clang_getCursorType(n->parent->cur)).kind == CXType_Pointer &&
                        strchr("+-", cp_node_operator(text(h), n->parent, op)[0]) && !op[1]) ||
                       (n->parent->kind == CXCursor_CallExpr &&
                        clang_getCursorKind(clang_getCursorReferenced(n->parent->cur)) ==
                            CXCursor_Constructor))) /* the copy a by-value argument makes */
    n = n->parent;
  const cp_node *p = n->parent, *lhs, *rhs;
  if (!p)
    return 0;
  if (p->kind == CXCursor_CallExpr) { /* an argument (a struct or field is never the callee) */
    CXCursor callee = clang_getCursorReferenced(p->cur);
    enum CXCursorKind k = clang_getCursorKind(callee);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) /* not `a = b` */
      return 0;
    if (strncmp(spelling_of(h, callee), "operator", 8) == 0 || cp_pointer_swap(p))
      return 0;
    if (whole && takes_reference(p, n)) /* std::swap(pos, halo): halo's fields become pos's */
      return 0;
    cp_func *g = cp_func_of(h->run, callee);
    return !g || (whole && (harmless_param(h, p, n) || view_param(h, p, n, g)));
  }
  if (whole)
    return 0;
  if (p->kind == CXCursor_ArraySubscriptExpr)
    return 1;
  if (!cp_node_assignment(text(h), p, &lhs, &rhs, op) || strcmp(op, "=") != 0)
    return 0;
  if (lhs == n) /* halo.x = pos.x would alias a paired buffer */
    return !is_paired(cp_host_buffer(h->run, h->f, rhs)) || of_unpaired(h, rhs, self);
  return rhs == n && of_unpaired(h, lhs, self); /* p.x = r.z + k */
}

/* Whether the use `ref` of the instance `var` keeps it unpaired. */
static int harmless_use(host *h, const cp_node *ref, CXCursor var) {
  const cp_node *n = ref;
  while (n->parent && (n->parent->kind == CXCursor_UnexposedExpr || n->parent->kind == CXCursor_ParenExpr))
    n = n->parent;
  if (n->parent && n->parent->kind == CXCursor_MemberRefExpr && instance_of(n->parent) == ref)
    return goes_nowhere_converted(h, n->parent, 0, var);
  return goes_nowhere_converted(h, ref, 1, var);
}

static int all_uses_harmless(host *h, const cp_node *n, CXCursor var) {
  if (n->kind == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(n->cur), var) &&
      !harmless_use(h, n, var))
    return 0;
  for (unsigned i = 0; i < n->nkids; i++)
    if (!all_uses_harmless(h, n->kids[i], var))
      return 0;
  return 1;
}

int cp_host_unpaired_instance(host *h, CXCursor var) {
  if (clang_getCursorKind(var) != CXCursor_VarDecl ||
      clang_getCanonicalType(clang_getCursorType(var)).kind != CXType_Record ||
      !cp_host_decl_of(h->f->body, var))
    return 0;
  for (int i = 0; i < h->n_unpaired; i++) /* asked for every field access: once each */
    if (clang_equalCursors(h->unpaired[i].var, var))
      return h->unpaired[i].yes;
  if (h->n_unpaired >= MAX_INSTANCES)
    return 0;
  /* Taken as unpaired while its uses are read (a use may ask about an instance whose fields
   * it flows into, and that one about this one); if it turns out paired, the answers given
   * since then may rest on that and are asked again. */
  int k = h->n_unpaired++;
  h->unpaired[k] = (instance){var, 1};
  int yes = all_uses_harmless(h, h->f->body, var);
  if (!yes)
    h->n_unpaired = k + 1;
  h->unpaired[k].yes = yes;
  return yes;
}

cp_var *cp_host_root(host *h, const cp_node *n) {
  cp_var *v = cp_host_buffer(h->run, h->f, n);
  if (!is_paired(v) || !v->is_field)
    return v;
  const cp_node *root = cp_node_root(n, 1);
  const cp_node *ref = root ? instance_of(root) : NULL;
  return ref && cp_host_unpaired_instance(h, clang_getCursorReferenced(ref->cur)) ? NULL : v;
}

/* ---- plain views: struct parameters of kernels that only messages fill ---------------- */

static const cp_node *up(const cp_node *n) {
  while (n->parent && (n->parent->kind == CXCursor_UnexposedExpr || n->parent->kind == CXCursor_ParenExpr))
    n = n->parent;
  return n;
}

/* Whether the use `ref` of a struct parameter reads through one of its fields only: an
 * element `r.x[i]` as a value (its address not taken), or a field that is no pointer. */
static int field_read(const char *t, const cp_node *ref) {
  const cp_node *m = up(ref)->parent, *e;
  char op[4];
  if (!m || m->kind != CXCursor_MemberRefExpr)
    return 0;
  if (clang_getCanonicalType(clang_getCursorType(m->cur)).kind != CXType_Pointer)
    return 1; /* r.n: a value (stores into it are reads_only's) */
  e = up(m)->parent;
  if (!e || e->kind != CXCursor_ArraySubscriptExpr || e->nkids != 2 || e->kids[0] != up(m))
    return 0;
  e = up(e)->parent;
  return !e || e->kind != CXCursor_UnaryOperator || strcmp(cp_node_operator(t, e, op), "&") != 0;
}

/* Whether the kernel body `n` uses struct parameter `param` only to read through its fields. */
static int reads_only(const char *t, const cp_node *n, CXCursor param) {
  const cp_node *rhs, *target, *root;
  char op[4];
  if ((target = cp_store_target(t, n, &rhs, op)) && (root = cp_node_root(target, 0)) &&
      clang_equalCursors(clang_getCursorReferenced(root->cur), param))
    return 0;
  if (n->kind == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(n->cur), param) &&
      !field_read(t, n))
    return 0;
  for (unsigned i = 0; i < n->nkids; i++)
    if (!reads_only(t, n->kids[i], param))
      return 0;
  return 1;
}

/* The local struct variable a by-value argument names (through the copy it makes), or a
 * null cursor. */
static CXCursor argument_variable(const cp_node *a) {
  for (;;) {
    a = cp_node_strip(a);
    if (a->kind == CXCursor_CallExpr && a->nkids == 1 &&
        clang_getCursorKind(clang_getCursorReferenced(a->cur)) == CXCursor_Constructor)
      a = a->kids[0];
    else if (a->kind == CXCursor_UnexposedExpr && a->nkids == 1)
      a = a->kids[0];
    else
      break;
  }
  return a->kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(a->cur) : clang_getNullCursor();
}

/* Whether a field of local struct `var` is given a pointer by assignment under `n`
 * (`r.x = (float *)buf`): a view of memory allocated as something else, not a struct whose
 * buffers are allocated through its fields (those keep their companions). */
static int assigned_field(const char *t, const cp_node *n, CXCursor var) {
  const cp_node *lhs, *rhs, *ref;
  char op[4];
  if (n->kind != CXCursor_CallExpr && cp_node_assignment(t, n, &lhs, &rhs, op) && strcmp(op, "=") == 0 &&
      (ref = instance_of(cp_node_strip(lhs))) && clang_equalCursors(clang_getCursorReferenced(ref->cur), var))
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (assigned_field(t, n->kids[i], var))
      return 1;
  return 0;
}

/* Whether each launch of `g` in host function `hf` (under `n`) passes, as argument i, a view
 * of hf that is an unpaired instance; the launches counted in *count. */
static int launches_pass_views(cp_run *run, cp_func *hf, const cp_node *n, const cp_func *g, int i,
                               int *count) {
  if (n->kind == CXCursor_CallExpr && cp_func_of(run, clang_getCursorReferenced(n->cur)) == g) {
    int nargs = cp_num_args(n->cur);
    if (i >= nargs)
      return 0;
    ++*count;
    host h;
    cp_host_start(&h, run, hf->unit, hf);
    CXCursor var = argument_variable(cp_call_arg(n, nargs, i));
    if (!assigned_field(text(&h), hf->body, var) || !cp_host_unpaired_instance(&h, var))
      return 0;
  }
  for (unsigned k = 0; k < n->nkids; k++)
    if (!launches_pass_views(run, hf, n->kids[k], g, i, count))
      return 0;
  return 1;
}

int cp_plain_view_param(cp_run *run, cp_func *g, int i) {
  int nparams = cp_num_args(g->cursor);
  if (!g->is_kernel || !g->body || i < 0 || i >= nparams)
    return 0;
  if (!g->plain_view) {
    g->plain_view = cp_arena_alloc(run->r->arena, (size_t)nparams);
    memset(g->plain_view, -1, (size_t)nparams);
  }
  if (g->plain_view[i] >= 0)
    return g->plain_view[i];
  CXCursor param = cp_arg(g->cursor, (unsigned)i);
  if (clang_getCanonicalType(clang_getCursorType(param)).kind != CXType_Record)
    return g->plain_view[i] = 0;
  /* Taken as a view while the launches are read: each launch's instance asks about this
   * parameter again (its one converted use). */
  g->plain_view[i] = 1;
  int yes = reads_only(g->unit->opt.input_text, g->body, param), count = 0;
  for (unsigned k = 0; yes && k < run->n_funcs; k++)
    if (run->funcs[k].is_host && run->funcs[k].body)
      yes = launches_pass_views(run, &run->funcs[k], run->funcs[k].body, g, i, &count);
  return g->plain_view[i] = (signed char)(yes && count > 0);
}
