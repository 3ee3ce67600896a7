/*
 * variables.c: the variables of converted functions and the buffers of the run, the first
 * pass of the analysis (analyse.c runs the others).
 *
 * The float and double pointer fields of structs and file-scope pointers (host code keeps
 * device buffers there), then each converted function's parameters and locals with a
 * float type (float, floatN, arrays of them, pointers to them), its precision (float or
 * double); keep() applied, every clause's names checked against what exists; pair() and
 * --pair mark their groups paired. Each buffer starts in a pairing group of its own.
 */
#include <string.h>

#include "analyse.h"

/* Width of a variable's base element type, looking through arrays. */
static int element_width(CXType t, int dbl) {
  CXType c = clang_getCanonicalType(t);
  while (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
         c.kind == CXType_VariableArray || c.kind == CXType_DependentSizedArray)
    c = clang_getCanonicalType(clang_getArrayElementType(c));
  return cp_type_width(c, dbl);
}

/* An array of device pointers in host code (`float4 *dPos[2]`, double buffers indexed by a
 * swapped read/write index): one buffer for all its elements, whose companion is an array
 * of the same shape (host.c); the width of the pointee, 0 for any other type. */
static int pointer_array_width(CXType t, int dbl) {
  CXType c = clang_getCanonicalType(t);
  return c.kind == CXType_ConstantArray ? cp_pointee_width(clang_getArrayElementType(c), dbl) : 0;
}

static cp_var *add_var(cp_run *run, cp_func *f, CXCursor decl, int is_param) {
  CXType t = clang_getCursorType(decl);
  int dbl = f->dbl;
  int width = element_width(t, dbl), ptr = cp_pointee_width(t, dbl);
  if (f->is_host && !is_param && !ptr && clang_getCursorKind(decl) == CXCursor_VarDecl &&
      ((ptr = pointer_array_width(t, 0)) || (ptr = pointer_array_width(t, dbl = 1))))
    width = 0;
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
      v = cp_struct_var(run, ff.found);
  }
  return v && v->is_field ? v : NULL;
}

/* "; did you mean 'x'?" for a misspelt name in a clause: the nearest of f's float
 * variables (`buffers` 0) or float pointer parameters (1), or "" when none is near. */
static const char *near_name(cp_run *run, cp_func *f, const char *name, int buffers) {
  const char **names = cp_arena_alloc(run->r->arena, (f->n_vars + 1) * sizeof *names);
  unsigned n = 0;
  for (unsigned i = 0; i < f->n_vars; i++)
    if (buffers ? f->vars[i].group >= 0 && f->vars[i].is_param : f->vars[i].group < 0)
      names[n++] = f->vars[i].name;
  names[n] = NULL;
  const char *near = cp_closest_name(name, names);
  return near ? cp_arena_printf(run->r->arena, "; did you mean '%s'?", near) : "";
}

static void apply_clauses(cp_run *run, cp_func *f) {
  const cp_pragma *pr = f->pragma;
  if (!pr)
    return;
  for (unsigned i = 0; i < pr->n_keep; i++) {
    cp_var *v = find_named(f, pr->keep[i].name);
    if (!v || v->group >= 0)
      cp_diag_at(run, f->unit, CP_ERROR, pr->keep[i].offset,
                 "'%s' in keep() is not a float variable of '%s'%s [%s]", pr->keep[i].name,
                 f->name, near_name(run, f, pr->keep[i].name, 0), cp_rule_name(CP_RULE_PRAGMA));
    else
      v->role = CP_VAR_FLOAT;
  }
  for (unsigned k = 0; k < 2; k++) {
    const cp_clause_name *names = k ? pr->nopair : pr->pair;
    unsigned n = k ? pr->n_nopair : pr->n_pair;
    for (unsigned i = 0; i < n; i++) {
      cp_var *v = find_named(f, names[i].name);
      if (!v && clause_field(run, f, names[i].name))
        continue; /* pair(s.x), nopair(s.x): a struct field buffer reached through a parameter */
      if (!v || v->group < 0 || !v->is_param)
        cp_diag_at(run, f->unit, CP_ERROR, names[i].offset,
                   "'%s' in %s() is not a float pointer parameter of '%s'%s%s [%s]",
                   names[i].name, k ? "nopair" : "pair", f->name,
                   " (nor a float pointer field reached from one, as in s.x)",
                   near_name(run, f, names[i].name, 1), cp_rule_name(CP_RULE_PRAGMA));
    }
  }
}

int cp_names_contain(const cp_clause_name *names, unsigned n, const char *name) {
  for (unsigned i = 0; i < n; i++)
    if (strcmp(names[i].name, name) == 0)
      return 1;
  return 0;
}

int cp_nopair_named(cp_run *run, cp_func *f, const cp_var *v) {
  const cp_pragma *pr = f->pragma;
  for (unsigned i = 0; pr && i < pr->n_nopair; i++)
    if (v->is_field ? clause_field(run, f, pr->nopair[i].name) == v
                    : strcmp(pr->nopair[i].name, v->name) == 0)
      return 1;
  return 0;
}
/* The field or file-scope pointer `decl` declares (run->structs: one per USR); NULL if none. */
cp_var *cp_struct_var(cp_run *run, CXCursor decl) {
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
  return cp_struct_var(run, decl);
}

cp_var *cp_field_buffer(cp_run *run, const cp_node *n) {
  const cp_node *root = cp_field_root(n);
  cp_var *v = root ? cp_struct_var(run, clang_getCursorReferenced(root->cur)) : NULL;
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
    if (!cp_pointee_width(t, 0) && !cp_pointee_width(t, 1) && !symbol &&
        (k == CXCursor_FieldDecl || (!pointer_array_width(t, 0) && !pointer_array_width(t, 1))))
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
  cp_tree_refused(run, f->unit, f->body);
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

/* --use-profile: the variables the profiled run showed never carrying an error term stay
 * float, as keep() would keep them; a hint that names a function no pragma marks, or a
 * variable the function does not have as a float, is a warning (the source changed since
 * the profile) and changes nothing. */
static void apply_keep_hints(cp_run *run) {
  const cp_options *o = run->settings;
  for (size_t h = 0; h < o->n_keep_hints; h++) {
    const cp_keep_hint *k = &o->keep_hints[h];
    int seen = 0;
    for (unsigned i = 0; i < run->n_funcs; i++) {
      cp_func *f = &run->funcs[i];
      if (!f->pragma || strcmp(f->name, k->function) != 0)
        continue;
      seen = 1;
      cp_var *v = find_named(f, k->var);
      if (!v || v->group >= 0 || v->is_param)
        cp_diag_at(run, f->unit, CP_WARNING, f->pragma->offset,
                   "the profile keeps '%s' of '%s' in float, but '%s' has no float local "
                   "variable of that name (the source changed since the profile?): ignored [%s]",
                   k->var, f->name, f->name, cp_rule_name(CP_RULE_PRAGMA));
      else if (v->role != CP_VAR_FLOAT) {
        v->role = CP_VAR_FLOAT;
        cp_diag_at(run, f->unit, CP_NOTE, f->pragma->offset,
                   "'%s' of '%s' stays float, as keep(%s) would keep it: in the profiled run "
                   "it never carried an error term (--use-profile) [%s]",
                   k->var, f->name, k->var, cp_rule_name(CP_RULE_PRAGMA));
      }
    }
    if (!seen)
      cp_diag_add(run->r, CP_WARNING, NULL, 0, 0, NULL,
                  "the profile keeps '%s' of '%s' in float, but no annotated function of this "
                  "run is named '%s' (the source changed since the profile?): ignored [%s]",
                  k->var, k->function, k->function, cp_rule_name(CP_RULE_PRAGMA));
  }
}

void cp_collect_variables(cp_run *run) {
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
  apply_keep_hints(run);
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
}
