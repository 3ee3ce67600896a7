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
 * value to such calls). Anything else (a field or the struct passed to a converted
 * function, `halo.x = pos.x`, the struct copied, its address taken, returned) keeps the
 * instance paired, as before.
 */
#include <string.h>

#include "host.h"

/* The DeclRefExpr of a local struct variable that a field access `s.f` is made on, or
 * NULL (`p->f`, `a.b.f`, a call's result). */
static const cp_node *instance_of(const cp_node *member) {
  if (member->kind != CXCursor_MemberRefExpr || member->nkids == 0)
    return NULL;
  const cp_node *base = cp_node_strip(member->kids[0]);
  return base->kind == CXCursor_DeclRefExpr ? base : NULL;
}

/* Whether the value at `n` goes only where no converted function sees it. A field of the
 * instance (`halo.x`, `&halo.x`): an argument of a call that is not converted (cudaMalloc,
 * cudaMemcpy, MPI, an unconverted kernel), a host-side element access, or the left side of an
 * assignment whose value is not a paired buffer. The whole instance (`whole`): only a
 * by-value argument of a call that is not converted (its address or a copy of it could
 * carry its pointers anywhere; `halo = pos` would alias pos's buffers). */
static int goes_nowhere_converted(host *h, const cp_node *n, int whole) {
  char op[4];
  while (n->parent && (n->parent->kind == CXCursor_UnexposedExpr ||
                       n->parent->kind == CXCursor_ParenExpr ||
                       n->parent->kind == CXCursor_CStyleCastExpr ||
                       (!whole && n->parent->kind == CXCursor_UnaryOperator &&
                        strcmp(cp_node_operator(text(h), n->parent, op), "&") == 0) ||
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
    return (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) && /* not `a = b` */
           strncmp(spelling_of(h, callee), "operator", 8) != 0 && !cp_func_of(h->run, callee) &&
           !cp_pointer_swap(p);
  }
  if (whole)
    return 0;
  if (p->kind == CXCursor_ArraySubscriptExpr)
    return 1;
  return cp_node_assignment(text(h), p, &lhs, &rhs, op) && lhs == n && strcmp(op, "=") == 0 &&
         !is_paired(cp_host_buffer(h->run, h->f, rhs)); /* halo.x = pos.x: an alias */
}

/* Whether the use `ref` of the instance keeps it unpaired. */
static int harmless_use(host *h, const cp_node *ref) {
  const cp_node *n = ref;
  while (n->parent && (n->parent->kind == CXCursor_UnexposedExpr || n->parent->kind == CXCursor_ParenExpr))
    n = n->parent;
  if (n->parent && n->parent->kind == CXCursor_MemberRefExpr && instance_of(n->parent) == ref)
    return goes_nowhere_converted(h, n->parent, 0);
  return goes_nowhere_converted(h, ref, 1);
}

static int all_uses_harmless(host *h, const cp_node *n, CXCursor var) {
  if (n->kind == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(n->cur), var) &&
      !harmless_use(h, n))
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
  int yes = all_uses_harmless(h, h->f->body, var);
  if (h->n_unpaired < MAX_INSTANCES)
    h->unpaired[h->n_unpaired++] = (instance){var, yes};
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
