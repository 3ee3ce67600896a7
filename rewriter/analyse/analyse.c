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
 * function.c both need it (callers must pass companions).
 */
#include <string.h>

#include "internal.h"

/* Width of a variable's base element type, looking through arrays. */
static int element_width(CXType t, int dbl) {
  CXType c = clang_getCanonicalType(t);
  while (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
         c.kind == CXType_VariableArray || c.kind == CXType_DependentSizedArray)
    c = clang_getCanonicalType(clang_getArrayElementType(c));
  return cp_type_width(c, dbl);
}

static cp_var *add_var(cp_run *run, cp_func *f, CXCursor decl, int is_param) {
  CXType t = clang_getCursorType(decl);
  int dbl = f->dbl;
  int width = element_width(t, dbl), ptr = cp_pointee_width(t, dbl);
  CXType ct = clang_getCanonicalType(t);
  /* a device helper's float & parameter: an output like float *, converted with the
   * function as a float parameter is (cp_float &), so its callers pass composites */
  int ref = is_param && !f->is_kernel && !f->is_host && ct.kind == CXType_LValueReference &&
            (width = cp_type_width(clang_getPointeeType(ct), dbl)) != 0;
  if (f->is_host && !ptr && (ptr = cp_pointee_width(t, 1)))
    dbl = 1; /* host code holds float and double buffers alike */
  if (!width && !ptr)
    return NULL;
  cp_var *v = cp_var_add(run, f, decl);
  v->name = cp_cursor_spelling(run->r->arena, decl);
  v->is_param = is_param;
  v->is_ref = ref;
  v->group = -1;
  v->dbl = dbl;
  if (ptr) {
    v->width = ptr;
    v->role = CP_VAR_READONLY;
    v->group = (int)run->n_groups++;
  } else {
    v->width = width;
    /* a kernel's float parameters come from the host as float and stay float; host
     * code keeps its floats */
    v->role = (is_param && f->is_kernel) || f->is_host ? CP_VAR_FLOAT : CP_VAR_COMPOSITE;
  }
  return v;
}

static void collect_locals(cp_run *run, cp_func *f, cp_node *n) {
  if (n->kind == CXCursor_VarDecl)
    add_var(run, f, n->cur, 0);
  for (unsigned i = 0; i < n->nkids; i++)
    collect_locals(run, f, n->kids[i]);
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
    *(CXCursor *)data = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

static cp_var *find_named(cp_func *f, const char *name) {
  for (unsigned i = 0; i < f->n_vars; i++)
    if (strcmp(f->vars[i].name, name) == 0)
      return &f->vars[i];
  return NULL;
}

static cp_var *struct_var(cp_run *run, CXCursor decl);

typedef struct {
  const char *name;
  CXCursor found;
} field_find;

static enum CXVisitorResult find_field(CXCursor c, CXClientData data) {
  field_find *ff = data;
  CXString s = clang_getCursorSpelling(c);
  int hit = strcmp(clang_getCString(s), ff->name) == 0;
  clang_disposeString(s);
  if (hit)
    ff->found = c;
  return hit ? CXVisit_Break : CXVisit_Continue;
}

/* The struct field buffer a clause names by path from a parameter (pair(s.x),
 * pair(sim->atoms.r.x)), or NULL. */
static cp_var *clause_field(cp_run *run, cp_func *f, const char *path) {
  const char *dot = strpbrk(path, ".-");
  if (!dot)
    return NULL;
  cp_var *v = NULL;
  CXType t = {CXType_Invalid, {NULL, NULL}};
  int nargs = cp_num_args(f->cursor);
  for (int i = 0; i < nargs; i++) {
    CXCursor a = cp_arg(f->cursor, (unsigned)i);
    CXString s = clang_getCursorSpelling(a);
    if (strlen(clang_getCString(s)) == (size_t)(dot - path) &&
        strncmp(clang_getCString(s), path, (size_t)(dot - path)) == 0)
      t = clang_getCursorType(a);
    clang_disposeString(s);
  }
  for (const char *p = dot; t.kind != CXType_Invalid && *p;) {
    p += *p == '.' ? 1 : *p == '-' && p[1] == '>' ? 2 : 0;
    size_t n = strcspn(p, ".-");
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Pointer)
      t = clang_getCanonicalType(clang_getPointeeType(t));
    field_find ff = {cp_arena_strndup(run->r->arena, p, n), clang_getNullCursor()};
    if (t.kind == CXType_Record)
      clang_Type_visitFields(t, find_field, &ff);
    if (clang_Cursor_isNull(ff.found))
      return NULL;
    t = clang_getCursorType(ff.found);
    p += n;
    if (!*p)
      v = struct_var(run, ff.found);
  }
  return v && v->is_field ? v : NULL;
}

static void apply_clauses(cp_run *run, cp_func *f) {
  const cp_pragma *pr = f->pragma;
  if (!pr)
    return;
  for (unsigned i = 0; i < pr->n_keep; i++) {
    cp_var *v = find_named(f, pr->keep[i].name);
    if (!v || v->group >= 0)
      cp_diag_at(run, f->unit, CP_ERROR, pr->keep[i].offset,
                 "'%s' in keep() is not a float variable of '%s' [%s]", pr->keep[i].name, f->name,
                 cp_rule_name(CP_RULE_PRAGMA));
    else
      v->role = CP_VAR_FLOAT;
  }
  for (unsigned k = 0; k < 2; k++) {
    const cp_clause_name *names = k ? pr->nopair : pr->pair;
    unsigned n = k ? pr->n_nopair : pr->n_pair;
    for (unsigned i = 0; i < n; i++) {
      cp_var *v = find_named(f, names[i].name);
      if (!k && !v && clause_field(run, f, names[i].name))
        continue; /* pair(s.x): a struct field buffer reached through a parameter */
      if (!v || v->group < 0 || !v->is_param)
        cp_diag_at(run, f->unit, CP_ERROR, names[i].offset,
                   "'%s' in %s() is not a float pointer parameter of '%s'%s [%s]", names[i].name,
                   k ? "nopair" : "pair", f->name,
                   k ? "" : " (nor a float pointer field reached from one, as in s.x)",
                   cp_rule_name(CP_RULE_PRAGMA));
    }
  }
}

int cp_names_contain(const cp_clause_name *names, unsigned n, const char *name) {
  for (unsigned i = 0; i < n; i++)
    if (strcmp(names[i].name, name) == 0)
      return 1;
  return 0;
}

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

/* The field or file-scope pointer `decl` declares (run->structs: one per USR); NULL if none. */
static cp_var *struct_var(cp_run *run, CXCursor decl) {
  if (!run->structs.n_vars)
    return NULL;
  enum CXCursorKind k = clang_getCursorKind(decl);
  if (k != CXCursor_FieldDecl && k != CXCursor_VarDecl)
    return NULL;
  const char *usr = cp_usr(run, decl);
  for (unsigned i = 0; i < run->structs.n_vars; i++)
    if (strcmp(run->structs.vars[i].usr, usr) == 0)
      return &run->structs.vars[i];
  return NULL;
}

cp_var *cp_host_buffer(cp_run *run, cp_func *f, const cp_node *n) {
  const cp_node *root = cp_node_root(n, 1);
  if (!root)
    return NULL;
  CXCursor decl = clang_getCursorReferenced(root->cur);
  if (root->kind != CXCursor_MemberRefExpr) {
    cp_var *v = cp_var_of(f, decl);
    if (v)
      return v;
  }
  return struct_var(run, decl);
}

cp_var *cp_field_buffer(cp_run *run, const cp_node *n) {
  const cp_node *root = cp_field_root(n);
  cp_var *v = root ? struct_var(run, clang_getCursorReferenced(root->cur)) : NULL;
  return v && v->is_field ? v : NULL;
}

/* A device symbol pairs like a buffer: a group of its own, which a converted function's
 * write pairs; its companion is a second symbol NAME_err (host.c). */
static void add_symbol(cp_run *run, cp_var *v, int width) {
  v->is_symbol = 1;
  v->width = width;
  v->role = CP_VAR_READONLY;
  v->dbl = 0;
  v->group = (int)run->n_groups++;
}

cp_var *cp_symbol_of(cp_run *run, CXCursor decl) {
  if (!cp_symbol_width(decl))
    return NULL;
  const char *usr = cp_usr(run, decl);
  for (unsigned i = 0; i < run->structs.n_vars; i++)
    if (run->structs.vars[i].is_symbol && strcmp(run->structs.vars[i].usr, usr) == 0)
      return &run->structs.vars[i];
  return NULL;
}

/* Float and double pointer fields of the structs the file sees, and file-scope pointer
 * variables: host code keeps device buffers there (atoms->pos, d_x), so they pair like
 * local variables. */
typedef struct {
  cp_run *run;
  cp_unit *u; /* the input walked */
} fields_walk;

static enum CXChildVisitResult collect_fields(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  fields_walk *w = data;
  cp_run *run = w->run;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_FieldDecl || (k == CXCursor_VarDecl && !clang_Location_isInSystemHeader(
                                                                 clang_getCursorLocation(c)))) {
    CXType t = clang_getCursorType(c);
    int symbol = cp_symbol_width(c);
    if (!cp_pointee_width(t, 0) && !cp_pointee_width(t, 1) && !symbol)
      return CXChildVisit_Continue;
    /* one variable per USR: the same field or pointer seen from several units, an extern
     * declaration and its definition, are one buffer with several declaration sites */
    const char *usr = cp_usr(run, c);
    cp_var *v = NULL;
    for (unsigned i = 0; i < run->structs.n_vars && !v; i++)
      if (strcmp(run->structs.vars[i].usr, usr) == 0)
        v = &run->structs.vars[i];
    if (!v && (v = add_var(run, &run->structs, c, 0))) {
      v->is_field = k == CXCursor_FieldDecl;
      v->usr = usr;
      if (symbol)
        add_symbol(run, v, symbol);
    }
    if (v) {
      cp_site *sites = cp_arena_alloc(run->r->arena, (v->n_sites + 1) * sizeof *sites);
      if (v->n_sites)
        memcpy(sites, v->sites, v->n_sites * sizeof *sites);
      sites[v->n_sites++] = (cp_site){w->u, c};
      v->sites = sites;
      if (clang_isCursorDefinition(c) || v->is_field)
        v->decl = c; /* the definition, when a unit has it */
    }
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_Namespace ||
      k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
    return clang_Location_isInSystemHeader(clang_getCursorLocation(c)) ? CXChildVisit_Continue
                                                                       : CXChildVisit_Recurse;
  return CXChildVisit_Continue;
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
    cp_var *l = struct_var(run, fields[i]);
    cp_var *r = root ? cp_var_of(f, clang_getCursorReferenced(root->cur)) : NULL;
    if (l && r && l->group >= 0 && r->group >= 0 && device_allocated(f->body, r))
      join_groups(run, l->group, r->group);
  }
}

cp_var *cp_field_var(cp_run *run, CXCursor field) { return struct_var(run, field); }

/* Pass 2b: pointer copies in host code (tmp = d_a; float *p = s->pos; a struct's
 * initializer list) put both pointers in one group: they designate the same buffers. */
static void follow_copies(cp_run *run, cp_func *f, cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    follow_copies(run, f, n->kids[i]);
  if (n->kind == CXCursor_InitListExpr) {
    follow_init_list(run, f, n);
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
  if (!v || v->group < 0 || v->role == CP_VAR_UNPAIRED ||
      (f->pragma && cp_names_contain(f->pragma->nopair, f->pragma->n_nopair, v->name)))
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
    else if (f->pragma && cp_names_contain(f->pragma->nopair, f->pragma->n_nopair, v->name))
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
    if (v && (v->role == CP_VAR_COMPOSITE ||
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

static void resolve_pairs(cp_run *run, cp_func *f) {
  const cp_pragma *pr = f->pragma;
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    if (v->group < 0 || v->role == CP_VAR_OUTPTR)
      continue;
    int paired = run->group_paired[find_group(run, v->group)];
    int nopair = pr && cp_names_contain(pr->nopair, pr->n_nopair, v->name);
    if (paired && nopair)
      cp_diag_at(run, f->unit, CP_ERROR, pr->offset,
                 "'%s' is in nopair() but shares its buffer with a paired parameter of another "
                 "converted function [%s]", v->name, cp_rule_name(CP_RULE_PAIR_PARAM));
    else if (paired)
      v->role = CP_VAR_PAIRED;
  }
}

/* f(&t) where t is in keep() and f's parameter converts (to cp_float * as an output
 * parameter, or to a paired buffer): a float's address cannot go where a composite's is
 * expected, and a composite temporary would change when t is written. Refused at the
 * argument, whatever the other calls of f make of the parameter. */
static void refuse_kept_addresses(cp_run *run, cp_func *f, const cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    refuse_kept_addresses(run, f, n->kids[i]);
  cp_func *callee = n->kind == CXCursor_CallExpr && f->pragma && f->pragma->n_keep
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

/* A function is written in double when its floating-point variables, parameters and
 * result are all double: it converts to cp_double. Anything with a float converts to
 * cp_float, and its doubles stay double. */
typedef struct {
  int floats, doubles;
} precision_count;

static void count_type(precision_count *pc, CXType t) {
  CXType c = clang_getCanonicalType(t);
  while (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
         c.kind == CXType_VariableArray || c.kind == CXType_Pointer)
    c = clang_getCanonicalType(c.kind == CXType_Pointer ? clang_getPointeeType(c)
                                                         : clang_getArrayElementType(c));
  pc->floats += cp_type_width(c, 0) > 0;
  pc->doubles += cp_type_width(c, 1) > 0;
}

static void count_locals(precision_count *pc, const cp_node *n) {
  if (n->kind == CXCursor_VarDecl)
    count_type(pc, clang_getCursorType(n->cur));
  for (unsigned i = 0; i < n->nkids; i++)
    count_locals(pc, n->kids[i]);
}

static void decide_precision(cp_func *f) {
  precision_count pc = {0, 0};
  for (int k = 0; k < cp_num_args(f->cursor); k++)
    count_type(&pc, clang_getCursorType(cp_arg(f->cursor, (unsigned)k)));
  count_type(&pc, clang_getResultType(clang_getCursorType(f->cursor)));
  count_locals(&pc, f->body);
  f->dbl = !f->is_host && pc.floats == 0 && pc.doubles > 0;
  f->prec = f->dbl ? &cp_prec_double : &cp_prec_float;
  f->returns_width = cp_type_width(clang_getResultType(clang_getCursorType(f->cursor)), f->dbl);
}

/* --pair NAME: host pointers (variables, file-scope pointers, fields) of that name are
 * paired, and their companions NAME_err exist outside this file. */
static void mark_external(cp_run *run, cp_func *f, const char *name) {
  for (unsigned k = 0; k < f->n_vars; k++) {
    cp_var *v = &f->vars[k];
    if (v->group >= 0 && strcmp(v->name, name) == 0) {
      v->external = 1;
      run->group_paired[v->group] = 1;
    }
  }
}

static void trust_pair_names(cp_run *run) {
  for (int i = 0; i < run->settings->n_pair_names; i++) {
    mark_external(run, &run->structs, run->settings->pair_names[i]);
    for (unsigned k = 0; k < run->n_funcs; k++)
      if (run->funcs[k].is_host)
        mark_external(run, &run->funcs[k], run->settings->pair_names[i]);
  }
}

static void collect_function(cp_run *run, cp_func *f) {
  CXCursor body = clang_getNullCursor();
  clang_visitChildren(f->cursor, find_body, &body);
  f->body = cp_tree_build(run->r->arena, body, &f->unit->macros);
  decide_precision(f);
  if (f->dbl && f->pragma && f->pragma->accum_given && f->pragma->accum != CP_ACC_COMPOSITE)
    cp_diag_at(run, f->unit, CP_ERROR, f->pragma->offset,
               "'%s' is written in double and converts to cp_double; accumulate() applies to "
               "kernels written in float [%s]", f->name, cp_rule_name(CP_RULE_ACCUMULATE));
  int nargs = cp_num_args(f->cursor);
  for (int k = 0; k < nargs; k++)
    add_var(run, f, cp_arg(f->cursor, (unsigned)k), 1);
  collect_locals(run, f, f->body);
  apply_clauses(run, f);
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
  run->structs.is_host = 1; /* fields hold float and double buffers alike */
  for (unsigned u = 0; u < run->n_inputs; u++) {
    cp_unit *unit = run->units[u];
    cp_macros_collect(run->r->arena, unit->p.tu, unit->p.main_file, &unit->macros);
    fields_walk w = {run, unit};
    if (run->n_funcs)
      clang_visitChildren(clang_getTranslationUnitCursor(unit->p.tu), collect_fields, &w);
  }
  for (unsigned u = run->n_inputs; u < run->n_units; u++) /* headers with converted functions */
    if (run->units[u]->p.tu)
      cp_macros_collect(run->r->arena, run->units[u]->p.tu, run->units[u]->p.main_file,
                        &run->units[u]->macros);
  for (unsigned i = 0; i < run->n_funcs; i++)
    collect_function(run, &run->funcs[i]);
  run->group_parent = cp_arena_alloc(run->r->arena, (run->n_groups + 1) * sizeof(int));
  run->group_paired = cp_arena_alloc(run->r->arena, (run->n_groups + 1) * sizeof(int));
  for (unsigned g = 0; g < run->n_groups; g++) {
    run->group_parent[g] = (int)g;
    run->group_paired[g] = 0;
  }
  trust_pair_names(run);
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    for (unsigned k = 0; f->pragma && k < f->pragma->n_pair; k++) {
      cp_var *v = find_named(f, f->pragma->pair[k].name);
      if (!v)
        v = clause_field(run, f, f->pragma->pair[k].name);
      if (v && v->group >= 0)
        run->group_paired[v->group] = 1;
    }
  }
  for (unsigned i = 0; i < run->n_funcs; i++) { /* before the calls: OUTPTR needs the roles */
    cp_func *f = &run->funcs[i];
    if (f->pragma && f->pragma->scope == CP_SCOPE_ACCUMULATORS)
      cp_find_accumulators(run, f);
  }
  for (unsigned i = 0; i < run->n_funcs; i++)
    follow_calls(run, &run->funcs[i], run->funcs[i].body);
  for (unsigned i = 0; i < run->n_funcs; i++)
    agree_outptrs(run, &run->funcs[i], run->funcs[i].body);
  follow_pointers(run);
  settle_stores(run);
  for (unsigned i = 0; i < run->n_funcs; i++)
    resolve_pairs(run, &run->funcs[i]);
  resolve_pairs(run, &run->structs);
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
