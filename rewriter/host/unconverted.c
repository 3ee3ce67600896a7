/*
 * unconverted.c: paired buffers handed to functions cpconvert does not convert.
 *
 * A launch of an unannotated kernel or a call of a host helper or library function that
 * takes a paired buffer (or a struct with paired fields) is not rewritten: the callee sees
 * the values without their error terms. Where that loses or corrupts something, a warning
 * says what to do: the callee writes the buffer (its companion goes stale), its body is not
 * in the run's inputs, it hands the buffer to MPI or NCCL, it only reads values (a library
 * call), or it computes from the values something converted code computes from the pairs
 * with the same helper (a cell index), so that the two can disagree.
 */
#include <string.h>

#include "state.h"

typedef struct {
  cp_run *run;
  CXCursor found;
} shared_ctx;

/* An integer type, or a struct of integers (int3): a discrete result, such as a cell. */
static int discrete(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind >= CXType_Char_U && t.kind <= CXType_Int128 && t.kind != CXType_Bool)
    return 1;
  CXCursor fields[8];
  unsigned n = t.kind == CXType_Record ? cp_record_fields(t, fields, 8) : 0;
  for (unsigned i = 0; i < n; i++)
    if (!discrete(clang_getCursorType(fields[i])))
      return 0;
  return n > 0;
}

static enum CXChildVisitResult find_shared(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  shared_ctx *s = data;
  if (clang_getCursorKind(c) == CXCursor_CallExpr && discrete(clang_getCursorType(c))) {
    CXCursor ref = clang_getCursorReferenced(c);
    if (!clang_Cursor_isNull(ref) && cp_func_of(s->run, ref)) {
      s->found = ref;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

/* A function returning a discrete result (an integer, an int3) that converted code calls
 * too (converted, or given a converted copy) and that the unconverted `fn` calls directly:
 * both derive it, `fn` from float values and converted code from pairs, and may disagree.
 * A helper of a continuous result (a minimum-image shift of a distance in a neighbour-list
 * build) is only less precise there. Null if none, or if fn's body is not visible. */
static CXCursor shared_helper(cp_run *run, CXCursor fn) {
  shared_ctx s = {run, clang_getNullCursor()};
  CXCursor def = clang_Cursor_isNull(fn) ? fn : clang_getCursorDefinition(fn);
  if (!clang_Cursor_isNull(def) && !cp_func_of(run, def))
    clang_visitChildren(def, find_shared, &s);
  return s.found;
}

/* The warning for a kernel that derives from a paired buffer's values what converted code
 * derives from the pairs (the SPH code's hash kernel binning particles into cells that
 * converted kernels search): 1 if given. */
static int shared_warning(host *h, cp_node *call, const char *name, const cp_var *v) {
  CXCursor helper = shared_helper(h->run, cp_callee(call->cur));
  if (clang_Cursor_isNull(helper))
    return 0;
  cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
             "paired buffer '%s' is passed to '%s', which is not converted but calls '%s', as "
             "converted code does: '%s' computes it from the values without their error terms "
             "and converted code from the pairs, so the two can disagree on what both derive (a "
             "cell or an index, where a pair lies just below a boundary its float rounds onto) "
             "and the program can end farther from double than float's; annotate '%s' too [%s]",
             v->name, name, spelling_of(h, helper), name, name, cp_rule_name(CP_RULE_HOST_PAIR));
  return 1;
}

/* Whether parameter i of the function `call` calls is a pointer to const: the callee can
 * only read through it, so the companion needs no care. */
static int reads_only(cp_node *call, int i) {
  CXCursor fn = cp_callee(call->cur);
  if (clang_Cursor_isNull(fn) || i >= cp_num_args(fn))
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(cp_arg(fn, i)));
  return t.kind == CXType_Pointer && clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* A paired buffer passed to a function that is not converted, through a pointer that is
 * not to const: quiet if the function's body is in the run's inputs and never writes
 * through that parameter; a warning if it writes (its error term is not updated), if it
 * shares a helper of a discrete result with converted code (shared_warning) or if its body
 * is not visible (to annotate it, for a kernel; to recombine first, for anything else). */
static void unfollowed_call(host *h, cp_node *call, const char *name, const cp_var *v, int i) {
  int visible;
  const cp_node *w = cp_param_write(h->run, cp_callee(call->cur), i, &visible);
  if (visible && w) {
    cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
               "paired buffer '%s' is passed to '%s', which writes it but is not converted: "
               "its error term is not updated; zero %s" CP_ERR_SUFFIX " after it, or convert '%s' [%s]",
               v->name, name, v->name, name, cp_rule_name(CP_RULE_HOST_PAIR));
    return;
  }
  if (shared_warning(h, call, name, v) || visible)
    return;
  int kernel = cp_cuda_kind(clang_getCursorReferenced(call->cur)) == 2;
  cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
             "paired buffer '%s' is passed to '%s', which cpconvert does not convert: it "
             "works on the values without their error terms (%s if it computes with them), "
             "and if it writes the buffer, zero %s" CP_ERR_SUFFIX " after it [%s]",
             v->name, name, kernel ? "annotate it" : "recombine them first", v->name,
             cp_rule_name(CP_RULE_HOST_PAIR));
}

/* The first paired pointer field of the struct type `t`, or of a struct it holds by value
 * (`atoms.r.x` of an AtomsGpu holding vec_t r), that `call`'s callee writes; NULL if none.
 * *path: its name, with the type that declares it where that is a struct held inside
 * (`x' of a 'vec_t`: which of the vec_t fields of `t` is written, cpconvert does not tell). */
static cp_var *written_field(host *h, cp_node *call, CXType t, int param, int depth, const char **path,
                             CXCursor *field) {
  CXCursor fields[64];
  unsigned n = t.kind == CXType_Record && depth < 4 ? cp_record_fields(t, fields, 64) : 0;
  for (unsigned k = 0; k < n; k++) {
    CXType ft = clang_getCanonicalType(clang_getCursorType(fields[k]));
    const char *inner = NULL;
    cp_var *f = ft.kind == CXType_Record ? written_field(h, call, ft, param, depth + 1, &inner, field)
                                         : cp_field_var(h->run, fields[k]);
    if (is_paired(f) && (ft.kind == CXType_Record ||
                         cp_field_write(h->run, cp_callee(call->cur), fields[k], param))) {
      *path = inner ? inner /* the field, named with the struct type that declares it */
                    : depth ? cp_arena_printf(arena(h), "%s' of a '%s", f->name,
                                              cp_cursor_spelling(arena(h), clang_getTypeDeclaration(t)))
                            : f->name;
      if (ft.kind != CXType_Record)
        *field = fields[k];
      return f;
    }
  }
  return NULL;
}

/* The warning for an unconverted kernel that copies values into the paired field it writes
 * (struct_field_writes): a cell update moving atoms (r.x[j] = r.x[i]), a warp shuffle within
 * a cell, a message unpacked into the atoms. The moved value
 * lands beside the error term of what the element held before, so value and error belong
 * to different numbers, and two copies of one value, equal in float, differ as pairs: a
 * force loop's `r2 > 0` self test lets an atom's duplicate through at a distance of its
 * error terms, and the force is infinite (CoMD-CUDA, three kernels annotated: a host crash
 * after the positions overflowed). The copy is named in the message: a note would sort
 * before its warning where the kernel comes first in the file. 1 if given. */
static int copy_warning(host *h, cp_node *call, const char *name, const char *path,
                        const cp_var *f, CXCursor field, int param) {
  const cp_node *store = clang_Cursor_isNull(field)
                             ? NULL
                             : cp_field_copy(h->run, cp_callee(call->cur), field, param);
  if (!store)
    return 0;
  CXFile file;
  unsigned line, col;
  clang_getExpansionLocation(clang_getCursorLocation(store->cur), &file, &line, &col, NULL);
  CXString fname = clang_getFileName(file);
  const char *where = cp_arena_strdup(arena(h), clang_getCString(fname));
  clang_disposeString(fname);
  while (where[0] == '.' && where[1] == '/') /* as diagnostics name a header */
    where += 2;
  cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
             "'%s' is not converted and copies values into the paired field '%s' of the "
             "struct passed to it without their error terms (%s:%u:%u): each copied value "
             "lands beside the error term of what the element held before, another value's, "
             "and two copies of one value, equal in float, differ as pairs (a test such as "
             "r2 > 0 that skips an atom itself then lets its copy through, at a distance of "
             "their error terms); convert '%s' too (annotate it) so the error terms move with "
             "the values, or zero %s" CP_ERR_SUFFIX " after it [%s]",
             name, path, where, line, col, name, f->name, cp_rule_name(CP_RULE_HOST_PAIR));
  return 1;
}

/* A struct handed to a function that is not converted (by value or through a pointer),
 * whose paired pointer field that function writes (`wrap<<<g, b>>>(s, L)` storing into
 * s.x[i], or into s.r.x[i] through a struct field): the companion is left stale there,
 * silently before. */
static void struct_field_writes(host *h, cp_node *call, const char *name, int i,
                                const cp_node *arg) {
  const cp_node *a = cp_node_strip(arg);
  while (a->kind == CXCursor_CallExpr && a->nkids &&
         clang_getCursorKind(clang_getCursorReferenced(a->cur)) == CXCursor_Constructor)
    a = cp_node_strip(a->kids[a->nkids - 1]); /* the copy a by-value argument makes */
  if (a->kind == CXCursor_DeclRefExpr &&
      cp_host_unpaired_instance(h, clang_getCursorReferenced(a->cur)))
    return; /* no companions to go stale */
  CXType t = clang_getCanonicalType(clang_getCursorType(arg->cur));
  int param = t.kind == CXType_Record ? i : -1;
  if (t.kind == CXType_Pointer)
    t = clang_getCanonicalType(clang_getPointeeType(t));
  const char *path = NULL;
  CXCursor field = clang_getNullCursor();
  cp_var *f = written_field(h, call, t, param, 0, &path, &field);
  if (f && copy_warning(h, call, name, path, f, field, param))
    return;
  if (f)
    cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
               "'%s' is not converted and writes the paired field '%s' of the struct passed "
               "to it: the field's error term is not updated there, so its companion goes "
               "stale; convert '%s' too (annotate it), or zero %s" CP_ERR_SUFFIX " after it [%s]",
               name, path, name, f->name, cp_rule_name(CP_RULE_HOST_PAIR));
}

/* --profile: the `unconverted` sites of the call (`forms`, one cp_prof_count per buffer) run
 * before it: in a launch, with its grid; else the call becomes `(forms, call)`, where it is
 * a call of a function written out (not a constructor's, whose text is a declaration). */
static void profile_unconverted(host *h, cp_node *call, const char *forms) {
  enum CXCursorKind k = clang_getCursorKind(cp_callee(call->cur));
  if (!*forms || call->macro || cp_host_prof_grid(h, call, forms))
    return;
  if (cp_cuda_kind(cp_callee(call->cur)) == 2 ||
      (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate))
    return;
  cp_edit_add(arena(h), &h->u->edits, call->begin, 0, cp_arena_printf(arena(h), "(%s, ", forms),
              CP_RULE_PROFILE);
  cp_edit_add(arena(h), &h->u->edits, call->end, 0, ")", CP_RULE_PROFILE);
}

/* Calls that take a paired buffer and are none of the above (a host helper, a library
 * template such as thrust::device_ptr or thrust::reduce, a method): cpconvert cannot know
 * what they do with it. One that only reads (a pointer to const) still reads values
 * without their error terms: a warning too, except for the CUDA runtime's own calls
 * (prefetch, attributes), which do not compute with the values (its other copies,
 * cudaMemcpy2D and the like, do warn: they copy values without their errors), and for
 * kernels left unconverted on purpose (a neighbour-list build reads positions in float)
 * unless they share a helper with converted code (shared_warning). */
void cp_host_other_call(host *h, cp_node *call, const char *name) {
  int nargs = cp_num_args(call->cur);
  cp_var *seen[16]; /* one warning per buffer: thrust::for_each(y, y + n, f) names y twice */
  int n_seen = 0;
  const char *forms = "", *site; /* --profile: a site per buffer */
  for (int i = 0; i < nargs; i++) {
    struct_field_writes(h, call, name, i, cp_call_arg(call, nargs, i));
    cp_var *v = cp_host_root(h, cp_call_arg(call, nargs, i));
    if (!is_paired(v))
      continue;
    int again = 0;
    for (int k = 0; k < n_seen; k++)
      again |= seen[k] == v;
    if (again)
      continue;
    if (n_seen < 16)
      seen[n_seen++] = v;
    if ((strncmp(name, "cuda", 4) != 0 || strncmp(name, "cudaMemcpy", 10) == 0) &&
        (site = cp_prof_site(h->run, h->u, call->begin, h->f->name, "unconverted", v->name,
                             cp_arena_printf(arena(h), "\"call\":%s",
                                             cp_json_quote(arena(h), name)))))
      forms = cp_arena_printf(arena(h), "%s%scp_prof_count(%s, 0)", forms, *forms ? ", " : "",
                              site);
    if (strncmp(name, "MPI_", 4) == 0 || strncmp(name, "nccl", 4) == 0)
      cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
                 "paired buffer '%s' is handed to '%s' directly: the message or reduction "
                 "moves its values without their error terms, which are dropped there; copy "
                 "it to a host buffer first (cpconvert keeps the errors through MPI_Send, "
                 "MPI_Recv, MPI_Sendrecv, MPI_Allreduce and MPI_Reduce of that buffer), or "
                 "for NCCL reduce recombined values as ncclDouble [%s]",
                 v->name, name, cp_rule_name(CP_RULE_MPI));
    else if (!reads_only(call, i))
      unfollowed_call(h, call, name, v, i);
    else if (cp_cuda_kind(clang_getCursorReferenced(call->cur)) == 2) /* a kernel that reads: */
      shared_warning(h, call, name, v); /* its own precision, unless it shares a helper */
    else if (strncmp(name, "cuda", 4) != 0 || strncmp(name, "cudaMemcpy", 10) == 0)
      cp_diag_at(h->run, h->u, CP_WARNING, call->begin,
                 "paired buffer '%s' is read by '%s', which cpconvert does not convert: it "
                 "reads the values without their error terms, which are dropped there "
                 "(recombine into a buffer of its own first, e.g. with cp_recombine) [%s]",
                 v->name, name, cp_rule_name(CP_RULE_HOST_PAIR));
  }
  profile_unconverted(h, call, forms);
}

/* The line of `offset` in the unit's text, for a message that names a second place. */
static unsigned line_of(host *h, unsigned offset) {
  unsigned line = 1;
  for (unsigned i = 0; i < offset && text(h)[i]; i++)
    line += text(h)[i] == '\n';
  return line;
}

/* The function a lambda is handed to as an argument (`for_each<<<g, b>>>(n, [=] ...)`,
 * `thrust::for_each(..., [] ...)`), through implicit conversions; "" if none. */
static const char *lambda_callee(host *h, const cp_node *lambda) {
  const cp_node *p = lambda->parent;
  while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_ParenExpr))
    p = p->parent;
  if (!p || p->kind != CXCursor_CallExpr)
    return "";
  CXCursor ref = clang_getCursorReferenced(p->cur);
  return spelling_of(h, clang_Cursor_isNull(ref) ? cp_callee(p->cur) : ref);
}

/* The first store in `n` (a lambda's body) into a paired buffer or paired field that the
 * lambda captures; *v its variable. A call of the CUDA runtime does not count (a host
 * lambda that allocates: host.c follows that call itself). */
static const cp_node *paired_store(host *h, const cp_node *body, const cp_node *n, cp_var **v) {
  if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr) {
    cp_var *r = cp_host_root(h, n);
    const cp_node **w = NULL;
    unsigned k = is_paired(r) ? cp_find_writes(arena(h), text(h), body,
                                               clang_getCursorReferenced(n->cur), 0, &w)
                              : 0;
    for (unsigned i = 0; i < k; i++)
      if (w[i]->kind != CXCursor_CallExpr ||
          strncmp(spelling_of(h, clang_getCursorReferenced(w[i]->cur)), "cuda", 4) != 0) {
        *v = r;
        return w[i];
      }
  }
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *s = paired_store(h, body, n->kids[i], v);
    if (s)
      return s;
  }
  return NULL;
}

/* A lambda in host code that stores into a paired buffer it captures (a device lambda
 * given to a generic kernel template, `for_each<<<g, b>>>(n, [=] __device__ (int i) {
 * v[i] *= s; })`, or to thrust::for_each): cpconvert does not convert lambdas, so the
 * store writes the value and leaves the companion stale. */
void cp_host_lambda(host *h, const cp_node *lambda) {
  if (lambda->kind != CXCursor_LambdaExpr || !lambda->nkids)
    return;
  const cp_node *body = lambda->kids[lambda->nkids - 1];
  cp_var *v = NULL;
  const cp_node *w = body->kind == CXCursor_CompoundStmt ? paired_store(h, body, body, &v) : NULL;
  if (!w)
    return;
  const char *callee = lambda_callee(h, lambda);
  cp_diag_at(h->run, h->u, CP_WARNING, lambda->begin,
             "this lambda%s%s%s writes paired buffer '%s' (line %u) but is not converted: "
             "cpconvert does not convert lambdas, so the store writes the value without its "
             "error term and %s" CP_ERR_SUFFIX " goes stale; move the update into an annotated "
             "kernel, or zero %s" CP_ERR_SUFFIX " after it [%s]",
             *callee ? ", given to '" : "", callee, *callee ? "'," : "", v->name,
             line_of(h, w->begin), v->name, v->name, cp_rule_name(CP_RULE_HOST_PAIR));
}
