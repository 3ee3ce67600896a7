/*
 * host.c: companions of paired buffers in host code.
 *
 * A host pointer is paired when the analysis put it in a paired group: it reaches a
 * paired parameter of a converted kernel through a launch, or of a host function that
 * passes it on. For each paired pointer of a host function:
 *   - the companion is declared right after the pointer's declaration (a parameter gains
 *     a companion parameter instead, and its callers pass theirs);
 *   - after each statement that allocates it (cudaMalloc, cudaMallocManaged,
 *     cudaMallocAsync) the same statement allocates the companion, and a cudaMemset
 *     zeroes it;
 *   - memsets of the buffer are mirrored (with zero); a host-to-device copy into it is
 *     followed by zeroing the companion (fresh values carry no error); a device-to-device
 *     copy between paired buffers is mirrored; a device-to-host copy out of it is followed
 *     by the final recombination into the host destination (cp_recombine);
 *   - cudaFree of the buffer frees the companion too;
 *   - launches and host calls pass the companion after the buffer, with the same offset.
 * New statements are built from the user's statement text, so an error-checking wrapper
 * (CHECK(cudaMalloc(...))) wraps the new calls too (statement.c). Variables are identified
 * through cursors, which stay right inside such macros; positions come from the text.
 * What cannot be completed (an allocation elsewhere, a buffer passed where it cannot be
 * followed) is an error that says what to write by hand. Host copies of paired buffers that
 * MPI moves next are mpi.c's; companions at the declarations of pointer fields and
 * file-scope pointers, fields.c's.
 */
#include <string.h>

#include "state.h"

/* The pointer an allocation's first argument points at: `&p` -> `p`, `(void **)&s->pos`
 * -> `s->pos`. */
static const char *pointer_of(host *h, const char *addr) {
  const char *amp = strrchr(addr, '&');
  if (!amp)
    return addr;
  const char *p = amp + 1;
  size_t n = strlen(p);
  int depth = 0;
  for (size_t i = 0; i < n; i++)
    depth += p[i] == '(' ? 1 : p[i] == ')' ? -1 : 0;
  while (depth < 0 && n > 0 && p[n - 1] == ')') { /* (&p) */
    n--;
    depth++;
  }
  return cp_host_trim(h, p, n);
}

/* cudaMalloc(&p, n) and its kin: the same for p_err, then zero it. */
static void on_alloc(host *h, cp_node *call, const char *api, int nargs) {
  cp_var *v = cp_host_root(h, cp_call_arg(call, nargs, 0));
  if (!is_paired(v))
    return;
  v->allocated = 1;
  call_text ct;
  const cp_node *s = cp_host_statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 2)
    return;
  const char *call_src = cp_arena_strndup(arena(h), ct.stmt + ct.b, ct.e - ct.b);
  const char *alloc = to_companion(h, call_src, v->name);
  const char *ptr = pointer_of(h, to_companion(h, ct.arg[0], v->name));
  const char *zero = strcmp(api, "cudaMallocAsync") == 0 && ct.nargs >= 3
                         ? cp_arena_printf(arena(h), "cudaMemsetAsync(%s, 0, %s, %s)", ptr,
                                           ct.arg[1], ct.arg[2])
                         : cp_arena_printf(arena(h), "cudaMemset(%s, 0, %s)", ptr, ct.arg[1]);
  const char *stmts = cp_arena_printf(arena(h), "%s%s%s%s", cp_host_with_call(h, &ct, alloc), line_end(h),
                                       cp_host_indent_of(h, s->begin), cp_host_with_call(h, &ct, zero));
  cp_host_insert_after(h, s, stmts, CP_RULE_HOST_PAIR);
}

/* A paired variable that `n` names, at any depth. */
static cp_var *paired_in(host *h, const cp_node *n) {
  cp_var *v = n->kind == CXCursor_DeclRefExpr ? cp_host_root(h, n) : NULL;
  for (unsigned i = 0; i < n->nkids && !is_paired(v); i++)
    v = paired_in(h, n->kids[i]);
  return is_paired(v) ? v : NULL;
}

/* For a pointer `var` that is not paired: a paired buffer it is set to point into, in its
 * initializer or an assignment, in a way the pairing does not follow (`d == 0 ? d_x :
 * d_y`, `d_x + k` held in another variable); NULL if none. */
static cp_var *unfollowed_alias(host *h, const cp_node *n, CXCursor var) {
  const cp_node *lhs, *rhs;
  char op[4];
  if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, var) && n->nkids)
    return paired_in(h, n->kids[n->nkids - 1]);
  if (n->kind == CXCursor_BinaryOperator && cp_node_assignment(text(h), n, &lhs, &rhs, op) &&
      strcmp(op, "=") == 0 && cp_node_strip(lhs)->kind == CXCursor_DeclRefExpr &&
      clang_equalCursors(clang_getCursorReferenced(cp_node_strip(lhs)->cur), var))
    return paired_in(h, rhs);
  for (unsigned i = 0; i < n->nkids; i++) {
    cp_var *v = unfollowed_alias(h, n->kids[i], var);
    if (v)
      return v;
  }
  return NULL;
}

/* A copy or memset through a pointer that points into a paired buffer without being
 * paired itself: a write leaves the buffer's companion stale (an error), a read takes the
 * values without their error terms (a warning). */
static void check_alias(host *h, cp_node *call, const char *api, cp_node *arg, int writes) {
  cp_var *v = cp_host_root(h, arg), *p;
  if (!v || is_paired(v) || !(p = unfollowed_alias(h, h->f->body, v->decl)))
    return;
  if (writes)
    cp_host_error(h, call, "this %s writes through '%s', which points into paired buffer '%s' in a "
                           "way cpconvert does not follow (a conditional, or an offset kept in "
                           "another pointer): '%s" CP_ERR_SUFFIX "' would keep stale error terms; use "
                           "'%s' itself here, or zero or update '%s" CP_ERR_SUFFIX "' by hand",
                  api, v->name, p->name, p->name, p->name, p->name);
  else
    cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
               "this %s reads through '%s', which points into paired buffer '%s' in a way "
               "cpconvert does not follow (a conditional, or an offset kept in another "
               "pointer): it takes the values without their error terms; use '%s' itself "
               "to get them recombined [%s]", api, v->name, p->name, p->name,
               cp_rule_name(CP_RULE_HOST_PAIR));
}

/* cudaMemset(p, v, n): the companion is zeroed. */
static void on_memset(host *h, cp_node *call, const char *api, int nargs) {
  cp_var *v = cp_host_root(h, cp_call_arg(call, nargs, 0));
  check_alias(h, call, api, cp_call_arg(call, nargs, 0), 1);
  call_text ct;
  const cp_node *s;
  if (!is_paired(v) || !(s = cp_host_statement_for(h, call, api, &ct)) || ct.nargs < 3)
    return;
  const char *twin = to_companion(h, ct.arg[0], v->name);
  const char *zero = ct.nargs >= 4 ? cp_arena_printf(arena(h), "%s(%s, 0, %s, %s)", api, twin, ct.arg[2], ct.arg[3])
                                   : cp_arena_printf(arena(h), "%s(%s, 0, %s)", api, twin, ct.arg[2]);
  cp_host_insert_after(h, s, cp_host_with_call(h, &ct, zero), CP_RULE_HOST_PAIR);
}

static void on_free(host *h, cp_node *call, const char *api, int nargs) {
  cp_var *v = cp_host_root(h, cp_call_arg(call, nargs, 0));
  call_text ct;
  const cp_node *s;
  if (!is_paired(v) || !(s = cp_host_statement_for(h, call, api, &ct)))
    return;
  const char *call_src = cp_arena_strndup(arena(h), ct.stmt + ct.b, ct.e - ct.b);
  cp_host_insert_after(h, s, cp_host_with_call(h, &ct, to_companion(h, call_src, v->name)),
                       CP_RULE_HOST_PAIR);
}

/* A device-to-host copy of paired buffer `sv` (its companion at `stwin`) into ct.arg[0]
 * (`stream`: ", STREAM" of an asynchronous copy, else ""): recombined, keeping the
 * residuals where MPI moves the values next. */
static const char *copy_back(host *h, cp_node *call, int nargs, const cp_node *s, const call_text *ct,
                             const char *stream, const cp_var *sv, const char *stwin) {
  if (cp_mpi_keeps(h, cp_call_arg(call, nargs, 0), s, sv, !*stream && !sv->dbl))
    return cp_arena_printf(arena(h), "cp_recombine_keep(%s, %s, %s, %s)", ct->arg[0],
                           to_companion(h, ct->arg[0],
                                        spelling_of(h, cp_mpi_var(cp_call_arg(call, nargs, 0)))),
                           stwin, ct->arg[2]);
  return cp_arena_printf(arena(h), "%s%s(%s, %s, %s%s)", sv->dbl ? "cp_recombine_double" : "cp_recombine",
                         *stream ? "_async" : "", ct->arg[0], stwin, ct->arg[2], stream);
}

/* A host-to-device copy into paired buffer `dv` (companion at `dtwin`): the companion is
 * zeroed (fresh values carry no error), or receives the errors that a receive of pairs
 * brought with the host values. */
static const char *copy_in(host *h, cp_node *call, int nargs, const cp_node *s, const call_text *ct,
                           const char *stream, const char *dtwin) {
  const char *async = *stream ? "Async" : "";
  CXCursor src = cp_mpi_var(cp_call_arg(call, nargs, 1));
  const mpi_use *r = clang_Cursor_isNull(src) ? NULL : cp_mpi_received_pairs(h, src, s->begin);
  if (r)
    return cp_arena_printf(arena(h), "cudaMemcpy%s(%s, %s, %s, %s%s)", async, dtwin,
                           to_companion(h, ct->arg[1], r->name), ct->arg[2], ct->arg[3], stream);
  return cp_arena_printf(arena(h), "cudaMemset%s(%s, 0, %s%s)", async, dtwin, ct->arg[2], stream);
}

/* A host-to-device copy of received pairs into a buffer without a companion. */
static void copy_in_unpaired(host *h, cp_node *call, int nargs, const char *kind) {
  CXCursor src = cp_mpi_var(cp_call_arg(call, nargs, 1));
  const mpi_use *r;
  if (strcmp(kind, "cudaMemcpyHostToDevice") != 0 || clang_Cursor_isNull(src) ||
      !(r = cp_mpi_received_pairs(h, src, call->begin)))
    return;
  cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
             "the error terms that %s received into '%s' are dropped here: this copies it into "
             "a device buffer without a companion; name that buffer in pair() of the converted "
             "kernel that reads it [%s]", r->api, r->name, cp_rule_name(CP_RULE_MPI));
}

/* cudaMemcpy(dst, src, n, kind[, stream]) with a paired side. */
static void on_memcpy(host *h, cp_node *call, const char *api, int nargs) {
  if (nargs < 4)
    return;
  cp_var *dv = cp_host_root(h, cp_call_arg(call, nargs, 0));
  cp_var *sv = cp_host_root(h, cp_call_arg(call, nargs, 1));
  const cp_node *k = cp_node_strip(cp_call_arg(call, nargs, 3));
  const char *kind = k->kind == CXCursor_DeclRefExpr ? spelling_of(h, clang_getCursorReferenced(k->cur)) : "";
  if (!is_paired(dv))
    copy_in_unpaired(h, call, nargs, kind);
  if (strcmp(kind, "cudaMemcpyHostToHost") != 0) {
    check_alias(h, call, api, cp_call_arg(call, nargs, 0), 1);
    check_alias(h, call, api, cp_call_arg(call, nargs, 1), 0);
  }
  if (!is_paired(dv) && !is_paired(sv))
    return;
  call_text ct;
  const cp_node *s = cp_host_statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 4)
    return;
  int async = ct.nargs >= 5;
  const char *stream = async ? cp_arena_printf(arena(h), ", %s", ct.arg[4]) : "";
  const char *dtwin = is_paired(dv) ? to_companion(h, ct.arg[0], dv->name) : NULL;
  const char *stwin = is_paired(sv) ? to_companion(h, ct.arg[1], sv->name) : NULL;
  const char *call2 = NULL;
  if (strcmp(kind, "cudaMemcpyHostToDevice") == 0 && dtwin) {
    call2 = copy_in(h, call, nargs, s, &ct, stream, dtwin);
    const char *site = cp_prof_site(h->run, h->u, call->begin, h->f->name, "input", ct.arg[0], NULL);
    if (site) /* the values enter as float here: counted with their bytes */
      call2 = cp_arena_printf(arena(h), "(cp_prof_count(%s, %s), %s)", site, ct.arg[2], call2);
  } else if (strcmp(kind, "cudaMemcpyDeviceToHost") == 0 && stwin) {
    call2 = copy_back(h, call, nargs, s, &ct, stream, sv, stwin);
  } else if (strcmp(kind, "cudaMemcpyDeviceToDevice") == 0 && dtwin && stwin) {
    call2 = cp_arena_printf(arena(h), "%s(%s, %s, %s, %s%s)", api, dtwin, stwin, ct.arg[2],
                            ct.arg[3], stream);
  } else if (strcmp(kind, "cudaMemcpyDeviceToDevice") == 0 && dtwin) {
    call2 = cp_arena_printf(arena(h), "cudaMemset%s(%s, 0, %s%s)", async ? "Async" : "", dtwin,
                            ct.arg[2], stream);
  } else if (strcmp(kind, "cudaMemcpyDeviceToDevice") == 0) {
    cp_host_error(h, call, "this copies paired buffer '%s' into a buffer without a companion, which "
                           "loses its error: pass the destination to a converted kernel too, or copy "
                           "the recombined values", sv->name);
    return;
  } else {
    cp_host_error(h, call, "cannot tell the direction of this copy of paired buffer '%s'; give "
                           "cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost or cudaMemcpyDeviceToDevice "
                           "as a constant", (dv && is_paired(dv) ? dv : sv)->name);
    return;
  }
  cp_host_insert_after(h, s, cp_host_with_call(h, &ct, call2), CP_RULE_HOST_PAIR);
}

/* Whether kernel g has dynamic shared memory that turned composite (twice the bytes),
 * declared in g itself or in a converted function it calls, at any depth: `extern
 * __shared__` in a __device__ helper is the kernel's dynamic shared memory too. `depth`
 * bounds the walk (device code rarely recurses, but it may). */
static int calls_doubling(cp_run *run, const cp_node *n, int depth);

static int doubles_shared(cp_run *run, const cp_func *g, int depth) {
  for (unsigned i = 0; i < g->n_vars; i++) {
    const cp_var *v = &g->vars[i];
    if (!v->is_param && v->role == CP_VAR_COMPOSITE &&
        clang_getCanonicalType(clang_getCursorType(v->decl)).kind == CXType_IncompleteArray)
      return 1;
  }
  return depth < 16 && g->body && calls_doubling(run, g->body, depth + 1);
}

static int calls_doubling(cp_run *run, const cp_node *n, int depth) {
  if (n->kind == CXCursor_CallExpr) {
    cp_func *callee = cp_func_of(run, cp_callee(n->cur));
    if (callee && !callee->is_host && doubles_shared(run, callee, depth))
      return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (calls_doubling(run, n->kids[i], depth))
      return 1;
  return 0;
}

/* k<<<grid, block, bytes, stream>>>: `bytes` becomes 2 * (bytes). */
static void double_shared_bytes(host *h, const cp_node *call, const cp_node *first_arg) {
  const char *t = text(h);
  unsigned end = first_arg ? first_arg->begin : call->end;
  const char *open = NULL;
  for (unsigned i = call->begin; i + 3 <= end; i++)
    if (memcmp(t + i, "<<<", 3) == 0) {
      open = t + i + 3;
      break;
    }
  if (!open)
    return;
  int depth = 0, comma = 0;
  const char *b = NULL;
  for (const char *p = open; p < t + end; p++) {
    if (*p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == ')' || *p == ']' || *p == '}')
      depth--;
    else if (depth == 0 && (*p == ',' || (p[0] == '>' && p[1] == '>' && p[2] == '>'))) {
      if (comma == 2 && b) {
        const char *bytes = cp_host_trim(h, b, (size_t)(p - b));
        const char *start = b;
        while (*start == ' ')
          start++;
        edit(h, (size_t)(start - t), strlen(bytes),
             cp_arena_printf(arena(h), "2 * (%s)", bytes), CP_RULE_HOST_PAIR);
        return;
      }
      if (*p != ',')
        return;
      if (++comma == 2)
        b = p + 1;
    }
  }
}

/* Whether `a` is `ptrs[k]`, an element of an array (or pointer) of pointers. */
static int pointer_element(const cp_node *a) {
  const cp_node *n = cp_node_strip(a);
  if (n->kind != CXCursor_ArraySubscriptExpr || n->nkids < 1)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
  return t.kind == CXType_Pointer;
}

/* A launch or call of a template's instance converted as a copy (axpy<float>(...)) calls
 * the copy: its name replaces the callee's, from the name on (a qualifier stays). */
static int call_instance(host *h, cp_node *call, const cp_func *g) {
  const cp_node *callee = call->nkids ? cp_node_strip(call->kids[0]) : NULL;
  if (!callee || callee->kind != CXCursor_DeclRefExpr || call->macro || callee->macro) {
    cp_diag_at(h->run, h->u, CP_ERROR, call->begin,
               "this launch or call of '%s' must call its instance's converted copy '%s', and "
               "cpconvert cannot rename it here (it is written by a macro, or through a "
               "function pointer): write it out [%s]",
               g->name, g->twin, cp_rule_name(CP_RULE_TEMPLATE_INSTANCE));
    return 0;
  }
  unsigned at = 0;
  clang_getExpansionLocation(clang_getCursorLocation(callee->cur), NULL, NULL, NULL, &at);
  edit(h, at, call->kids[0]->end - at, g->twin, CP_RULE_TEMPLATE_INSTANCE);
  return 1;
}

/* --profile: the `launch` site of a converted kernel's launch: the host expression given
 * each paired parameter, and the paired parameters the kernel writes and reads. */
static void profile_launch(host *h, cp_node *call, cp_func *g) {
  int nargs = cp_num_args(call->cur), nparams = cp_num_args(g->cursor), visible;
  const char *args = "", *writes = "", *reads = "";
  for (int i = 0; i < nargs && i < nparams; i++) {
    cp_var *p = cp_var_of(g, cp_arg(g->cursor, (unsigned)i));
    if (!is_paired(p))
      continue;
    cp_node *a = cp_call_arg(call, nargs, i);
    const char *name = cp_json_quote(arena(h), p->name);
    args = cp_arena_printf(arena(h), "%s%s%s:%s", args, *args ? "," : "", name,
                           cp_json_quote(arena(h), cp_host_trim(h, text(h) + a->begin,
                                                                 a->end - a->begin)));
    if (cp_param_write(h->run, g->cursor, i, &visible))
      writes = cp_arena_printf(arena(h), "%s%s%s", writes, *writes ? "," : "", name);
    if (cp_param_reads(h->run, g->cursor, i))
      reads = cp_arena_printf(arena(h), "%s%s%s", reads, *reads ? "," : "", name);
  }
  const char *site = cp_prof_site(
      h->run, h->u, call->begin, h->f->name, "launch", "",
      cp_arena_printf(arena(h), "\"kernel\":%s,\"args\":{%s},\"writes\":[%s],\"reads\":[%s]",
                      cp_json_quote(arena(h), g->name), args, writes, reads));
  if (site)
    cp_host_prof_grid(h, call, cp_arena_printf(arena(h), "cp_prof_launch(%s)", site));
}

/* A launch of a converted kernel, or a call of a host function that passes buffers on:
 * each paired parameter's argument is followed by its companion. */
static void on_call(host *h, cp_node *call, cp_func *g) {
  int nargs = cp_num_args(call->cur);
  int nparams = cp_num_args(g->cursor);
  if (g->instance && !call_instance(h, call, g))
    return; /* said once: its companions cannot be added either */
  if (g->is_kernel && doubles_shared(h->run, g, 0))
    double_shared_bytes(h, call, nargs > 0 ? cp_call_arg(call, nargs, 0) : NULL);
  if (g->is_kernel)
    profile_launch(h, call, g);
  for (int i = 0; i < nargs && i < nparams; i++) {
    cp_var *p = cp_var_of(g, cp_arg(g->cursor, (unsigned)i));
    if (!is_paired(p))
      continue;
    cp_node *a = cp_call_arg(call, nargs, i);
    cp_var *v = cp_host_root(h, a);
    if (a->macro || call->macro) {
      cp_host_error(h, a, "the launch of '%s' is inside a macro; its companion argument cannot be "
                          "added: write the launch out", g->name);
    } else if (!is_paired(v) && pointer_element(a)) {
      cp_host_error(h, a, "parameter '%s' of '%s' is paired, but this argument is an element of a table "
                          "of device pointers that cpconvert does not pair (a pointer to pointers, an "
                          "array in a struct): keep the buffers in a local "
                          "or file-scope array (`float *buf[2]`) allocated element by element with "
                          "cudaMalloc, or in pointer variables; their companions are declared, "
                          "allocated and passed with them", p->name, g->name);
    } else if (!is_paired(v)) {
      cp_host_error(h, a, "parameter '%s' of '%s' is paired, but this argument is not a buffer variable "
                          "of this function that cpconvert can follow: pass a pointer variable, or add "
                          "its " CP_ERR_SUFFIX " companion by hand", p->name, g->name);
    } else {
      const char *src = cp_arena_strndup(arena(h), text(h) + a->begin, a->end - a->begin);
      edit(h, a->end, 0,
           cp_arena_printf(arena(h), ", %s", to_companion(h, src, v->name)),
           CP_RULE_HOST_PAIR);
    }
  }
}

/* The i-th argument of a call as written (its children after the callee), whatever
 * default arguments the declaration adds. */
static cp_node *written_arg(cp_node *call, unsigned i) {
  return call->nkids > i + 1 ? call->kids[i + 1] : NULL;
}

/* cudaMemcpyFromSymbol(dst, sym, n[, offset]) of a paired symbol: recombined like a
 * device-to-host cudaMemcpy (cp_recombine_symbol reads sym_err); cudaMemcpyToSymbol(sym,
 * src, n[, offset]): fresh values carry no error, so the companion's bytes are zeroed. */
static void on_symbol_copy(host *h, cp_node *call, const char *api, int nargs) {
  int from = strcmp(api, "cudaMemcpyFromSymbol") == 0;
  cp_node *a = written_arg(call, from ? 1 : 0);
  cp_var *v = a ? cp_host_root(h, a) : NULL;
  (void)nargs;
  if (!is_paired(v) || !v->is_symbol)
    return;
  call_text ct;
  const cp_node *s = cp_host_statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 3)
    return;
  if (ct.nargs >= 5) {
    cp_host_error(h, call, "a copy of paired symbol '%s' with an explicit direction is not followed: "
                           "copy '%s" CP_ERR_SUFFIX "' by hand, or leave the direction out",
                  v->name, v->name);
    return;
  }
  const char *sym = to_companion(h, ct.arg[from ? 1 : 0], v->name);
  const char *off = ct.nargs >= 4 ? cp_arena_printf(arena(h), ", %s", ct.arg[3]) : "";
  const char *call2 =
      from ? cp_arena_printf(arena(h), "cp_recombine_symbol(%s, %s, %s%s)", ct.arg[0], sym, ct.arg[2], off)
           : cp_arena_printf(arena(h), "cp_zero_symbol(%s, %s%s)", sym, ct.arg[2], off);
  cp_host_insert_after(h, s, cp_host_with_call(h, &ct, call2), CP_RULE_HOST_PAIR);
}

/* cudaGetSymbolAddress((void **)&p, sym): p points into the paired symbol (the analysis
 * paired them together), so p_err gets the address of sym_err. */
static void on_symbol_address(host *h, cp_node *call, const char *api, int nargs) {
  cp_node *pa = written_arg(call, 0), *sa = written_arg(call, 1);
  cp_var *p = pa ? cp_host_root(h, pa) : NULL, *v = sa ? cp_host_root(h, sa) : NULL;
  (void)nargs;
  if (!is_paired(p) || !v || !v->is_symbol || p == v)
    return;
  p->allocated = 1;
  call_text ct;
  const cp_node *s = cp_host_statement_for(h, call, api, &ct);
  if (!s || ct.nargs < 2)
    return;
  const char *src = cp_arena_strndup(arena(h), ct.stmt + ct.b, ct.e - ct.b);
  src = to_companion(h, to_companion(h, src, p->name), v->name);
  cp_host_insert_after(h, s, cp_host_with_call(h, &ct, src), CP_RULE_HOST_PAIR);
}

/* The asynchronous symbol copies are not followed yet: say what to add. */
static void on_symbol_async(host *h, cp_node *call, const char *api, int nargs) {
  cp_node *a = written_arg(call, strcmp(api, "cudaMemcpyFromSymbolAsync") == 0 ? 1 : 0);
  cp_var *v = a ? cp_host_root(h, a) : NULL;
  (void)nargs;
  if (is_paired(v) && v->is_symbol)
    cp_host_error(h, call, "%s of paired symbol '%s' is not followed: use the synchronous call, or "
                           "copy '%s" CP_ERR_SUFFIX "' by hand (zero it after a copy in, add it after "
                           "a copy out)",
                  api, v->name, v->name);
}

typedef struct {
  const char *name;
  void (*fn)(host *, cp_node *, const char *, int);
} api_row;

/* MPI_Allreduce and its kin (mpi.c). */
static void on_mpi(host *h, cp_node *call, const char *api, int nargs) {
  if (cp_mpi_device_sendrecv(h, call, api))
    return;
  cp_mpi_convert(h, call, api, nargs);
  /* a sum of a paired device buffer itself (CUDA-aware MPI): cpconvert sums host copies
   * only, so its error terms are dropped there, as in any MPI call not converted */
  if (strcmp(api, "MPI_Allreduce") != 0 && strcmp(api, "MPI_Reduce") != 0)
    return;
  for (int i = 0; i < nargs && i < 2; i++) {
    cp_var *v = cp_host_root(h, cp_call_arg(call, nargs, i));
    if (is_paired(v)) {
      cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
                 "paired buffer '%s' is handed to '%s' directly: the reduction sums its "
                 "values without their error terms, which are dropped there; copy it to a "
                 "host buffer first (cpconvert keeps the errors through MPI_Allreduce and "
                 "MPI_Reduce of a host copy), or reduce the recombined values as MPI_DOUBLE "
                 "[%s]", v->name, api, cp_rule_name(CP_RULE_MPI));
      return;
    }
  }
}

static const api_row api_table[] = {
#define CP_HOST_API(name, kind) {#name, on_##kind},
#include "rules.def"
};

/* ptrs[k] = a + off with `a` a paired buffer (a pointer stored; `h[k] = a[i]` stores a
 * value): copies, launches and frees through the array element (halo exchanges by
 * cudaMemcpyPeer through tables of pointers) are not followed, so they would move values
 * without their error terms, silently before: a warning. */
static void alias_in_array(host *h, const cp_node *n, const cp_node *rhs) {
  if (clang_getCanonicalType(clang_getCursorType(n->cur)).kind != CXType_Pointer)
    return;
  cp_var *r = cp_host_root(h, rhs);
  if (is_paired(r))
    cp_diag_at(h->run, h->u, CP_WARNING, n->begin,
               "a pointer into paired buffer '%s' is stored in an array element, which has no "
               "companion: copies, launches and frees through it work on the values without "
               "their error terms; use '%s' itself there, or keep a table of pointers into "
               "'%s" CP_ERR_SUFFIX "' beside it and copy both [%s]",
               r->name, r->name, r->name, cp_rule_name(CP_RULE_HOST_PAIR));
}

/* p = q between paired pointers (a swap of double buffers), or p = nullptr: the same for
 * the companions. Any other value for a paired pointer cannot be followed. */
static void on_pointer_assignment(host *h, cp_node *n) {
  const cp_node *lhs, *rhs;
  char op[4];
  if (n->kind == CXCursor_CallExpr ||
      !cp_node_assignment(text(h), n, &lhs, &rhs, op) || strcmp(op, "=") != 0)
    return;
  const cp_node *target = cp_node_strip(lhs);
  cp_var *l = cp_host_root(h, lhs);
  int element = target->kind == CXCursor_ArraySubscriptExpr;
  if (element && !(is_paired(l) && cp_host_pointer_array(l->decl) &&
                   clang_getCanonicalType(clang_getCursorType(target->cur)).kind == CXType_Pointer)) {
    alias_in_array(h, n, rhs);
    return;
  }
  if (!element && target->kind != CXCursor_DeclRefExpr && target->kind != CXCursor_MemberRefExpr)
    return;
  if (!is_paired(l))
    return;
  cp_var *r = cp_host_root(h, rhs);
  const cp_node *value = cp_node_strip(rhs);
  int null = value->kind == CXCursor_CXXNullPtrLiteralExpr || value->kind == CXCursor_IntegerLiteral ||
             value->kind == CXCursor_GNUNullExpr;
  const cp_node *s = cp_host_statement_of(n);
  if (is_paired(r) && r != l && cp_host_pointer_array(r->decl))
    l->allocated = 1; /* p->x = bufs[0]: an element of an allocated array */
  if (!s || (!is_paired(r) && !null)) {
    cp_host_error(h, n, "paired pointer '%s' is assigned a value cpconvert cannot follow to a buffer "
                        "with a companion: assign '%s" CP_ERR_SUFFIX "' by hand too", l->name, l->name);
    return;
  }
  if (!cp_host_repeatable(h, s, n, cp_arena_printf(arena(h), "the assignment of '%s'", l->name)))
    return;
  const char *stmt = to_companion(h, cp_host_statement_text(h, s), l->name);
  if (is_paired(r) && r != l)
    stmt = to_companion(h, stmt, r->name);
  cp_host_insert_after(h, s, stmt, CP_RULE_HOST_PAIR);
}

/* std::swap(d_in, d_out) of paired pointers (double buffering): the companions are swapped
 * too, by the same statement after it. */
static void on_pointer_swap(host *h, cp_node *n) {
  cp_var *a = cp_host_root(h, cp_call_arg(n, 2, 0)), *b = cp_host_root(h, cp_call_arg(n, 2, 1));
  const cp_node *s = cp_host_statement_of(n);
  if (!is_paired(a) && !is_paired(b))
    return;
  int elements = a == b && is_paired(a) && cp_host_pointer_array(a->decl); /* swap(buf[0], buf[1]) */
  if (!s || !is_paired(a) || !is_paired(b) || (a == b && !elements)) {
    cp_host_error(h, n, "paired pointer '%s' is swapped with a pointer cpconvert cannot follow "
                        "to a buffer with a companion: swap its companion by hand too",
                  is_paired(a) ? a->name : b->name);
    return;
  }
  if (!cp_host_repeatable(h, s, n, cp_arena_printf(arena(h), "the swap of '%s'", a->name)))
    return;
  const char *stmt = to_companion(h, cp_host_statement_text(h, s), a->name);
  cp_host_insert_after(h, s, elements ? stmt : to_companion(h, stmt, b->name), CP_RULE_HOST_PAIR);
}

/* A converted function named other than as the callee of a call: its address taken, for a
 * launch through a function pointer or cudaLaunchKernel, which are not followed. */
static void on_function_reference(host *h, const cp_node *n) {
  cp_func *g;
  if (n->kind != CXCursor_DeclRefExpr ||
      !(g = cp_func_of(h->run, cp_callee(n->cur))) || !cp_signature_changes(g))
    return;
  const cp_node *k = n, *p = n->parent;
  while (p && p->kind == CXCursor_UnexposedExpr) {
    k = p;
    p = p->parent;
  }
  if (p && p->kind == CXCursor_CallExpr && p->nkids > 0 &&
      (p->kids[0] == k || (cp_call_is_infix(p) && p->kids[1] == k)))
    return; /* the callee of a call or launch, or the operator of `a + b` */
  cp_host_error(h, n, "converted function '%s' is used other than in a direct call or launch (a function "
                      "pointer, cudaLaunchKernel); cpconvert cannot add its companion arguments there: "
                      "launch it directly with <<<...>>>", g->name);
}

/* dPos[k], an element of a paired array of device pointers: its companion is dPos_err[k],
 * with the index written again, so the index must not change anything. */
static void on_element(host *h, const cp_node *n) {
  const cp_node *base = n->kind == CXCursor_ArraySubscriptExpr && n->nkids == 2
                            ? cp_node_strip(n->kids[0]) : NULL;
  cp_var *v = base && base->kind == CXCursor_DeclRefExpr ? cp_host_root(h, base) : NULL;
  if (is_paired(v) && cp_host_pointer_array(v->decl) && !cp_host_side_effect_free(h, n->kids[1]))
    cp_host_error(h, n->kids[1], "this index of '%s', an array of device pointers whose companion "
                                 "array '%s" CP_ERR_SUFFIX "' is indexed the same way, has side effects, "
                                 "which the companion's index would repeat: compute it into a variable "
                                 "first", v->name, v->name);
}

static void walk(host *h, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    walk(h, n->kids[i]);
  on_element(h, n);
  on_pointer_assignment(h, n);
  cp_host_init_list(h, n);
  if (n->kind == CXCursor_VarDecl)
    cp_host_address_call(h, n, "");
  on_function_reference(h, n);
  cp_host_lambda(h, n);
  cp_mpi_host_free(h, n);
  if (n->kind != CXCursor_CallExpr)
    return;
  CXCursor ref = clang_getCursorReferenced(n->cur);
  cp_func *g = cp_func_of(h->run, ref);
  if (g) {
    on_call(h, n, g);
    return;
  }
  if (cp_pointer_swap(n)) {
    on_pointer_swap(h, n);
    return;
  }
  /* a dependent callee (`K<step><<<g, b>>>(s)` in a template) is named by its template */
  const char *name = spelling_of(h, clang_Cursor_isNull(ref) ? cp_callee(n->cur) : ref);
  int nargs = cp_num_args(n->cur);
  if (nargs > 0 && cp_host_address_call(h, n, name))
    return;
  for (size_t i = 0; i < sizeof api_table / sizeof api_table[0]; i++)
    if (strcmp(name, api_table[i].name) == 0) {
      if (nargs > 0)
        api_table[i].fn(h, n, name, nargs);
      return;
    }
  if (strncmp(name, "MPI_", 4) == 0)
    cp_mpi_other(h, n);
  if (nargs > 0)
    cp_host_other_call(h, n, *name ? name : "a call cpconvert cannot resolve");
}


static void declare_companion(host *h, cp_var *v) {
  const cp_node *d = cp_host_decl_of(h->f->body, v->decl);
  if (!d || !d->parent || d->parent->kind != CXCursor_CompoundStmt || d->macro) {
    cp_diag_at(h->run, h->u, CP_ERROR, d ? d->begin : h->f->body->begin,
               "cannot declare '%s" CP_ERR_SUFFIX "' beside '%s': declare '%s' in a statement of its own "
               "[%s]", v->name, v->name, v->name, cp_rule_name(CP_RULE_HOST_PAIR));
    return;
  }
  if (cp_host_pointer_array(v->decl)) { /* float4 *dPos[2]: float4 *dPos_err[2] = {}; */
    cp_host_insert_after(h, d, cp_host_array_decl(h, v->decl, "{}"), CP_RULE_HOST_PAIR);
    return;
  }
  CXString t = clang_getTypeSpelling(clang_getCursorType(v->decl));
  const char *type = clang_getCString(t);
  size_t n = strlen(type);
  const char *init = "nullptr"; /* float *p = q: p's companion starts as q's */
  CXCursor value = clang_Cursor_getVarDeclInitializer(v->decl);
  if (!clang_Cursor_isNull(value)) {
    const cp_node *vd = NULL;
    for (unsigned i = 0; i < d->nkids && !vd; i++)
      if (clang_equalCursors(d->kids[i]->cur, v->decl))
        vd = d->kids[i];
    cp_var *r = vd && vd->nkids ? cp_host_root(h, vd->kids[vd->nkids - 1]) : NULL;
    if (is_paired(r)) {
      const cp_node *e = vd->kids[vd->nkids - 1];
      init = cp_host_replace_word(h, cp_arena_strndup(arena(h), text(h) + e->begin, e->end - e->begin),
                                  r->name, err_of(h, r->name));
      v->allocated = 1; /* a copy of an allocated pointer */
    }
  }
  const char *decl = cp_arena_printf(arena(h), "%s%s%s" CP_ERR_SUFFIX " = %s;", type,
                                     n && type[n - 1] == '*' ? "" : " ", v->name, init);
  clang_disposeString(t);
  cp_host_insert_after(h, d, decl, CP_RULE_HOST_PAIR);
}

void cp_convert_host(cp_run *run, cp_func *f) {
  host h;
  cp_host_start(&h, run, f->unit, f);
  cp_mpi_find_uses(&h, f->body);
  walk(&h, f->body);
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    if (!is_paired(v) || v->is_param || v->external)
      continue;
    declare_companion(&h, v);
    const cp_node *d = cp_host_decl_of(f->body, v->decl);
    if (!v->allocated)
      cp_diag_at(run, f->unit, CP_ERROR, d ? d->begin : f->body->begin,
                 "'%s' is paired (a converted kernel writes it) but '%s' does not allocate it "
                 "with cudaMalloc: allocate '%s" CP_ERR_SUFFIX "' the same size, zeroed, and pass it with it "
                 "[%s]", v->name, f->name, v->name, cp_rule_name(CP_RULE_HOST_PAIR));
  }
}

