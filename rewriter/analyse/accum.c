/*
 * accum.c: scope(accumulators): which float locals of a function turn composite.
 *
 * Composite are:
 *   - accumulators: a local summed into (+=, -=, or x = x + ...) inside a loop it is
 *     declared outside of, so the sum runs across iterations;
 *   - reduction trees: a local (usually __shared__) array whose element is assigned from
 *     or summed with elements of the same array, or is the target of an atomicAdd;
 *   - whatever is assigned or initialized from a composite (the sum flows on, e.g. into
 *     0.5f * sum), until nothing changes.
 *   - a copy of a buffer element updated and stored back (v = vel[i]; v += a * dt;
 *     vel[i] = v): the buffer is summed into across launches, as by vel[i] += a * dt;
 * Everything else, the per-term arithmetic, stays float. Parameters keep their types, so
 * a function in this scope keeps its signature.
 *
 * accumulate(fixed|kahan|double), in either scope: the scalar float accumulators (not
 * arrays: a reduction tree's elements move between threads as composites, and a 64-bit
 * fixed-point value does not fit a float pair) are carried as cp_fixed, cp_kahan or
 * double instead of cp_float.
 *
 * --suggest walks every kernel the same way and reports, instead of converting, the
 * places where float loses most: loop-carried sums, reduction trees, float atomics, long
 * chains of dependent additions (which scope(accumulators) does not cover), and buffer
 * elements updated in place in every launch.
 */
#include <string.h>

#include "analyse.h"

typedef struct {
  cp_run *run;
  cp_func *f;
  int changed;
  int carriers; /* mark the scalar accumulators CP_VAR_ACCUM instead of composite */
} acc_ctx;

static cp_var *local_of(acc_ctx *a, const cp_node *n) {
  const cp_node *root = cp_node_root(n, 0);
  if (!root)
    return NULL;
  cp_var *v = cp_var_of(a->f, clang_getCursorReferenced(root->cur));
  return v && !v->is_param && v->group < 0 ? v : NULL;
}

static int references(acc_ctx *a, const cp_node *n, const cp_var *only, int composite_only) {
  if (n->kind == CXCursor_DeclRefExpr) {
    cp_var *v = cp_var_of(a->f, clang_getCursorReferenced(n->cur));
    if (v && (only ? v == only : composite_only && v->role == CP_VAR_COMPOSITE))
      return 1;
  }
  if (n->kind == CXCursor_MemberRefExpr && only && only->is_field &&
      cp_struct_var(a->run, clang_getCursorReferenced(n->cur)) == only)
    return 1; /* p.pos, a struct's pointer field */
  for (unsigned i = 0; i < n->nkids; i++)
    if (references(a, n->kids[i], only, composite_only))
      return 1;
  return 0;
}

/* accumulate(fixed|kahan|double) carries scalar float accumulators only: a float4 one or
 * a struct's member stays a composite pair, said once (a reduction tree's array too, as
 * documented, without a note). */
static void not_carried(acc_ctx *a, cp_var *v) {
  static const char *const names[] = {"composite", "fixed", "kahan", "double"};
  unsigned off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(v->decl), NULL, NULL, NULL, &off);
  cp_rule_diag(a->run, a->f->unit, CP_NOTE, off, CP_RULE_ACCUMULATE,
               "'%s' is summed into, but accumulate(%s) carries scalar float accumulators "
               "only: '%s' (%s) is a composite pair instead", v->name,
               a->f->pragma->accum <= CP_ACC_DOUBLE ? names[a->f->pragma->accum] : "?", v->name,
               v->is_record ? "a struct" : "a vector");
}

static void make_composite(acc_ctx *a, cp_var *v, int *kept) {
  if (a->carriers) {
    if (!v || kept[v - a->f->vars] || (v->role != CP_VAR_COMPOSITE && !v->is_record))
      return;
    if (v->width == 1 && !v->is_record &&
        clang_getCanonicalType(clang_getCursorType(v->decl)).kind == CXType_Float) {
      v->role = CP_VAR_ACCUM;
      v->accum = a->f->pragma->accum;
    } else if (v->is_record || (v->width > 1 && clang_getCanonicalType(clang_getCursorType(
                                                     v->decl)).kind == CXType_Record)) {
      not_carried(a, v);
      kept[v - a->f->vars] = 1; /* said once */
    }
    return;
  }
  if (v && v->role == CP_VAR_FLOAT && !kept[v - a->f->vars]) {
    v->role = CP_VAR_COMPOSITE;
    a->changed = 1;
  }
}

static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
         k == CXCursor_CXXForRangeStmt;
}

static int declared_outside(cp_var *v, const cp_node *loop) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(v->decl), NULL, NULL, NULL, &off);
  return off < loop->begin || off >= loop->end;
}

static void find_sums(acc_ctx *a, const cp_node *n, const cp_node *loop, int *kept) {
  if (is_loop(n->kind))
    loop = n;
  char op[4];
  const char *text = a->f->unit->opt.input_text;
  const cp_node *lhs, *rhs;
  if (cp_node_assignment(text, n, &lhs, &rhs, op)) {
    cp_var *v = local_of(a, lhs);
    int is_array = v && cp_node_strip(lhs)->kind == CXCursor_ArraySubscriptExpr;
    int sum = strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0 ||
              (strcmp(op, "=") == 0 && v && references(a, rhs, v, 0));
    if (v && sum && (is_array || (loop && declared_outside(v, loop))))
      make_composite(a, v, kept);
  }
  if (n->kind == CXCursor_CallExpr && n->nkids >= 2) {
    CXString s = clang_getCursorSpelling(n->cur);
    if (cp_atomic_sign(clang_getCString(s)))
      make_composite(a, local_of(a, n->kids[1]), kept);
    clang_disposeString(s);
  }
  for (unsigned i = 0; i < n->nkids; i++)
    find_sums(a, n->kids[i], loop, kept);
}

static void flow(acc_ctx *a, const cp_node *n, int *kept) {
  char op[4];
  if (n->kind == CXCursor_VarDecl) {
    cp_var *v = cp_var_of(a->f, n->cur);
    for (unsigned i = 0; v && i < n->nkids; i++)
      if (clang_isExpression(n->kids[i]->kind) && references(a, n->kids[i], NULL, 1))
        make_composite(a, v, kept);
  } else {
    const cp_node *lhs, *rhs;
    if (cp_node_assignment(a->f->unit->opt.input_text, n, &lhs, &rhs, op) &&
        references(a, rhs, NULL, 1))
      make_composite(a, local_of(a, lhs), kept);
  }
  for (unsigned i = 0; i < n->nkids; i++)
    flow(a, n->kids[i], kept);
}

/* The declaration of `decl` in the tree `n`; NULL if it is not there. */
static const cp_node *decl_node(const cp_node *n, CXCursor decl) {
  if (n->kind == CXCursor_VarDecl && clang_equalCursors(n->cur, decl))
    return n;
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *d = decl_node(n->kids[i], decl);
    if (d)
      return d;
  }
  return NULL;
}

/* Whether `n` sums into the variable `v` (its fields included): `+=`, `-=`, or an
 * assignment whose right side reads it (v = v + a * dt). */
static int summed_into(acc_ctx *a, const cp_node *n, const cp_var *v) {
  char op[4];
  const cp_node *lhs, *rhs, *root;
  if (cp_node_assignment(a->f->unit->opt.input_text, n, &lhs, &rhs, op) &&
      (root = cp_node_root(lhs, 0)) && cp_var_of(a->f, clang_getCursorReferenced(root->cur)) == v &&
      (strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0 ||
       (strcmp(op, "=") == 0 && references(a, rhs, v, 0))))
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (summed_into(a, n->kids[i], v))
      return 1;
  return 0;
}

/* `buf[i] = p`, where the local `p` was initialized from `buf` and summed into since
 * (float4 p = pos[i]; p.x += dt * v.x; pos[i] = p;): the element is updated in place
 * through a copy. Returns that local, or NULL. */
static cp_var *stored_back(acc_ctx *a, const cp_node *rhs, const cp_var *buf) {
  const cp_node *r = cp_node_strip(rhs);
  if (r->kind != CXCursor_DeclRefExpr)
    return NULL;
  cp_var *local = cp_var_of(a->f, clang_getCursorReferenced(r->cur));
  const cp_node *d = local && !local->is_param ? decl_node(a->f->body, local->decl) : NULL;
  return d && d->nkids && references(a, d->kids[d->nkids - 1], buf, 0) &&
                 summed_into(a, a->f->body, local)
             ? local
             : NULL;
}

/* The buffer an element store `lhs` (rooted at `root`) writes: a buffer parameter, or a
 * pointer field of a struct (p.pos[i] = q, with p passed by value); NULL if neither. */
static cp_var *update_target(acc_ctx *a, const cp_node *lhs, const cp_node *root) {
  cp_var *buf = cp_var_of(a->f, clang_getCursorReferenced(root->cur));
  if (!buf && cp_node_strip(lhs)->kind == CXCursor_ArraySubscriptExpr)
    buf = cp_field_buffer(a->run, lhs);
  return buf && (buf->is_param || buf->is_field) && buf->group >= 0 && !buf->dbl ? buf : NULL;
}

/* scope(accumulators): a buffer element updated in place through a copy is an accumulator
 * across launches (an integrator's velocities: v = vel[i]; v += a * dt; vel[i] = v), so
 * the copy turns composite and the store pairs the buffer, as vel[i] += a * dt does. */
static void find_updates(acc_ctx *a, const cp_node *n, int *kept) {
  char op[4];
  const cp_node *lhs, *rhs, *root;
  cp_var *buf;
  if (cp_node_assignment(a->f->unit->opt.input_text, n, &lhs, &rhs, op) && strcmp(op, "=") == 0 &&
      (root = cp_node_root(lhs, 0)) && (buf = update_target(a, lhs, root)))
    make_composite(a, stored_back(a, rhs, buf), kept);
  for (unsigned i = 0; i < n->nkids; i++)
    find_updates(a, n->kids[i], kept);
}


void cp_find_accumulators(cp_run *run, cp_func *f) {
  int *kept = cp_arena_alloc(run->r->arena, (f->n_vars + 1) * sizeof *kept);
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    /* a float & parameter keeps the caller's type: its signature does not change here */
    kept[i] = (v->group < 0 && v->role == CP_VAR_FLOAT && !v->is_param) || v->is_ref;
    if (v->group < 0)
      v->role = CP_VAR_FLOAT;
  }
  acc_ctx a = {run, f, 0, 0};
  find_sums(&a, f->body, NULL, kept);
  find_updates(&a, f->body, kept);
  do {
    a.changed = 0;
    flow(&a, f->body, kept);
  } while (a.changed);
}

/* Whether the device view of the run carries the local `v` (cp_options.carried). */
static int carried_by_device(const cp_func *f, const cp_var *v) {
  const cp_options *o = &f->unit->opt;
  CXSourceLocation loc = clang_getCursorLocation(v->decl);
  unsigned off = 0;
  if (!o->n_carried || !clang_Location_isFromMainFile(loc))
    return 0;
  clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
  for (size_t i = 0; i < o->n_carried; i++)
    if (o->carried[i] == off)
      return 1;
  return 0;
}

/* The host compilation's view (convert.c) carries what the device view carries: the sum
 * that makes a local an accumulator may sit in a branch on __CUDA_ARCH__ that only the
 * device sees (the warp shuffles), while the host sees the other branch (an old
 * architecture's shared-memory tree, copied back into the local); the edits of both views
 * meet in one output, so the local has one type in both. */
static void carry_as_device(acc_ctx *a) {
  for (unsigned i = 0; i < a->f->n_vars; i++) {
    cp_var *v = &a->f->vars[i];
    if (v->role == CP_VAR_ACCUM || v->is_param || v->group >= 0 || v->width != 1 ||
        v->is_record || !carried_by_device(a->f, v))
      continue;
    v->role = CP_VAR_ACCUM;
    v->accum = a->f->pragma->accum;
  }
}

void cp_mark_carried(cp_run *run, cp_func *f) {
  int *kept = cp_arena_alloc(run->r->arena, (f->n_vars + 1) * sizeof *kept);
  memset(kept, 0, (f->n_vars + 1) * sizeof *kept);
  acc_ctx a = {run, f, 0, 1};
  find_sums(&a, f->body, NULL, kept);
  carry_as_device(&a);
}

/* ---- one value per paired element -------------------------------------------------- */

/* The buffer whose element `n` reads, when that buffer is paired: x[i], pos[i].x,
 * p.pos[i], s->x[i], a paired __device__ symbol's element; NULL for anything else. */
static const cp_var *paired_element(acc_ctx *a, const cp_node *n) {
  n = cp_node_strip(n);
  if (n->kind == CXCursor_MemberRefExpr && n->nkids == 1 &&
      cp_node_strip(n->kids[0])->kind == CXCursor_ArraySubscriptExpr)
    n = cp_node_strip(n->kids[0]); /* pos[i].x */
  if (n->kind != CXCursor_ArraySubscriptExpr)
    return NULL;
  const cp_var *v = cp_field_buffer(a->run, n);
  if (!v) {
    const cp_node *root = cp_node_root(n, 0);
    CXCursor decl = root ? clang_getCursorReferenced(root->cur) : clang_getNullCursor();
    if (!(v = cp_var_of(a->f, decl)) && root)
      v = cp_symbol_of(a->run, decl);
  }
  if (!v || v->dbl || v->group < 0 || v->role == CP_VAR_UNPAIRED ||
      (!v->is_field && cp_nopair_named(a->run, a->f, v)))
    return NULL;
  int g = v->group;
  while (a->run->group_parent[g] != g)
    g = a->run->group_parent[g];
  return a->run->group_paired[g] ? v : NULL;
}

/* Whether `n` is the value of paired elements as read, nothing computed from it: an
 * element (or its member), a composite local, or make_floatN of such values and
 * constants with at least one element in it. */
static int pair_copy(acc_ctx *a, const cp_node *n, int *element) {
  n = cp_node_strip(n);
  if (n->kind == CXCursor_CallExpr && n->nkids == 1 &&
      clang_getCursorKind(clang_getCursorReferenced(n->cur)) == CXCursor_Constructor)
    n = cp_node_strip(n->kids[0]); /* float4 q = pos[i]: a copy construction */
  if (paired_element(a, n))
    return *element = 1;
  if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr) {
    const cp_node *root = cp_node_root(n, 0);
    const cp_var *v = root ? cp_var_of(a->f, clang_getCursorReferenced(root->cur)) : NULL;
    return v && !v->is_param && v->group < 0 && v->role == CP_VAR_COMPOSITE;
  }
  if (n->kind == CXCursor_FloatingLiteral || n->kind == CXCursor_IntegerLiteral)
    return 1;
  CXString s = clang_getCursorSpelling(n->cur);
  int make = n->kind == CXCursor_CallExpr &&
             strncmp(clang_getCString(s), "make_float", 10) == 0;
  clang_disposeString(s);
  int ok = make, any = 0;
  int nargs = make ? cp_num_args(n->cur) : 0;
  for (int i = 0; ok && i < nargs; i++)
    ok = pair_copy(a, cp_call_arg(n, nargs, i), &any);
  if (ok && any)
    *element = 1;
  return ok;
}

/* Whether the address of `v` is taken in `n` (&v, &v.x): a float * or float & may expect
 * the float, so v stays as it is. */
static int address_taken(acc_ctx *a, const cp_node *n, const cp_var *v) {
  char op[4];
  if (n->kind == CXCursor_UnaryOperator && n->nkids == 1 &&
      strcmp(cp_node_operator(a->f->unit->opt.input_text, n, op), "&") == 0 &&
      references(a, n->kids[0], v, 0))
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (address_taken(a, n->kids[i], v))
      return 1;
  return 0;
}

/* A float local (or local array, a __shared__ tile) given the value of a paired element
 * as it is: turns composite, so that it and every other read of that element give the
 * same value. Rounded here and read whole elsewhere, x[i] - x[i] would be the error term
 * instead of 0 (a force loop over all j, r2 > 0 skipping the atom itself). */
static void copy_into(acc_ctx *a, cp_var *v, const cp_node *value) {
  int element = 0;
  if (!v || v->is_param || v->group >= 0 || v->role != CP_VAR_FLOAT || v->dbl || v->bound ||
      (value && (!pair_copy(a, value, &element) || !element)) ||
      (a->f->pragma && cp_names_contain(a->f->pragma->keep, a->f->pragma->n_keep, v->name)) ||
      address_taken(a, a->f->body, v))
    return;
  v->role = CP_VAR_COMPOSITE;
  a->changed = 1;
}

/* `float xi = x[i], qi = q[i];`: one declaration, one type; where one of its variables
 * turned composite, the others do too (a float value enters a composite exactly). */
static void same_declaration(acc_ctx *a, const cp_node *stmt) {
  int composite = 0;
  for (unsigned i = 0; i < stmt->nkids; i++) {
    cp_var *v = cp_var_of(a->f, stmt->kids[i]->cur);
    composite |= v && v->group < 0 && !v->is_record && v->role == CP_VAR_COMPOSITE;
  }
  for (unsigned i = 0; composite && i < stmt->nkids; i++)
    copy_into(a, cp_var_of(a->f, stmt->kids[i]->cur), NULL);
}

static void find_copies(acc_ctx *a, const cp_node *n) {
  char op[4];
  const cp_node *lhs, *rhs;
  if (n->kind == CXCursor_DeclStmt && n->nkids > 1) {
    for (unsigned i = 0; i < n->nkids; i++)
      find_copies(a, n->kids[i]);
    same_declaration(a, n);
    return;
  }
  if (n->kind == CXCursor_VarDecl && n->nkids &&
      clang_isExpression(n->kids[n->nkids - 1]->kind))
    copy_into(a, cp_var_of(a->f, n->cur), n->kids[n->nkids - 1]);
  else if (cp_node_assignment(a->f->unit->opt.input_text, n, &lhs, &rhs, op) &&
           strcmp(op, "=") == 0)
    copy_into(a, local_of(a, lhs), rhs);
  for (unsigned i = 0; i < n->nkids; i++)
    find_copies(a, n->kids[i]);
}

int cp_read_pairs_once(cp_run *run, cp_func *f) {
  acc_ctx a = {run, f, 1, 0};
  int changed = 0;
  while (a.changed) {
    a.changed = 0;
    find_copies(&a, f->body);
    changed |= a.changed;
  }
  return changed;
}

/* ---- --suggest: where float loses most ------------------------------------------------ */

/* The same walk as find_sums, reporting instead of converting: every function of the
 * file, annotated or not, is looked at; the first sum into each variable is reported. */
typedef struct {
  acc_ctx a;
  size_t index;             /* the function's row in result->funcs */
  const cp_var **seen;      /* variables already reported */
  unsigned n_seen, cap_seen;
} hot_ctx;

enum { CHAIN_MIN = 4 }; /* dependent additions in one expression worth reporting */

const char *cp_hotspot_name(cp_hotspot_kind k) {
  static const char *const names[] = {"loop-sum", "reduction-tree", "atomic", "chain",
                                      "buffer-update"};
  return k <= CP_HOT_UPDATE ? names[k] : "?";
}

static void add_hotspot(hot_ctx *h, const cp_node *n, cp_hotspot_kind kind, const char *reason) {
  cp_result *r = h->a.run->r;
  if (r->n_hotspots == r->cap_hotspots) {
    r->cap_hotspots = r->cap_hotspots ? 2 * r->cap_hotspots : 16;
    r->hotspots = cp_arena_grow(r->arena, r->hotspots, r->n_hotspots, r->cap_hotspots,
                                sizeof *r->hotspots);
  }
  unsigned line, col;
  cp_position(h->a.run, h->a.f->unit, n->begin, &line, &col);
  r->hotspots[r->n_hotspots++] = (cp_hotspot){h->index, kind, line, col, reason,
                                              kind != CP_HOT_CHAIN};
}

/* Whether `v` is reported already; marks it if not. */
static int seen(hot_ctx *h, const cp_var *v) {
  for (unsigned i = 0; i < h->n_seen; i++)
    if (h->seen[i] == v)
      return 1;
  if (h->n_seen == h->cap_seen) {
    h->cap_seen = h->cap_seen ? 2 * h->cap_seen : 16;
    h->seen = cp_arena_grow(h->a.run->r->arena, h->seen, h->n_seen, h->cap_seen,
                            sizeof *h->seen);
  }
  h->seen[h->n_seen++] = v;
  return 0;
}

static int is_float_sum(hot_ctx *h, const cp_node *n) {
  char op[4];
  if (n->kind != CXCursor_BinaryOperator || n->macro ||
      clang_getCanonicalType(clang_getCursorType(n->cur)).kind != CXType_Float)
    return 0;
  cp_node_operator(h->a.f->unit->opt.input_text, n, op);
  return strcmp(op, "+") == 0 || strcmp(op, "-") == 0;
}

/* The number of float additions chained in `n`. */
static unsigned chain_length(hot_ctx *h, const cp_node *n) {
  n = cp_node_strip(n);
  if (!is_float_sum(h, n) || n->nkids < 2)
    return 0;
  return 1 + chain_length(h, n->kids[0]) + chain_length(h, n->kids[1]);
}

static const cp_node *parent_expr(const cp_node *n) {
  const cp_node *p = n->parent;
  while (p && (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr))
    p = p->parent;
  return p;
}

/* A buffer parameter's element updated in place: every launch adds to what the last
 * launch left (an integrator's positions and velocities), so the rounding errors add up
 * over the launches. Pairing the buffer carries them from one launch to the next;
 * scope(accumulators) does that too (find_updates). */
static void hot_update(hot_ctx *h, const cp_node *n, const cp_var *v) {
  if (!seen(h, v))
    add_hotspot(h, n, CP_HOT_UPDATE,
                cp_arena_printf(h->a.run->r->arena, "'%s[...]' is read, updated and written "
                                "back in every launch: its rounding errors add up over the "
                                "launches", v->name));
}

/* An assignment that sums into a float local or buffer element: a loop-carried sum, a
 * reduction tree, or a buffer element updated in place. */
static void hot_assignment(hot_ctx *h, const cp_node *n, const cp_node *loop) {
  char op[4];
  const cp_node *lhs, *rhs, *root;
  if (!cp_node_assignment(h->a.f->unit->opt.input_text, n, &lhs, &rhs, op) ||
      !(root = cp_node_root(lhs, 0)))
    return;
  cp_var *v = cp_var_of(h->a.f, clang_getCursorReferenced(root->cur));
  if (!v && cp_node_strip(lhs)->kind != CXCursor_DeclRefExpr)
    v = cp_field_buffer(h->a.run, lhs); /* p.pos[i], p.pos[i].x */
  if (!v || v->dbl)
    return;
  int buffer = (v->is_param || v->is_field) && v->group >= 0;
  if (strcmp(op, "+=") != 0 && strcmp(op, "-=") != 0 &&
      !(strcmp(op, "=") == 0 && references(&h->a, rhs, v, 0))) {
    if (buffer && strcmp(op, "=") == 0 && stored_back(&h->a, rhs, v))
      hot_update(h, n, v);
    return;
  }
  int element = cp_node_strip(lhs)->kind == CXCursor_ArraySubscriptExpr;
  if (element && !v->is_param && v->group < 0 && references(&h->a, rhs, v, 0) && !seen(h, v))
    add_hotspot(h, n, CP_HOT_TREE,
                cp_arena_printf(h->a.run->r->arena, "'%s' is a reduction tree: partial sums of "
                                "growing size are added in float", v->name));
  else if (loop && declared_outside(v, loop) && !seen(h, v))
    add_hotspot(h, n, CP_HOT_LOOP_SUM,
                cp_arena_printf(h->a.run->r->arena, "'%s%s' is summed into across the "
                                "iterations of a loop: each term loses the bits below the "
                                "sum's last", v->name, element ? "[...]" : ""));
  else if (!loop && buffer)
    hot_update(h, n, v);
}

static void find_hot(hot_ctx *h, const cp_node *n, const cp_node *loop) {
  if (is_loop(n->kind))
    loop = n;
  hot_assignment(h, n, loop);
  if (n->kind == CXCursor_CallExpr && n->nkids >= 3 &&
      clang_getCanonicalType(clang_getCursorType(n->cur)).kind == CXType_Float) {
    CXString s = clang_getCursorSpelling(n->cur);
    const cp_node *target = cp_node_root(n->kids[1], 1);
    CXString t = clang_getCursorSpelling(target ? target->cur : clang_getNullCursor());
    if (cp_atomic_sign(clang_getCString(s)))
      add_hotspot(h, n, CP_HOT_ATOMIC,
                  cp_arena_printf(h->a.run->r->arena, "float %s%s%s%s: every addition rounds, "
                                  "and the order the threads arrive in changes the sum",
                                  clang_getCString(s), target ? " into '" : "",
                                  clang_getCString(t), target ? "'" : ""));
    clang_disposeString(s);
    clang_disposeString(t);
  }
  unsigned chain = is_float_sum(h, n) && !is_float_sum(h, parent_expr(n) ? parent_expr(n) : n)
                       ? chain_length(h, n) : 0;
  if (chain >= CHAIN_MIN)
    add_hotspot(h, n, CP_HOT_CHAIN,
                cp_arena_printf(h->a.run->r->arena, "a chain of %u dependent float additions: "
                                "their rounding errors add up", chain));
  for (unsigned i = 0; i < n->nkids; i++)
    find_hot(h, n->kids[i], loop);
}

void cp_find_hotspots(cp_run *run, cp_func *f, size_t index) {
  hot_ctx h = {{run, f, 0, 0}, index, NULL, 0, 0};
  if (f->body && !f->dbl)
    find_hot(&h, f->body, NULL);
}
