/*
 * analyse.c: the role of every variable and parameter of every converted function.
 *
 * Passes, over all converted functions together, in the order cp_analyse runs them:
 *   1. collect the float pointer fields of structs and file-scope pointers; then each
 *      function's parameters and locals with a float type (float, floatN, arrays of them,
 *      pointers to them), its precision (float or double); apply keep(), check that every
 *      clause names something real; pair() and --pair mark their groups paired;
 *   2. scope(accumulators): only accumulators, and what flows from them, turn composite
 *      (before the calls: a cp_float * parameter needs the roles);
 *   3. follow calls between converted functions: a `float *` parameter that receives the
 *      address of a converted local becomes `cp_float *`; a buffer passed on joins the
 *      callee's parameter in one pairing group (union-find); callers and callees agree
 *      on such parameters;
 *   4. host code: copies of pointers and addresses of symbols join groups; then writes
 *      into buffers (stores, compound assignments, ++/--, atomics, calls that write), and
 *      scope(accumulators)'s plain stores, which pair only if they store a composite;
 *   5. a group is paired when any member is written or named in pair(); nopair() on a
 *      member of a paired group is an error; keep() variables whose address converting
 *      code takes are refused;
 *   6. accumulate(): how each accumulator is carried; callers and callees agree again.
 * Pairing is a property of the buffer, not of one function: a kernel that only reads a
 * buffer that another converted function writes through the same call chain still takes
 * the companion.
 * Whether a converted function's signature changes is decided here too, since host.c and
 * function.c both need it (callers must pass companions). Pass 1 is variables.c's.
 */
#include <string.h>

#include "analyse.h"

/* ---- pairing groups ---------------------------------------------------------------- */

static int find_group(cp_run *run, int g) {
  while (run->group_parent[g] != g)
    g = run->group_parent[g] = run->group_parent[run->group_parent[g]];
  return g;
}

int cp_group_root(cp_run *run, int g) { return find_group(run, g); }

static void join_groups(cp_run *run, int a, int b) {
  a = find_group(run, a);
  b = find_group(run, b);
  if (a != b) {
    run->group_parent[a] = b;
    run->group_paired[b] |= run->group_paired[a];
  }
}

static cp_var *var_of_node(cp_func *f, const cp_node *ref) {
  return ref ? cp_var_of(f, clang_getCursorReferenced(ref->cur)) : NULL;
}

/* A variable of `f`, or the device symbol the node names (kernels write symbols). */
static cp_var *var_or_symbol(cp_run *run, cp_func *f, const cp_node *ref) {
  cp_var *v = var_of_node(f, ref);
  return v || !ref ? v : cp_symbol_of(run, clang_getCursorReferenced(ref->cur));
}

static int is_atomic(const char *name) {
  return strncmp(name, "atomic", 6) == 0;
}

/* The local whose float `&x` takes: x itself, or the vector local v of `&v.y` (a member
 * of a cp_float3 is a cp_float); NULL for anything else. */
static cp_var *addressed_local(cp_func *f, const cp_node *x) {
  x = cp_node_strip(x);
  if (x->kind == CXCursor_MemberRefExpr && x->nkids == 1 &&
      cp_type_width(clang_getCursorType(x->cur), f->dbl) == 1) {
    cp_var *v = var_of_node(f, cp_node_strip(x->kids[0]));
    return v && v->width > 1 && !v->is_param ? v : NULL;
  }
  return var_of_node(f, x);
}

/* Whether a variable is an array of the function's own (`__shared__ float s[BLOCK]`). */
static int local_array(const cp_var *v) {
  enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(v->decl)).kind;
  return !v->is_param && (k == CXType_ConstantArray || k == CXType_DependentSizedArray ||
                          k == CXType_IncompleteArray || k == CXType_VariableArray);
}

/* Pass 2: calls between converted functions. */
static void follow_calls(cp_run *run, cp_func *f, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    follow_calls(run, f, n->kids[i]);
  if (n->kind != CXCursor_CallExpr)
    return;
  cp_func *callee = cp_func_of(run, cp_callee(n->cur));
  if (!callee)
    return;
  const char *text = f->unit->opt.input_text;
  int nargs = cp_num_args(n->cur);
  for (int i = 0; i < nargs && i < cp_num_args(callee->cursor); i++) {
    cp_var *param = cp_var_of(callee, cp_arg(callee->cursor, (unsigned)i));
    const cp_node *arg = cp_call_arg(n, nargs, i);
    if (!param || param->group < 0)
      continue;
    const cp_node *a = cp_node_strip(arg);
    char op[4];
    if (a->kind == CXCursor_UnaryOperator && strcmp(cp_node_operator(text, a, op), "&") == 0) {
      cp_var *local = addressed_local(f, a->kids[0]);
      if (local && local->group < 0 && local->role == CP_VAR_COMPOSITE) {
        param->role = CP_VAR_OUTPTR;
        continue;
      }
      if (local && local->group < 0) { /* a float local's address: a float out-parameter */
        if (param->role != CP_VAR_OUTPTR)
          param->role = CP_VAR_UNPAIRED;
        continue;
      }
    }
    cp_var *buf = f->is_host ? cp_host_buffer(run, f, arg) : var_or_symbol(run, f, cp_node_root(arg, 0));
    if (buf && buf->group < 0 && buf->role == CP_VAR_COMPOSITE && local_array(buf)) {
      param->role = CP_VAR_OUTPTR; /* a composite array (__shared__ cp_float s[N]): cp_float * */
      continue;
    }
    if (buf && buf->group < 0 && local_array(buf)) { /* a float array (keep()): float * */
      if (param->role != CP_VAR_OUTPTR)
        param->role = CP_VAR_UNPAIRED;
      continue;
    }
    if (buf && buf->group >= 0)
      join_groups(run, buf->group, param->group);
  }
}

/* Pass 2c: a `float *` parameter that receives a composite local's address in one call
 * (CP_VAR_OUTPTR, `cp_float *`) must receive one in every call, and a helper's float &
 * parameter that converts (cp_float &) a composite: a local whose address is passed
 * there, or that is passed to the reference, turns composite, whatever its own scope made of it (a per-term float in
 * scope(accumulators), a cp_fixed accumulator in accumulate(fixed)), so that parameter
 * types and call sites agree. */
static int is_kept(const cp_func *f, const cp_var *v) {
  return f->pragma && cp_names_contain(f->pragma->keep, f->pragma->n_keep, v->name);
}

/* f(x) where f's float & parameter stays float (f converts in scope(accumulators), with
 * its signature unchanged): a float & cannot bind a composite, so x stays float, and
 * the precision it had is lost there: a warning. */
static void bound_both(cp_run *run, cp_func *f, cp_var *local, const cp_node *at) {
  if (local->bound == 3)
    return;
  local->bound = 3;
  cp_rule_diag(run, f->unit, CP_ERROR, at->begin, CP_RULE_UNSUPPORTED_USE,
               "'%s' is bound to a float & parameter that stays float and, in another call of "
               "'%s', to one that takes a composite (cp_float & or cp_float *): it cannot be "
               "both; use two variables", local->name, f->name);
}

static void keep_float_ref(cp_run *run, cp_func *f, const cp_func *callee, cp_var *local,
                           const cp_node *at) {
  if (!local || local->group >= 0)
    return;
  if (local->bound >= 2) {
    bound_both(run, f, local, at);
    return;
  }
  local->bound = 1;
  if (local->role == CP_VAR_FLOAT)
    return;
  local->role = CP_VAR_FLOAT;
  cp_rule_diag(run, f->unit, CP_WARNING, at->begin, CP_RULE_FLOAT_CALL,
               "'%s' is passed by reference to '%s', whose float & parameter stays float "
               "(it converts with scope(accumulators)); so '%s' stays float in '%s'",
               local->name, callee->name, local->name, f->name);
}

static void agree_outptrs(cp_run *run, cp_func *f, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    agree_outptrs(run, f, n->kids[i]);
  cp_func *callee = n->kind == CXCursor_CallExpr
                        ? cp_func_of(run, cp_callee(n->cur)) : NULL;
  int nargs = callee ? cp_num_args(n->cur) : 0;
  for (int i = 0; i < nargs && i < cp_num_args(callee->cursor); i++) {
    cp_var *param = cp_var_of(callee, cp_arg(callee->cursor, (unsigned)i));
    const cp_node *a = cp_node_strip(cp_call_arg(n, nargs, i));
    char op[4];
    cp_var *local = NULL;
    if (param && param->is_ref && !cp_composite_signature(callee)) {
      keep_float_ref(run, f, callee, addressed_local(f, a), a);
      continue;
    }
    if (param && param->is_ref && param->role == CP_VAR_COMPOSITE) /* into a cp_float & */
      local = addressed_local(f, a);
    else if (!param || param->role != CP_VAR_OUTPTR || a->kind != CXCursor_UnaryOperator ||
             strcmp(cp_node_operator(f->unit->opt.input_text, a, op), "&") != 0)
      continue;
    else
      local = addressed_local(f, a->kids[0]);
    if (local && local->group < 0 && local->bound == 1) {
      bound_both(run, f, local, a);
      continue;
    }
    if (local && local->group < 0 && local->bound != 3)
      local->bound = 2;
    if (local && local->group < 0 && local->role != CP_VAR_COMPOSITE &&
        !is_kept(f, local)) /* keep() wins: refuse_kept_addresses reports the call */
      local->role = CP_VAR_COMPOSITE;
  }
}

/* Whether host function `n` (a body) gives `v` device memory: cudaMalloc*(&v, ...). */
static int device_allocated(const cp_node *n, const cp_var *v) {
  if (n->kind == CXCursor_CallExpr && n->nkids > 1) {
    CXString s = clang_getCursorSpelling(n->cur);
    int alloc = strncmp(clang_getCString(s), "cudaMalloc", 10) == 0;
    clang_disposeString(s);
    const cp_node *root = alloc ? cp_node_root(n->kids[1], 0) : NULL;
    if (root && clang_equalCursors(clang_getCursorReferenced(root->cur), v->decl))
      return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (device_allocated(n->kids[i], v))
      return 1;
  return 0;
}

/* A struct initialised from device pointers, `Bodies d = {(float4 *)d_buf, (float4 *)d_buf +
 * n}`: each pointer field joins the group of the allocation its element points into (only
 * device memory: the same struct type often holds host copies too). */
static void follow_init_list(cp_run *run, cp_func *f, const cp_node *list) {
  CXCursor fields[64];
  unsigned n = cp_record_fields(clang_getCursorType(list->cur), fields, 64);
  for (unsigned i = 0; i < n; i++) {
    const cp_node *e = cp_init_element(f->unit->opt.input_text, list, i);
    const cp_node *root = e ? cp_node_root(e, 0) : NULL;
    cp_var *l = cp_struct_var(run, fields[i]);
    cp_var *r = root ? cp_var_of(f, clang_getCursorReferenced(root->cur)) : NULL;
    if (l && r && l->group >= 0 && r->group >= 0 && device_allocated(f->body, r))
      join_groups(run, l->group, r->group);
  }
}

cp_var *cp_field_var(cp_run *run, CXCursor field) { return cp_struct_var(run, field); }

int cp_field_gains_companion(cp_run *run, CXCursor field) {
  cp_var *l = cp_struct_var(run, field);
  if (!l || l->role != CP_VAR_PAIRED || !l->n_sites || l->is_symbol)
    return 0;
  const char *err = cp_arena_printf(run->r->arena, "%s" CP_ERR_SUFFIX, l->name);
  return clang_Type_getOffsetOf(clang_getCursorType(clang_getCursorSemanticParent(field)), err) < 0;
}

int cp_pointer_swap(const cp_node *call) {
  if (call->kind != CXCursor_CallExpr || cp_num_args(call->cur) != 2)
    return 0;
  CXString s = clang_getCursorSpelling(call->cur);
  int swap = strcmp(clang_getCString(s), "swap") == 0;
  clang_disposeString(s);
  for (int i = 0; swap && i < 2; i++)
    swap = clang_getCanonicalType(clang_getCursorType(cp_call_arg(call, 2, i)->cur)).kind ==
           CXType_Pointer;
  return swap;
}

/* Pass 2b: pointer copies in host code (tmp = d_a; float *p = s->pos; a struct's
 * initializer list; std::swap(d_in, d_out)) put both pointers in one group: they
 * designate the same buffers. */
static void follow_copies(cp_run *run, cp_func *f, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    follow_copies(run, f, n->kids[i]);
  if (n->kind == CXCursor_InitListExpr) {
    follow_init_list(run, f, n);
    return;
  }
  if (cp_pointer_swap(n)) {
    cp_var *a = cp_host_buffer(run, f, cp_call_arg(n, 2, 0)),
           *b = cp_host_buffer(run, f, cp_call_arg(n, 2, 1));
    if (a && b && a->group >= 0 && b->group >= 0)
      join_groups(run, a->group, b->group);
    return;
  }
  const cp_node *lhs = NULL, *rhs = NULL;
  char op[4];
  cp_var *l = NULL;
  if (n->kind == CXCursor_VarDecl && n->nkids > 0 && clang_isExpression(n->kids[n->nkids - 1]->kind)) {
    l = cp_var_of(f, n->cur);
    rhs = n->kids[n->nkids - 1];
  } else if (cp_node_assignment(f->unit->opt.input_text, n, &lhs, &rhs, op) &&
             strcmp(op, "=") == 0) {
    const cp_node *s = cp_node_strip(lhs);
    if (s->kind == CXCursor_DeclRefExpr || s->kind == CXCursor_MemberRefExpr)
      l = cp_host_buffer(run, f, lhs);
  }
  cp_var *r = rhs && clang_getCanonicalType(clang_getCursorType(rhs->cur)).kind == CXType_Pointer
                  ? cp_host_buffer(run, f, rhs)
                  : NULL;
  if (l && r && l->group >= 0 && r->group >= 0)
    join_groups(run, l->group, r->group);
}

/* Pass 2c: cudaGetSymbolAddress((void **)&p, sym) in host code: p designates the symbol's
 * storage, so p and the symbol pair together (and p's companion is the address of
 * sym_err, host.c). */
static void follow_symbol_addresses(cp_run *run, cp_func *f, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    follow_symbol_addresses(run, f, n->kids[i]);
  int nargs = n->kind == CXCursor_CallExpr ? cp_num_args(n->cur) : 0;
  if (nargs != 2)
    return;
  CXString s = clang_getCursorSpelling(n->cur);
  int is_address = strcmp(clang_getCString(s), "cudaGetSymbolAddress") == 0;
  clang_disposeString(s);
  const cp_node *sym = is_address ? cp_node_root(n->kids[n->nkids - 1], 0) : NULL;
  cp_var *p = is_address ? cp_host_buffer(run, f, n->kids[n->nkids - 2]) : NULL;
  cp_var *v = sym ? cp_symbol_of(run, clang_getCursorReferenced(sym->cur)) : NULL;
  if (p && v && p->group >= 0)
    join_groups(run, p->group, v->group);
}

/* Pass 3: writes into buffers. */
static void defer_store(cp_run *run, cp_func *f, int group, const cp_node *rhs);

/* Whether argument i of `call` is a buffer element bound to a reference parameter that is
 * not const (`kick(vel[i], f)`, `vel[i] += f` with operator+=(float3 &, float3)) of the
 * converted function `fn`: written through the reference. */
static int ref_bound_element(CXCursor fn, const cp_node *call, int nargs, int i) {
  CXType t = clang_getCanonicalType(clang_getCursorType(cp_arg(fn, (unsigned)i)));
  return cp_writable_ref(t) && cp_type_width(clang_getCanonicalType(clang_getPointeeType(t)), 0) &&
         cp_node_strip(cp_call_arg(call, nargs, i))->kind == CXCursor_ArraySubscriptExpr;
}

static void note_write(cp_run *run, cp_func *f, const cp_node *target, const cp_node *rhs,
                       const char *op, int through_pointer);

/* float &r = x[i] in a converted function: r would write the element's value half alone,
 * leaving its companion stale; refused unless the buffer is nopair(). */
static void ref_to_element(cp_run *run, cp_func *f, const cp_node *decl) {
  CXType t = clang_getCanonicalType(clang_getCursorType(decl->cur));
  if (!cp_writable_ref(t) || !cp_type_width(clang_getCanonicalType(clang_getPointeeType(t)), f->dbl))
    return;
  const cp_node *init = decl->kids[decl->nkids - 1];
  cp_var *v = var_or_symbol(run, f, cp_node_root(init, 0));
  if (!v)
    v = cp_field_buffer(run, init);
  if (!v || v->group < 0 || v->role == CP_VAR_UNPAIRED || cp_nopair_named(run, f, v))
    return;
  const char *name = cp_cursor_spelling(run->r->arena, decl->cur);
  cp_diag_at(run, f->unit, CP_ERROR, decl->begin,
             "'%s' is a float & bound to an element of buffer '%s'; it can hold the value "
             "half only, so writes through it would leave the companion error buffer of '%s' "
             "stale: write through the element itself (%s[...] op= ...), copy it into a local "
             "and store that back, make it a const float & if it only reads, or nopair(%s) "
             "[%s]", name, v->name, v->name, v->name, v->name,
             cp_rule_name(CP_RULE_UNSUPPORTED_POINTER));
}

static void find_writes(cp_run *run, cp_func *f, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    find_writes(run, f, n->kids[i]);
  char op[4] = "";
  const cp_node *rhs = NULL;
  const cp_node *target = cp_store_target(f->unit->opt.input_text, n, &rhs, op);
  if (target) { /* an assignment, a compound one, ++ or -- (cp_store_target) */
    note_write(run, f, target, rhs, op, 0);
    return;
  }
  if (n->kind == CXCursor_VarDecl && n->nkids) {
    ref_to_element(run, f, n);
    return;
  }
  if (n->kind != CXCursor_CallExpr || n->nkids < 2)
    return;
  CXString s = clang_getCursorSpelling(n->cur);
  int atomic = is_atomic(clang_getCString(s));
  clang_disposeString(s);
  if (atomic) { /* atomics take the element's address: total, &x[i], x + i */
    note_write(run, f, n->kids[1], NULL, op, 1);
    return;
  }
  CXCursor fn = cp_callee(n->cur);
  if (!cp_func_of(run, fn))
    return;
  int nargs = cp_num_args(n->cur);
  for (int i = 0; i < nargs && i < cp_num_args(fn); i++)
    if (ref_bound_element(fn, n, nargs, i))
      note_write(run, f, cp_call_arg(n, nargs, i), NULL, op, 0);
}

/* One write of `f` into `target` (an element, a variable, a field): pairs the buffer it
 * writes, or refuses a pointer that cannot be followed. */
static void note_write(cp_run *run, cp_func *f, const cp_node *target, const cp_node *rhs,
                       const char *op, int through_pointer) {
  const cp_node *direct = cp_node_strip(target);
  cp_var *v = var_or_symbol(run, f, cp_node_root(target, 0));
  if (!v && (v = cp_field_buffer(run, target)) && direct == cp_field_root(target))
    return; /* s.x = p: the field's pointer itself, not its buffer */
  if (!v)
    return;
  if (direct->kind == CXCursor_DeclRefExpr && v->group >= 0 && !through_pointer && !v->is_symbol) {
    cp_diag_at(run, f->unit, CP_ERROR, direct->begin,
               "pointer '%s' is moved inside '%s'; cpconvert cannot follow it to its buffer "
               "(index it instead, e.g. %s[i + k]) [%s]", v->name, f->name, v->name,
               cp_rule_name(CP_RULE_UNSUPPORTED_POINTER));
  } else if (direct->kind == CXCursor_DeclRefExpr && v->is_param && f->is_kernel &&
             v->role == CP_VAR_FLOAT) {
    cp_diag_at(run, f->unit, CP_ERROR, direct->begin,
               "kernel parameter '%s' is assigned; copy it into a local variable first [%s]",
               v->name, cp_rule_name(CP_RULE_UNSUPPORTED_USE));
  } else if (v->group >= 0 && v->role != CP_VAR_OUTPTR && v->role != CP_VAR_UNPAIRED) {
    if (!v->is_param && !v->is_symbol && !v->is_field)
      cp_diag_at(run, f->unit, CP_ERROR, direct->begin,
                 "write through local pointer '%s'; cpconvert cannot follow it to its buffer "
                 "(write through the buffer parameter instead) [%s]", v->name,
                 cp_rule_name(CP_RULE_UNSUPPORTED_POINTER));
    else if (v->is_field && cp_nopair_named(run, f, v))
      ; /* nopair(p.epot): this function's stores write the recombined value */
    else if (cp_nopair_named(run, f, v))
      v->role = CP_VAR_UNPAIRED;
    else if (f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS && rhs &&
             strcmp(op, "=") == 0 && !through_pointer)
      defer_store(run, f, v->group, rhs);
    else
      run->group_paired[find_group(run, v->group)] = 1;
  }
}

/* In scope(accumulators) a plain store pairs its buffer only if the value stored is
 * composite (settle_stores decides, once the accumulators are known): a buffer that only
 * ever receives float values needs no companion. Sums into a buffer (+=, ++, atomics)
 * pair it at once. */
static void defer_store(cp_run *run, cp_func *f, int group, const cp_node *rhs) {
  if (run->n_stores == run->cap_stores) {
    run->cap_stores = run->cap_stores ? 2 * run->cap_stores : 16;
    run->stores = cp_arena_grow(run->r->arena, run->stores, run->n_stores, run->cap_stores,
                                sizeof *run->stores);
  }
  run->stores[run->n_stores++] = (cp_store){f, group, rhs};
}

/* Whether a value reads a composite local or a paired buffer. */
static int reads_composite(cp_run *run, cp_func *f, const cp_node *n) {
  if (n->kind == CXCursor_DeclRefExpr || n->kind == CXCursor_MemberRefExpr) {
    cp_var *v = var_of_node(f, n);
    if (v && (v->role == CP_VAR_COMPOSITE || (v->is_record && v->role == CP_VAR_PAIRED) ||
              (v->group >= 0 && run->group_paired[find_group(run, v->group)])))
      return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (reads_composite(run, f, n->kids[i]))
      return 1;
  return 0;
}

/* Pairs the buffers of the deferred stores that store composites, until nothing changes
 * (pairing one buffer makes its reads composite elsewhere). */
static void settle_stores(cp_run *run) {
  int changed = 1;
  while (changed) {
    changed = 0;
    for (unsigned i = 0; i < run->n_stores; i++) {
      cp_store *st = &run->stores[i];
      int *paired = &run->group_paired[find_group(run, st->group)];
      if (*paired)
        continue;
      if (reads_composite(run, st->f, st->rhs))
        *paired = changed = 1;
    }
  }
}

/* Whether `v` is an argument of a call of a converted function in `n` (its buffer goes on
 * to a parameter that may take the companion). */
static int passed_on(cp_run *run, cp_func *f, const cp_node *n, const cp_var *v) {
  if (n->kind == CXCursor_CallExpr && cp_func_of(run, cp_callee(n->cur))) {
    int nargs = cp_num_args(n->cur);
    for (int i = 0; i < nargs; i++) {
      const cp_node *root = cp_node_root(cp_call_arg(n, nargs, i), 0);
      if (root && var_of_node(f, root) == v)
        return 1;
    }
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (passed_on(run, f, n->kids[i], v))
      return 1;
  return 0;
}

/* nopair(p) where p's buffer is paired through another function: a function that only
 * reads p reads the values alone (as an unconverted kernel would), and takes no companion;
 * one that writes p, or passes it on to a converted function, cannot leave the companion
 * stale: refused. */
static void resolve_pairs(cp_run *run, cp_func *f) {
  const cp_pragma *pr = f->pragma;
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    if (v->group < 0 || v->role == CP_VAR_OUTPTR)
      continue;
    int paired = run->group_paired[find_group(run, v->group)];
    int nopair = pr && !v->is_field && cp_names_contain(pr->nopair, pr->n_nopair, v->name);
    if (paired && nopair && (v->role == CP_VAR_UNPAIRED || passed_on(run, f, f->body, v)))
      cp_diag_at(run, f->unit, CP_ERROR, pr->offset,
                 "'%s' is in nopair() but shares its buffer with a paired parameter of another "
                 "converted function, and '%s' %s it [%s]", v->name, f->name,
                 v->role == CP_VAR_UNPAIRED ? "writes" : "passes on", cp_rule_name(CP_RULE_PAIR_PARAM));
    else if (paired && !nopair)
      v->role = CP_VAR_PAIRED;
  }
}

/* nopair(p.x) on a struct field that another function pairs: the struct holds the
 * companion, so this function's stores write it too (they must, or it would go stale). */
static void nopair_fields(cp_run *run, cp_func *f) {
  for (unsigned i = 0; i < run->structs.n_vars; i++) {
    cp_var *v = &run->structs.vars[i];
    if (v->is_field && v->role == CP_VAR_PAIRED && f->pragma && cp_nopair_named(run, f, v))
      cp_rule_diag(run, f->unit, CP_WARNING, f->pragma->offset, CP_RULE_PAIR_PARAM,
                   "'%s' is in nopair() of '%s', but another converted function pairs the "
                   "field: the struct holds its companion, so '%s' reads and writes it too",
                   v->name, f->name, f->name);
  }
}

/* Whether argument a, bound to a parameter that converts (a cp_float * or paired pointer,
 * `&t`; a cp_float &, `t`), is a keep() local of f that stays float. */
static int kept_argument(cp_func *f, const cp_var *param, const cp_node *a) {
  char op[4];
  a = cp_node_strip(a);
  if (!param->is_ref) {
    if (a->kind != CXCursor_UnaryOperator ||
        strcmp(cp_node_operator(f->unit->opt.input_text, a, op), "&") != 0)
      return 0;
    a = cp_node_strip(a->kids[0]);
  }
  cp_var *local = var_of_node(f, a);
  return local && local->role == CP_VAR_FLOAT && !local->is_param && is_kept(f, local);
}

int cp_kept_call(cp_run *run, cp_func *f, const cp_node *n) {
  cp_func *callee = n->kind == CXCursor_CallExpr && f->pragma && f->pragma->n_keep
                        ? cp_func_of(run, cp_callee(n->cur))
                        : NULL;
  if (!callee || callee->is_kernel || callee->is_host)
    return 0;
  int nargs = cp_num_args(n->cur), kept = 0;
  for (int i = 0; i < nargs && i < cp_num_args(callee->cursor); i++) {
    const cp_var *p = cp_var_of(callee, cp_arg(callee->cursor, (unsigned)i));
    if (!p)
      continue;
    CXType pt = clang_getCanonicalType(clang_getCursorType(p->decl));
    int converts = p->role == CP_VAR_OUTPTR || p->role == CP_VAR_PAIRED ||
                   (p->is_ref && p->role == CP_VAR_COMPOSITE && cp_composite_signature(callee) &&
                    !clang_isConstQualifiedType(clang_getPointeeType(pt)));
    if (!converts)
      continue; /* a value: the float original takes it recombined */
    if (!kept_argument(f, p, cp_call_arg(n, nargs, i)))
      return 0; /* a composite's address, a paired buffer: only the converted copy takes it */
    kept = 1;
  }
  return kept;
}

/* f(&t) where t is in keep() and f's parameter converts (to cp_float * as an output
 * parameter, or to a paired buffer): a float's address cannot go where a composite's is
 * expected, and a composite temporary would change when t is written. Refused at the
 * argument, unless the call can go to f's float original (cp_kept_call), which
 * device/function.c then keeps beside the converted copy. */
static void refuse_kept_addresses(cp_run *run, cp_func *f, const cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    refuse_kept_addresses(run, f, n->kids[i]);
  cp_func *callee = n->kind == CXCursor_CallExpr && f->pragma && f->pragma->n_keep &&
                            !cp_kept_call(run, f, n)
                        ? cp_func_of(run, cp_callee(n->cur))
                        : NULL;
  int nargs = callee ? cp_num_args(n->cur) : 0;
  for (int i = 0; i < nargs && i < cp_num_args(callee->cursor); i++) {
    cp_var *param = cp_var_of(callee, cp_arg(callee->cursor, (unsigned)i));
    const cp_node *a = cp_node_strip(cp_call_arg(n, nargs, i));
    char op[4];
    if (!param || (param->role != CP_VAR_OUTPTR && param->role != CP_VAR_PAIRED) ||
        a->kind != CXCursor_UnaryOperator ||
        strcmp(cp_node_operator(f->unit->opt.input_text, a, op), "&"))
      continue;
    cp_var *local = var_of_node(f, cp_node_strip(a->kids[0]));
    if (local && local->role == CP_VAR_FLOAT && !local->is_param && is_kept(f, local))
      cp_diag_at(run, f->unit, CP_ERROR, a->begin,
                 "'%s' is in keep() but its address is passed to '%s' of '%s', which converts; "
                 "take '%s' out of keep(), or pass a converted local and copy it [%s]",
                 local->name, param->name, callee->name, local->name,
                 cp_rule_name(CP_RULE_UNSUPPORTED_POINTER));
  }
}

/* Passes 2b, 2c and 3 over every function: copies of pointers in host code, then writes. */
static void follow_pointers(cp_run *run) {
  for (unsigned i = 0; i < run->n_funcs; i++)
    if (run->funcs[i].is_host) {
      follow_copies(run, &run->funcs[i], run->funcs[i].body);
      follow_symbol_addresses(run, &run->funcs[i], run->funcs[i].body);
    }
  for (unsigned i = 0; i < run->n_funcs; i++)
    if (!run->funcs[i].is_host) /* host code writes device buffers only by copies */
      find_writes(run, &run->funcs[i], run->funcs[i].body);
}

void cp_analyse(cp_run *run) {
  cp_collect_variables(run);
  for (unsigned i = 0; i < run->n_funcs; i++) { /* before the calls: OUTPTR needs the roles */
    cp_func *f = &run->funcs[i];
    cp_collect_records(run, f);
    if (f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS)
      cp_find_accumulators(run, f);
    cp_settle_records(run, f);
  }
  cp_agree_dynamic_shared(run);
  for (unsigned i = 0; i < run->n_funcs; i++)
    follow_calls(run, &run->funcs[i], run->funcs[i].body);
  for (unsigned i = 0; i < run->n_funcs; i++)
    agree_outptrs(run, &run->funcs[i], run->funcs[i].body);
  follow_pointers(run);
  for (int copied = 1; copied;) { /* copies of paired elements are composites, and store so */
    settle_stores(run);
    copied = 0;
    for (unsigned i = 0; i < run->n_funcs; i++) {
      cp_func *f = &run->funcs[i];
      if (f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS && !f->dbl)
        copied |= cp_read_pairs_once(run, f);
    }
  }
  for (unsigned i = 0; i < run->n_funcs; i++)
    resolve_pairs(run, &run->funcs[i]);
  resolve_pairs(run, &run->structs);
  for (unsigned i = 0; i < run->n_funcs; i++)
    nopair_fields(run, &run->funcs[i]);
  for (unsigned i = 0; i < run->n_funcs; i++)
    refuse_kept_addresses(run, &run->funcs[i], run->funcs[i].body);
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    if (f->pragma && f->pragma->accum != CP_ACC_COMPOSITE && !f->dbl) /* --accumulate: float only */
      cp_mark_carried(run, f);
  }
  for (unsigned i = 0; i < run->n_funcs; i++) /* an accumulator passed by address stays a pair */
    agree_outptrs(run, &run->funcs[i], run->funcs[i].body);
}

int cp_composite_signature(const cp_func *f) {
  return !f->is_kernel && !f->is_host && (!f->pragma || f->pragma->scope == CP_SCOPE_ALL);
}

int cp_signature_changes(const cp_func *f) {
  if (f->returns_width && cp_composite_signature(f))
    return 1;
  for (unsigned i = 0; i < f->n_vars; i++) {
    const cp_var *v = &f->vars[i];
    if (v->is_param && (v->role == CP_VAR_PAIRED || v->role == CP_VAR_OUTPTR ||
                        (v->role == CP_VAR_COMPOSITE && cp_composite_signature(f))))
      return 1;
  }
  return 0;
}
