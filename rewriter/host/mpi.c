/*
 * mpi.c: MPI calls on host data copied from paired buffers.
 *
 * A host variable that a device-to-host copy of a paired buffer fills and that an MPI call
 * then moves keeps its errors through the call:
 *   - sums (MPI_Allreduce, MPI_Reduce with MPI_SUM): the copy back keeps each value's
 *     residual error in a companion NAME_err (cp_recombine_keep: the value recombined as
 *     before, the residual beside it) and the sum becomes cp_mpi_allreduce_sum
 *     (cp_mpi_reduce_sum) of <cp/mpi.h>, which sums the pairs; their _fixed forms, exact
 *     64-bit integer sums, where every converted kernel that takes the copied buffer
 *     carries its sums as accumulate(fixed), so the totals are the same bits for any
 *     number of ranks;
 *   - sends (MPI_Send, the send half of MPI_Sendrecv): the copy keeps the residuals in the
 *     same way and the call sends pairs (cp_mpi_send_pairs, cp_mpi_sendrecv_pairs: one
 *     message of values, errors and a tag word);
 *   - receives (MPI_Recv, the receive half of a converted MPI_Sendrecv): a receive whose
 *     values go on to a paired device buffer (a host-to-device copy) receives pairs into
 *     NAME and NAME_err, and that copy moves NAME_err into the device buffer's companion
 *     instead of zeroing it. A receive of pairs also takes plain floats (errors zero), so
 *     a receive converted opposite a send that is not still matches.
 * Only where nothing but such MPI calls names the variable between the copy and the call
 * (anything else could make the residuals stale), the copy is synchronous and the
 * variable can have a companion (a local float, float array, or float pointer declared
 * with malloc, calloc or new[] in a statement of its own; the companion is allocated
 * zeroed the same way and freed with it). Otherwise, and for the MPI calls cpconvert does
 * not convert (MPI_Isend, MPI_Bcast, ...), a warning says where the error terms are
 * dropped. Device pointers handed to MPI directly get the warning of any call that is not
 * converted (cp_host_other_call in unconverted.c).
 */

#include <string.h>

#include "state.h"

/* The float variable an argument names (`&x`, `x`, `&x[0]`, `(void *)&x`, `p + k` for a
 * float pointer p), a null cursor for anything else. */
CXCursor cp_mpi_var(const cp_node *n) {
  while (n && n->nkids && (n->kind == CXCursor_UnaryOperator || n->kind == CXCursor_ArraySubscriptExpr ||
                           n->kind == CXCursor_UnexposedExpr || n->kind == CXCursor_ParenExpr ||
                           n->kind == CXCursor_CStyleCastExpr || n->kind == CXCursor_BinaryOperator))
    n = n->kind == CXCursor_CStyleCastExpr ? n->kids[n->nkids - 1] : n->kids[0];
  if (!n || n->kind != CXCursor_DeclRefExpr)
    return clang_getNullCursor();
  CXCursor d = clang_getCursorReferenced(n->cur);
  CXType t = clang_getCanonicalType(clang_getCursorType(d));
  if (t.kind == CXType_ConstantArray)
    t = clang_getCanonicalType(clang_getArrayElementType(t));
  else if (t.kind == CXType_Pointer)
    t = clang_getCanonicalType(clang_getPointeeType(t));
  return d.kind == CXCursor_VarDecl && t.kind == CXType_Float ? d : clang_getNullCursor();
}

static const char *node_text(host *h, const cp_node *n) {
  return cp_arena_strndup(arena(h), text(h) + n->begin, n->end - n->begin);
}

/* The body of object-like macro `name` when it is one identifier (#define REAL_MPI_TYPE
 * MPI_FLOAT), else NULL. */
typedef struct {
  host *h;
  const char *name, *body;
} macro_find;

static enum CXChildVisitResult find_macro(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  macro_find *m = data;
  if (c.kind != CXCursor_MacroDefinition || clang_Cursor_isMacroFunctionLike(c))
    return CXChildVisit_Continue;
  CXString name = clang_getCursorSpelling(c);
  int other = strcmp(clang_getCString(name), m->name) != 0;
  clang_disposeString(name);
  if (other)
    return CXChildVisit_Continue;
  CXTranslationUnit tu = m->h->u->p.tu;
  CXToken *toks;
  unsigned n;
  clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
  if (n == 2 && clang_getTokenKind(toks[1]) == CXToken_Identifier) {
    CXString s = clang_getTokenSpelling(tu, toks[1]);
    m->body = cp_arena_strdup(arena(m->h), clang_getCString(s));
    clang_disposeString(s);
  }
  clang_disposeTokens(tu, toks, n);
  return CXChildVisit_Break;
}

/* Whether argument `n` is the MPI constant `name`, written as is or through object-like
 * macros that name it. */
static int mpi_constant(host *h, const cp_node *n, const char *name) {
  const char *t = node_text(h, n);
  for (int depth = 0; t && depth < 8; depth++) {
    if (strcmp(t, name) == 0)
      return 1;
    macro_find m = {h, t, NULL};
    clang_visitChildren(clang_getTranslationUnitCursor(h->u->p.tu), find_macro, &m);
    t = m.body;
  }
  return 0;
}

/* One MPI call's float buffer: a whole call for sums, sends, receives and other calls; a
 * Sendrecv gives a send and a receive. */
static void add_mpi_use(host *h, mpi_kind kind, const cp_node *call, const char *api, int arg,
                        CXCursor v) {
  if (clang_Cursor_isNull(v))
    return;
  if (h->n_mpi == h->cap_mpi) {
    int cap = h->cap_mpi ? 2 * h->cap_mpi : 8;
    mpi_use *u = cp_arena_alloc(arena(h), (size_t)cap * sizeof *u);
    if (h->n_mpi)
      memcpy(u, h->mpi, (size_t)h->n_mpi * sizeof *u);
    h->mpi = u;
    h->cap_mpi = cap;
  }
  h->mpi[h->n_mpi++] = (mpi_use){kind, v, spelling_of(h, v), call, api, arg, 0, 0, 0, NULL};
}

/* Records the MPI calls on float host variables in `n`, before the walk (a copy back must
 * know what the MPI call after it does). */
void cp_mpi_find_uses(host *h, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    cp_mpi_find_uses(h, n->kids[i]);
  if (n->kind != CXCursor_CallExpr)
    return;
  const char *name = spelling_of(h, clang_getCursorReferenced(n->cur));
  int nargs = cp_num_args(n->cur);
  if (strncmp(name, "MPI_", 4) != 0 || nargs < 1)
    return;
  int sum = (strcmp(name, "MPI_Allreduce") == 0 && nargs == 6) || (strcmp(name, "MPI_Reduce") == 0 && nargs == 7);
  if (sum && mpi_constant(h, cp_call_arg(n, nargs, 3), "MPI_FLOAT") &&
      mpi_constant(h, cp_call_arg(n, nargs, 4), "MPI_SUM")) {
    int in_place = mpi_constant(h, cp_call_arg(n, nargs, 0), "MPI_IN_PLACE");
    add_mpi_use(h, MPI_USE_SUM, n, name, in_place, cp_mpi_var(cp_call_arg(n, nargs, in_place)));
  } else if (strcmp(name, "MPI_Sendrecv") == 0 && nargs == 12 &&
             mpi_constant(h, cp_call_arg(n, nargs, 2), "MPI_FLOAT") &&
             mpi_constant(h, cp_call_arg(n, nargs, 7), "MPI_FLOAT")) {
    add_mpi_use(h, MPI_USE_SEND, n, name, 0, cp_mpi_var(cp_call_arg(n, nargs, 0)));
    add_mpi_use(h, MPI_USE_RECV, n, name, 5, cp_mpi_var(cp_call_arg(n, nargs, 5)));
  } else if (((strcmp(name, "MPI_Send") == 0 && nargs == 6) || (strcmp(name, "MPI_Recv") == 0 && nargs == 7)) &&
             mpi_constant(h, cp_call_arg(n, nargs, 2), "MPI_FLOAT")) {
    add_mpi_use(h, name[4] == 'S' ? MPI_USE_SEND : MPI_USE_RECV, n, name, 0,
                cp_mpi_var(cp_call_arg(n, nargs, 0)));
  } else {
    for (int i = 0; i < nargs; i++)
      add_mpi_use(h, MPI_USE_OTHER, n, name, i, cp_mpi_var(cp_call_arg(n, nargs, i)));
  }
}

/* Whether every place in [from, to) that names variable `v` lies inside an MPI call that
 * only reads it (a recorded sum or send of v). */
static int only_mpi_reads(host *h, const cp_node *n, CXCursor v, unsigned from, unsigned to) {
  if (n->end <= from || n->begin >= to)
    return 1;
  for (int i = 0; i < h->n_mpi; i++)
    if (h->mpi[i].call == n && clang_equalCursors(h->mpi[i].var, v) &&
        (h->mpi[i].kind == MPI_USE_SUM || h->mpi[i].kind == MPI_USE_SEND))
      return 1;
  if (n->kind == CXCursor_DeclRefExpr && n->begin >= from && n->begin < to &&
      clang_equalCursors(clang_getCursorReferenced(n->cur), v))
    return 0;
  for (unsigned i = 0; i < n->nkids; i++)
    if (!only_mpi_reads(h, n->kids[i], v, from, to))
      return 0;
  return 1;
}

/* The allocation that initializes a float pointer's declaration (malloc, calloc, new[]),
 * through casts; NULL for anything else. */
static const cp_node *host_allocation(host *h, const cp_node *vd) {
  const cp_node *e = vd->nkids ? cp_node_strip(vd->kids[vd->nkids - 1]) : NULL;
  while (e && (e->kind == CXCursor_CStyleCastExpr || e->kind == CXCursor_CXXStaticCastExpr ||
               e->kind == CXCursor_CXXReinterpretCastExpr) && e->nkids)
    e = cp_node_strip(e->kids[e->nkids - 1]);
  if (!e)
    return NULL;
  if (e->kind == CXCursor_CXXNewExpr)
    return e;
  const char *fn = e->kind == CXCursor_CallExpr ? spelling_of(h, clang_getCursorReferenced(e->cur)) : "";
  return strcmp(fn, "malloc") == 0 || strcmp(fn, "calloc") == 0 ? e : NULL;
}

/* Whether `var` is assigned anywhere in `n` (`p = realloc(p, ...)`, `p = other`), or its
 * address taken (`&p`): its companion, allocated once beside the declaration, could no
 * longer match it. */
static int reassigned(host *h, const cp_node *n, CXCursor var) {
  const cp_node *lhs, *rhs;
  char op[4];
  if (n->kind == CXCursor_BinaryOperator && cp_node_assignment(text(h), n, &lhs, &rhs, op) &&
      cp_node_strip(lhs)->kind == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCursorReferenced(cp_node_strip(lhs)->cur), var))
    return 1;
  if (n->kind == CXCursor_UnaryOperator && n->nkids && text(h)[n->begin] == '&' &&
      cp_node_strip(n->kids[0])->kind == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCursorReferenced(cp_node_strip(n->kids[0])->cur), var) &&
      clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer)
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (reassigned(h, n->kids[i], var))
      return 1;
  return 0;
}

/* Why host variable `name` gets no companion (host_companion said no), for a warning. */
static const char *no_companion(host *h, const char *name) {
  return cp_arena_printf(arena(h), "'%s' cannot have a companion: it is not a local float or "
                                   "array, or a pointer allocated with malloc, calloc or new[] "
                                   "in a declaration of its own, never reassigned", name);
}

/* Declares NAME_err beside host variable `v` (once): `decltype(v) v_err{};` for a float or
 * float array, the declaration again with a zeroed allocation for a pointer. 0 if `v`
 * cannot have one here (declared with others or in a macro, reassigned later). */
static int host_companion(host *h, CXCursor v) {
  for (int i = 0; i < h->n_comp; i++)
    if (clang_equalCursors(h->comp[i], v))
      return 1;
  const cp_node *d = cp_host_decl_of(h->f->body, v);
  int pointer = clang_getCanonicalType(clang_getCursorType(v)).kind == CXType_Pointer;
  /* `float e_local = 0.0f, e_total = 0.0f;`: decltype names each, so a float or array may
   * share its declaration; a pointer's companion repeats the declaration's allocation */
  if (!d || !d->parent || d->parent->kind != CXCursor_CompoundStmt || d->macro ||
      (pointer && d->nkids != 1) || h->n_comp == MAX_COMPANIONS || reassigned(h, h->f->body, v))
    return 0;
  const char *name = spelling_of(h, v), *err = err_of(h, name);
  const char *decl;
  if (!pointer) {
    decl = cp_arena_printf(arena(h), "decltype(%s) %s{};", name, err);
  } else {
    const cp_node *a = host_allocation(h, d->kids[0]);
    if (!a)
      return 0;
    unsigned end = cp_host_statement_end(h, d);
    const char *alloc = node_text(h, a);
    if (a->kind == CXCursor_CXXNewExpr)
      alloc = alloc[strlen(alloc) - 1] == ']' ? cp_arena_printf(arena(h), "%s()", alloc) : alloc;
    else if (strcmp(spelling_of(h, clang_getCursorReferenced(a->cur)), "malloc") == 0 && a->nkids == 2)
      alloc = cp_arena_printf(arena(h), "calloc(1, %s)", node_text(h, a->kids[1]));
    decl = cp_arena_printf(arena(h), "%.*s%s%.*s", (int)(a->begin - d->begin), text(h) + d->begin,
                           alloc, (int)(end - a->end), text(h) + a->end);
    decl = cp_host_replace_word(h, decl, name, err);
  }
  cp_host_insert_after(h, d, decl, CP_RULE_MPI);
  h->comp[h->n_comp++] = v;
  return 1;
}

/* Whether every converted function that takes a buffer of `v`'s pairing group carries its
 * sums as accumulate(fixed) (so the buffer holds fixed-point sums). Not with fixed(N): the
 * _fixed sums of <cp/mpi.h> round to CP_FIXED_FRAC_BITS, which would drop the bits the
 * clause asked for; those buffers are summed as pairs. */
static int fixed_sums(host *h, const cp_var *v) {
  int root = cp_group_root(h->run, v->group), any = 0;
  for (unsigned i = 0; i < h->run->n_funcs; i++) {
    const cp_func *g = &h->run->funcs[i];
    if (g->is_host)
      continue;
    for (unsigned j = 0; j < g->n_vars; j++) {
      const cp_var *p = &g->vars[j];
      if (!p->is_param || p->group < 0 || cp_group_root(h->run, p->group) != root)
        continue;
      if (!g->pragma || g->pragma->accum != CP_ACC_FIXED || g->pragma->fixed_bits >= 0)
        return 0;
      any = 1;
    }
  }
  return any;
}

/* At a device-to-host copy of paired buffer `src` into `dst` (statement `s`): whether the
 * MPI sums and sends of dst that follow keep its residuals (then marked kept, and
 * dst's companion declared); the ones that cannot are marked dropped. */
int cp_mpi_keeps(host *h, const cp_node *dst, const cp_node *s, const cp_var *src, int can_keep) {
  CXCursor v = cp_mpi_var(dst);
  int kept = 0;
  if (clang_Cursor_isNull(v))
    return 0;
  unsigned from = cp_host_statement_end(h, s);
  for (int i = 0; i < h->n_mpi; i++) {
    mpi_use *m = &h->mpi[i];
    if (!clang_equalCursors(m->var, v) || m->call->begin < from)
      continue;
    if (m->kind == MPI_USE_RECV)
      break; /* overwritten by a receive: the copy's values are not sent */
    const char *why = m->kind == MPI_USE_OTHER
                          ? "cpconvert keeps them only through MPI_Send, MPI_Recv, MPI_Sendrecv, "
                            "MPI_Allreduce and MPI_Reduce (MPI_SUM)"
                      : !can_keep ? "the copy back is asynchronous, or of doubles"
                      : !only_mpi_reads(h, h->f->body, v, from, m->call->begin)
                          ? cp_arena_printf(arena(h), "'%s' is used between the copy back and this "
                                                      "call", m->name)
                      : !host_companion(h, v) ? no_companion(h, m->name)
                          : NULL;
    if (why) {
      m->dropped = !m->kept;
      m->why = why;
      continue;
    }
    m->kept = kept = 1;
    m->fixed = m->kind == MPI_USE_SUM && fixed_sums(h, src);
  }
  return kept;
}

/* The kept receive that last filled host variable `v` before offset `at`, with nothing but
 * MPI reads naming v since: a host-to-device copy of v then moves v's companion. */
const mpi_use *cp_mpi_received_pairs(host *h, CXCursor v, unsigned at) {
  const mpi_use *last = NULL;
  for (int i = 0; i < h->n_mpi; i++) {
    const mpi_use *m = &h->mpi[i];
    if (m->kind == MPI_USE_RECV && clang_equalCursors(m->var, v) && m->call->end <= at &&
        (!last || m->call->begin > last->call->begin))
      last = m;
  }
  return last && last->kept && only_mpi_reads(h, h->f->body, v, last->call->end, at) ? last : NULL;
}

/* Whether the values a receive into `m->var` brings go on to a paired device buffer: a
 * host-to-device copy out of the variable into one, with nothing but MPI reads naming the
 * variable in between. */
static int receive_wanted(host *h, cp_node *n, const mpi_use *m) {
  for (unsigned i = 0; i < n->nkids; i++)
    if (receive_wanted(h, n->kids[i], m))
      return 1;
  if (n->kind != CXCursor_CallExpr || n->begin < m->call->end)
    return 0;
  const char *name = spelling_of(h, clang_getCursorReferenced(n->cur));
  int nargs = cp_num_args(n->cur);
  if ((strcmp(name, "cudaMemcpy") != 0 && strcmp(name, "cudaMemcpyAsync") != 0) || nargs < 4 ||
      !mpi_constant(h, cp_call_arg(n, nargs, 3), "cudaMemcpyHostToDevice"))
    return 0;
  CXCursor src = cp_mpi_var(cp_call_arg(n, nargs, 1));
  return !clang_Cursor_isNull(src) && clang_equalCursors(src, m->var) &&
         is_paired(cp_host_root(h, cp_call_arg(n, nargs, 0))) &&
         only_mpi_reads(h, h->f->body, m->var, m->call->end, n->begin);
}

/* The argument text of buffer argument `m` with the variable renamed to its companion. */
static const char *companion_arg(host *h, const call_text *ct, const mpi_use *m) {
  return to_companion(h, ct->arg[m->arg], m->name);
}

static void warn_dropped(host *h, const mpi_use *m) {
  cp_diag_at(h->run, h->u, CP_WARNING, m->call->begin,
             "this %s moves '%s', recombined from a paired buffer, as floats: its error terms "
             "are dropped, because %s; call it right after a synchronous cudaMemcpy of floats "
             "into a local variable, array or malloc'ed pointer [%s]",
             m->api, m->name, m->why, cp_rule_name(CP_RULE_MPI));
}

/* The replacement of a converted sum. */
static const char *mpi_sum_call(host *h, const char *api, const call_text *ct, const mpi_use *m) {
  const char *err = companion_arg(h, ct, m), *fixed = m->fixed ? "_fixed" : "";
  if (strcmp(api, "MPI_Reduce") == 0)
    return cp_arena_printf(arena(h), "cp_mpi_reduce_sum%s(%s, %s, %s, %s, %s, %s)", fixed, ct->arg[0],
                           err, ct->arg[1], ct->arg[2], ct->arg[5], ct->arg[6]);
  return cp_arena_printf(arena(h), "cp_mpi_allreduce_sum%s(%s, %s, %s, %s, %s)", fixed, ct->arg[0],
                         err, ct->arg[1], ct->arg[2], ct->arg[5]);
}

/* The replacement of a send, a receive or a send-receive that moves pairs. `s` is the
 * call's send use (or NULL), `r` its receive use (or NULL). */
static const char *mpi_message_call(host *h, const call_text *ct, mpi_use *s, mpi_use *r) {
  if (r && !(r->kept = host_companion(h, r->var)))
    cp_diag_at(h->run, h->u, CP_WARNING, r->call->begin,
               "this %s receives pairs, but the received error terms are dropped, because %s [%s]",
               r->api, no_companion(h, r->name), cp_rule_name(CP_RULE_MPI));
  const char *se = s && s->kept ? companion_arg(h, ct, s) : "NULL";
  const char *re = r && r->kept ? companion_arg(h, ct, r) : "NULL";
  if (s && r)
    return cp_arena_printf(arena(h), "cp_mpi_sendrecv_pairs(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                           ct->arg[0], se, ct->arg[1], ct->arg[3], ct->arg[4], ct->arg[5], re,
                           ct->arg[6], ct->arg[8], ct->arg[9], ct->arg[10], ct->arg[11]);
  if (s)
    return cp_arena_printf(arena(h), "cp_mpi_send_pairs(%s, %s, %s, %s, %s, %s)", ct->arg[0], se,
                           ct->arg[1], ct->arg[3], ct->arg[4], ct->arg[5]);
  return cp_arena_printf(arena(h), "cp_mpi_recv_pairs(%s, %s, %s, %s, %s, %s, %s)", ct->arg[0], re,
                         ct->arg[1], ct->arg[3], ct->arg[4], ct->arg[5], ct->arg[6]);
}

/* An MPI call with recorded float buffers: converted, or warned about where it drops
 * error terms. The header then includes <cp/mpi.h> (convert.c). */
void cp_mpi_convert(host *h, cp_node *call, const char *api, int nargs) {
  (void)nargs;
  mpi_use *sum = NULL, *send = NULL, *recv = NULL;
  for (int i = 0; i < h->n_mpi; i++) {
    mpi_use *m = &h->mpi[i];
    if (m->call != call)
      continue;
    if (m->dropped && !m->kept)
      warn_dropped(h, m);
    if (m->kind == MPI_USE_SUM)
      sum = m;
    else if (m->kind == MPI_USE_SEND)
      send = m;
    else if (m->kind == MPI_USE_RECV)
      recv = m;
  }
  call_text ct;
  const cp_node *s;
  int pairs = sum ? sum->kept : (send && send->kept) || (recv && receive_wanted(h, h->f->body, recv));
  if (!pairs || !(s = cp_host_statement_for(h, call, api, &ct)))
    return;
  edit(h, s->begin + ct.b, ct.e - ct.b,
       sum ? mpi_sum_call(h, api, &ct, sum) : mpi_message_call(h, &ct, send, recv), CP_RULE_MPI);
}

/* An MPI call cpconvert does not convert: only the warnings. */
void cp_mpi_other(host *h, cp_node *call) {
  for (int i = 0; i < h->n_mpi; i++)
    if (h->mpi[i].call == call && h->mpi[i].dropped && !h->mpi[i].kept)
      warn_dropped(h, &h->mpi[i]);
}

/* CUDA-aware MPI: a message of floats between paired device buffers, handed to MPI
 * directly (a ghost exchange: `MPI_Sendrecv(d_x + a, m, MPI_FLOAT, up, 0, d_x + b, m,
 * MPI_FLOAT, down, 0, ...)`, or MPI_Send / MPI_Ssend on one rank and MPI_Recv on the
 * other), is followed by the same call on the companions, with the same peers, tag and
 * communicator: the statement runs wherever its values' does, and MPI keeps the messages
 * between two ranks on one tag in order, so each companion arrives where its values did.
 * A send is mirrored only where the same function also receives that buffer and every such
 * receive is mirrored: a companion sent to a receive that is not mirrored would be taken by
 * the next receive of values. A receive is not mirrored from MPI_ANY_SOURCE or with
 * MPI_ANY_TAG (the companion's receive could match another message), nor is a message
 * between a paired and an unpaired buffer, not of MPI_FLOAT, or written by a macro; there a
 * warning says that the error terms are dropped (before: Send and Recv dropped them
 * silently). */

typedef struct {
  const cp_var *a, *b; /* the send and receive buffers (one of them for Send and Recv) */
  int send, recv;      /* whether it sends, receives */
  int ok;              /* the call itself can be mirrored */
} device_message;

/* The CUDA-aware message `call` (an MPI call named `name`) of paired buffers, or 0. */
static int device_message_of(host *h, const cp_node *call, const char *name, device_message *m) {
  int nargs = cp_num_args(call->cur);
  int sendrecv = strcmp(name, "MPI_Sendrecv") == 0 && nargs == 12;
  int send = (strcmp(name, "MPI_Send") == 0 || strcmp(name, "MPI_Ssend") == 0) && nargs == 6;
  int recv = strcmp(name, "MPI_Recv") == 0 && nargs == 7;
  if (!sendrecv && !send && !recv)
    return 0;
  m->a = cp_host_root(h, cp_call_arg(call, nargs, 0));
  m->b = sendrecv ? cp_host_root(h, cp_call_arg(call, nargs, 5)) : m->a;
  if (!is_paired(m->a) && !is_paired(m->b))
    return 0;
  m->send = !recv;
  m->recv = !send;
  const cp_node *s = cp_host_statement_of(call);
  int from = sendrecv ? 8 : 3; /* the source and tag of the receive */
  m->ok = is_paired(m->a) && is_paired(m->b) && s && !s->macro &&
          mpi_constant(h, cp_call_arg(call, nargs, 2), "MPI_FLOAT") &&
          (!sendrecv || mpi_constant(h, cp_call_arg(call, nargs, 7), "MPI_FLOAT")) &&
          (send || (!mpi_constant(h, cp_call_arg(call, nargs, from), "MPI_ANY_SOURCE") &&
                    !mpi_constant(h, cp_call_arg(call, nargs, from + 1), "MPI_ANY_TAG")));
  return 1;
}

/* The receives of buffer `v` in `n`: how many can be mirrored (*ok) and how many not. */
static int receives_of(host *h, const cp_node *n, const cp_var *v, int *ok) {
  int not_ok = 0;
  device_message m;
  if (n->kind == CXCursor_CallExpr &&
      device_message_of(h, n, spelling_of(h, clang_getCursorReferenced(n->cur)), &m) && m.recv &&
      m.b == v)
    *ok += m.ok, not_ok += !m.ok;
  for (unsigned i = 0; i < n->nkids; i++)
    not_ok += receives_of(h, n->kids[i], v, ok);
  return not_ok;
}

int cp_mpi_device_sendrecv(host *h, cp_node *call, const char *name) {
  device_message m;
  if (!device_message_of(h, call, name, &m))
    return 0;
  int ok = 0, not_ok = m.ok ? receives_of(h, h->f->body, m.recv ? m.b : m.a, &ok) : 1;
  if (!m.ok || not_ok || (!m.recv && !ok)) {
    cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
               "paired buffer '%s' is handed to '%s' directly: the message moves its values "
               "without their error terms, which are dropped there; cpconvert sends the "
               "companion too only between two paired buffers of MPI_FLOAT, with a known "
               "source and tag (not MPI_ANY_SOURCE or MPI_ANY_TAG), in a statement of its "
               "own, where every receive of the buffer in the function is one such [%s]",
               is_paired(m.a) ? m.a->name : m.b->name, name, cp_rule_name(CP_RULE_MPI));
    return 1;
  }
  const cp_node *s = cp_host_statement_of(call);
  if (!cp_host_repeatable(h, s, call, cp_arena_printf(arena(h), "the %s of '%s'", name,
                                                      m.a->name)))
    return 1;
  const char *text = to_companion(h, cp_host_statement_text(h, s), m.a->name);
  if (m.b != m.a)
    text = to_companion(h, text, m.b->name);
  cp_host_insert_after(h, s, text, CP_RULE_MPI);
  return 1;
}

/* free(p) or delete[] p of a host variable with a companion: the same for the companion. */
void cp_mpi_host_free(host *h, cp_node *n) {
  int is_free = n->kind == CXCursor_CallExpr && cp_num_args(n->cur) == 1 &&
                strcmp(spelling_of(h, clang_getCursorReferenced(n->cur)), "free") == 0;
  if (!is_free && n->kind != CXCursor_CXXDeleteExpr)
    return;
  CXCursor v = cp_mpi_var(n->kids[n->nkids - 1]);
  const cp_node *s = cp_host_statement_of(n);
  for (int i = 0; i < h->n_comp && s && !clang_Cursor_isNull(v); i++)
    if (clang_equalCursors(h->comp[i], v))
      cp_host_insert_after(h, s, to_companion(h, cp_host_statement_text(h, s), spelling_of(h, v)),
                           CP_RULE_MPI);
}
