/*
 * annotate.c: the functions that convert: those `#pragma cp composite` marks (pragma.c
 * reads the pragmas), and the ones that convert with them.
 *
 * Each pragma marks the first declaration that starts after it, which must be a __global__
 * or __device__ function definition; anything else is an error at the pragma. A pragma
 * inside an `#if` branch the preprocessor skipped marks nothing, and gets a warning. An
 * annotated function template with a type parameter converts one instance at a time, each
 * a copy; `--all` marks every kernel and the __device__ functions they call; a header whose
 * text holds `#pragma cp` is a unit of its own (with --o-dir). Host functions that launch
 * converted kernels, or hand buffers to those that do, join the run too, so that
 * companions follow the buffers into host code. The unannotated __device__ helpers that
 * converted code calls are helper.c's.
 */
#include <string.h>

#include "annotate.h"

/* ---- binding pragmas to functions ------------------------------------------------- */

typedef struct {
  cp_run *run;
  cp_unit *u; /* the unit whose declarations these are */
  CXCursor *decls;
  unsigned *offsets;
  unsigned n, cap;
  unsigned next; /* pragmas come in source order: where the last one's search stopped */
  /* annotated templates with a type parameter named inside another template (`k<T, 2>`
   * in `run<T>`): checked once every pragma is bound (check_dependent_uses) */
  CXCursor *dep_tmpl, *dep_use, *dep_in;
  unsigned n_dep;
} decl_list;

/* Top-level declarations of the main file, in source order, looking inside namespaces,
 * extern "C" blocks, classes and structs (after the class itself, its members). */
static enum CXChildVisitResult collect_decls(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  decl_list *l = data;
  if (!cp_in_unit(l->u, c))
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
      k == CXCursor_UnexposedDecl) /* libclang 16 shows extern "C" { } as unexposed */
    return CXChildVisit_Recurse;
  if (!clang_isDeclaration(k))
    return CXChildVisit_Continue;
  if (l->n == l->cap) {
    unsigned cap = l->cap ? 2 * l->cap : 64;
    CXCursor *d = cp_arena_alloc(l->run->r->arena, cap * sizeof *d);
    unsigned *o = cp_arena_alloc(l->run->r->arena, cap * sizeof *o);
    if (l->n) {
      memcpy(d, l->decls, l->n * sizeof *d);
      memcpy(o, l->offsets, l->n * sizeof *o);
    }
    l->decls = d;
    l->offsets = o;
    l->cap = cap;
  }
  l->decls[l->n] = c;
  l->offsets[l->n++] = cp_extent_begin(c);
  /* member functions defined in the class body are host code too (is_host_definition) */
  return k == CXCursor_ClassDecl || k == CXCursor_StructDecl ? CXChildVisit_Recurse
                                                              : CXChildVisit_Continue;
}

static enum CXChildVisitResult find_cuda_attr(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CUDAGlobalAttr)
    *(int *)data = 2;
  else if (k == CXCursor_CUDADeviceAttr && *(int *)data == 0)
    *(int *)data = 1;
  return CXChildVisit_Continue;
}

int cp_cuda_kind(CXCursor fn) {
  int kind = 0;
  clang_visitChildren(fn, find_cuda_attr, &kind);
  return kind;
}

/* The definition a call calls: a function's, or for an instance of a function template
 * (sc<2>(x)) the template's, which is what converts (once for every instance). */
CXCursor cp_callee_definition(CXCursor call) {
  CXCursor ref = cp_callee(call);
  CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
  return clang_getCursorDefinition(clang_Cursor_isNull(tmpl) ? ref : tmpl);
}

int cp_is_function_definition(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  return (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) &&
         clang_isCursorDefinition(c);
}

/* A host function's definition may also be a member function defined at file scope
 * (`void Simulation::step() { ... }`, a constructor that allocates the fields). */
static int is_host_definition(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  return (k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
          k == CXCursor_Destructor) &&
         clang_isCursorDefinition(c);
}


/* Host functions of the main file that call converted functions (launches) or such host
 * functions, found until none is added, those that use file-scope pointers or pointer
 * fields (where allocations often are), and those that launch an unconverted kernel with a
 * struct of buffers: their buffer pointers join the pairing analysis so that companions
 * follow the buffers into host code, and their launches are checked for writers. */
typedef struct {
  cp_run *run;
  int found;
  int writers_only; /* a function template: only launches with a struct of buffers count */
} host_ctx;

/* A float or double pointer that lives outside the function: a file-scope variable or a
 * struct field (where host code keeps device buffers). */
static int outside_buffer(CXCursor ref) {
  enum CXCursorKind k = clang_getCursorKind(ref);
  if (k != CXCursor_FieldDecl && !(k == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(ref)))
    return 0;
  CXType t = clang_getCursorType(ref);
  return cp_pointee_width(t, 0) || cp_pointee_width(t, 1) || cp_symbol_width(ref);
}

/* A struct (or a pointer to one) that holds a float or double pointer, in a field or in a
 * struct held by value (`SimGpu` holding `AtomsGpu atoms` holding `vec_t r`), to a depth of 4. */
static int holds_buffer(CXType t, int depth) {
  t = clang_getCanonicalType(t);
  if (t.kind == CXType_Pointer && depth == 0)
    t = clang_getCanonicalType(clang_getPointeeType(t));
  CXCursor fields[64];
  unsigned n = t.kind == CXType_Record && depth < 4 ? cp_record_fields(t, fields, 64) : 0;
  for (unsigned i = 0; i < n; i++) {
    CXType ft = clang_getCursorType(fields[i]);
    if (cp_pointee_width(ft, 0) || cp_pointee_width(ft, 1) ||
        (clang_getCanonicalType(ft).kind == CXType_Record && holds_buffer(ft, depth + 1)))
      return 1;
  }
  return 0;
}

/* A launch of a kernel that is not converted, given a struct that holds buffers (CoMD's
 * `ShuffleAtomsData<<<g, b>>>(s->gpu, ...)` in a host function that launches nothing
 * converted): the kernel may write a paired field, which only the host walk can tell. */
static int launches_with_struct(CXCursor call, CXCursor ref) {
  if (clang_Cursor_isNull(ref)) /* `K<step><<<g, b>>>(sim)` in a template: the template K */
    ref = cp_callee(call);
  if (clang_Cursor_isNull(ref) || cp_cuda_kind(ref) != 2)
    return 0;
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++)
    if (holds_buffer(clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)i)), 0))
      return 1;
  return 0;
}

static enum CXChildVisitResult calls_converted(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  host_ctx *ctx = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXCursor ref = clang_getCursorReferenced(c);
  if ((!ctx->writers_only &&
       (((k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr) && cp_func_of(ctx->run, ref)) ||
        ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) && outside_buffer(ref)))) ||
      (k == CXCursor_CallExpr && launches_with_struct(c, ref))) {
    ctx->found = 1;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* Whether a function takes a float or double pointer (a device buffer it may copy,
 * clear or free). Buffers in structs are found by their fields (outside_buffer). */
static int takes_buffer(CXCursor fn) {
  int n = cp_num_args(fn);
  for (int i = 0; i < n; i++) {
    CXType t = clang_getCursorType(cp_arg(fn, (unsigned)i));
    if (cp_pointee_width(t, 0) || cp_pointee_width(t, 1))
      return 1;
  }
  return 0;
}

/* The USRs of the unconverted host functions that converted host code calls with a
 * buffer parameter (`copy_back(d_x, n)`, defined in this file or another input): they
 * join the analysis too, so that their copies, clears and frees follow the companions. */
typedef struct {
  cp_run *run;
  const char **usr;
  unsigned n, cap;
} callee_set;

static enum CXChildVisitResult note_callee(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  callee_set *s = data;
  if (clang_getCursorKind(c) != CXCursor_CallExpr)
    return CXChildVisit_Recurse;
  CXCursor ref = clang_getCursorReferenced(c);
  if (clang_getCursorKind(ref) != CXCursor_FunctionDecl || cp_cuda_kind(ref) != 0 ||
      clang_Location_isInSystemHeader(clang_getCursorLocation(ref)) || cp_func_of(s->run, ref) ||
      !takes_buffer(ref))
    return CXChildVisit_Recurse;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->usr = cp_arena_grow(s->run->r->arena, s->usr, s->n, s->cap, sizeof *s->usr);
  }
  s->usr[s->n++] = cp_usr(s->run, ref);
  return CXChildVisit_Recurse;
}

static int called_from_host(const callee_set *s, cp_run *run, CXCursor d) {
  if (!s->n)
    return 0;
  const char *usr = cp_usr(run, d);
  for (unsigned i = 0; i < s->n; i++)
    if (strcmp(s->usr[i], usr) == 0)
      return 1;
  return 0;
}

static void add_host_functions(cp_run *run, const decl_list *l) {
  for (int added = 1; added;) {
    added = 0;
    callee_set callees = {run, NULL, 0, 0};
    for (unsigned i = 0; i < run->n_funcs; i++)
      if (run->funcs[i].is_host)
        clang_visitChildren(run->funcs[i].cursor, note_callee, &callees);
    for (unsigned i = 0; i < l->n; i++) {
      CXCursor d = l->decls[i];
      int tmpl = clang_getCursorKind(d) == CXCursor_FunctionTemplate;
      if (!(is_host_definition(d) || (tmpl && clang_isCursorDefinition(d))) ||
          cp_cuda_kind(d) != 0 || cp_func_of(run, d))
        continue;
      host_ctx ctx = {run, 0, tmpl};
      clang_visitChildren(d, calls_converted, &ctx);
      if (ctx.found || called_from_host(&callees, run, d)) {
        cp_func *f = cp_add_func(run, l->u, d, NULL);
        if (f)
          f->is_host = 1;
        added = 1;
      }
    }
  }
}

cp_func *cp_add_func(cp_run *run, cp_unit *u, CXCursor fn, const cp_pragma *pr) {
  cp_func *f = cp_func_add(run, u, fn);
  f->is_kernel = cp_cuda_kind(fn) == 2;
  f->pragma = pr;
  return f;
}

static void add_instances(cp_run *run, decl_list *l, CXCursor tmpl, const cp_pragma *pr);

/* Binds a parsed pragma to the declaration after it, or reports why it cannot. */
static void bind_pragma(cp_run *run, decl_list *l, const cp_pragma *pr) {
  unsigned i = l->next;
  while (i < l->n && l->offsets[i] < pr->end)
    i++;
  /* a pragma between a template's parameter list and its function (`template <int B>`,
   * the pragma line, `__global__ void k(...)`) marks that template, which began before it;
   * the next declaration would be another function */
  if (i > l->next && clang_getCursorKind(l->decls[i - 1]) == CXCursor_FunctionTemplate &&
      cp_cursor_offset(l->decls[i - 1]) > pr->end)
    i--;
  l->next = i;
  if (i == l->n || !cp_is_function_definition(l->decls[i])) {
    enum CXCursorKind k = i == l->n ? CXCursor_NoDeclFound : clang_getCursorKind(l->decls[i]);
    const char *what = i == l->n ? NULL
                       : k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate
                           ? "a declaration without a body"
                           : "not a function";
    cp_diag_at(run, l->u, CP_ERROR, pr->offset,
               "'#pragma cp composite' must be followed by a __global__ or __device__ "
               "function definition%s%s [%s]",
               what ? "; what follows is " : "", what ? what : "", cp_rule_name(CP_RULE_PRAGMA));
    return;
  }
  if (cp_cuda_kind(l->decls[i]) == 0) {
    cp_diag_at(run, l->u, CP_ERROR, pr->offset,
               "'#pragma cp composite' marks a host function; only __global__ and __device__ "
               "functions are converted [%s]", cp_rule_name(CP_RULE_PRAGMA));
    return;
  }
  if (cp_func_of(run, l->decls[i])) {
    cp_diag_at(run, l->u, CP_ERROR, pr->offset,
               "the function after this pragma is already marked [%s]",
               cp_rule_name(CP_RULE_PRAGMA));
    return;
  }
  if (cp_per_instance(l->decls[i]))
    add_instances(run, l, l->decls[i], pr);
  else
    cp_add_func(run, l->u, l->decls[i], pr);
}

/* ---- function templates converted one instance at a time ------------------------- */

/* Whether a function template has a type parameter: its arithmetic may be float in one
 * instance and int in another, so each instance converts on its own. */
static enum CXChildVisitResult find_type_param(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_TemplateTypeParameter)
    *(int *)data = 1;
  return CXChildVisit_Continue;
}

int cp_per_instance(CXCursor fn) {
  int found = 0;
  if (clang_getCursorKind(fn) == CXCursor_FunctionTemplate)
    clang_visitChildren(fn, find_type_param, &found);
  return found;
}

typedef struct {
  cp_run *run;
  cp_unit *u; /* the unit searched */
  CXCursor tmpl;
  const cp_pragma *pr;
  unsigned converted;
  CXCursor in, dependent; /* the declaration searched; a use of the template inside
                             another template (`k<T, 2><<<...>>>`), whose instance is not
                             known there */
} instance_ctx;

/* The copy's name: NAME_cp and each argument (axpy<float, 4>: axpy_cp_float_4); NULL if
 * an argument cannot be written out. */
const char *cp_instance_name(cp_run *run, CXCursor inst) {
  const char *names[CP_MAX_TEMPLATE_ARGS], *values[CP_MAX_TEMPLATE_ARGS];
  int n = cp_template_args(run->r->arena, inst, names, values);
  if (n < 0)
    return NULL;
  char *name = cp_arena_printf(run->r->arena, "%s_cp", cp_cursor_spelling(run->r->arena, inst));
  for (int k = 0; k < n; k++) {
    size_t from = strlen(name) + 1;
    name = cp_arena_printf(run->r->arena, "%s_%s", name, values[k]);
    for (char *q = name + from; *q; q++)
      if (*q == '-')
        *q = 'm'; /* -1: m1 */
      else if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9')))
        *q = '_'; /* unsigned int, ns::vec */
  }
  return name;
}

void cp_unwritable_instance(cp_run *run, const cp_unit *u, CXCursor call, CXCursor inst) {
  cp_diag_cursor(run, CP_ERROR, u->p.tu, call,
                 "this instance of '%s' has a template argument that is neither a type with a "
                 "name nor an integer (a lambda, a template, a pack); cpconvert writes each "
                 "instance out as a function that is not a template, and cannot write this one: "
                 "pass a named type [%s]", cp_cursor_spelling(run->r->arena, inst),
                 cp_rule_name(CP_RULE_UNSUPPORTED_TEMPLATE));
}

/* Whether an instance computes in float: a type argument is float or floatN. */
int cp_float_instance(CXCursor inst) {
  int n = clang_Cursor_getNumTemplateArguments(inst);
  for (int k = 0; k < n; k++)
    if (clang_Cursor_getTemplateArgumentKind(inst, (unsigned)k) == CXTemplateArgumentKind_Type &&
        cp_type_width(clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(inst, (unsigned)k)), 0))
      return 1;
  return 0;
}

static enum CXChildVisitResult find_instances(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  instance_ctx *ctx = data;
  if (clang_getCursorKind(c) == CXCursor_OverloadedDeclRef && clang_Cursor_isNull(ctx->dependent))
    for (unsigned k = 0; k < clang_getNumOverloadedDecls(c); k++)
      if (clang_equalCursors(clang_getOverloadedDecl(c, k), ctx->tmpl))
        ctx->dependent = c;
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
    return CXChildVisit_Recurse;
  CXCursor inst = clang_getCursorDefinition(clang_getCursorReferenced(c));
  if (clang_getCursorKind(inst) != CXCursor_FunctionDecl ||
      !clang_equalCursors(clang_getSpecializedCursorTemplate(inst), ctx->tmpl) ||
      cp_func_of(ctx->run, inst) || !cp_float_instance(inst))
    return CXChildVisit_Recurse;
  const char *name = cp_instance_name(ctx->run, inst);
  if (!name) {
    cp_unwritable_instance(ctx->run, ctx->u, c, inst);
    return CXChildVisit_Recurse;
  }
  cp_func *f = cp_add_func(ctx->run, ctx->u, inst, ctx->pr);
  f->instance = 1;
  f->twin = name;
  ctx->converted++;
  return CXChildVisit_Recurse;
}

/* An annotated function template with a type parameter: its instances that this file
 * calls or launches with float arguments convert, each as a copy (rule template-instance). */
static void add_instances(cp_run *run, decl_list *l, CXCursor tmpl, const cp_pragma *pr) {
  instance_ctx ctx = {run, l->u, tmpl, pr, 0, clang_getNullCursor(), clang_getNullCursor()};
  for (unsigned i = 0; i < l->n; i++)
    if (!clang_equalCursors(l->decls[i], tmpl)) {
      CXCursor before = ctx.dependent;
      clang_visitChildren(l->decls[i], find_instances, &ctx);
      if (!clang_equalCursors(before, ctx.dependent))
        ctx.in = l->decls[i];
    }
  const char *name = cp_cursor_spelling(run->r->arena, tmpl);
  if (!clang_Cursor_isNull(ctx.dependent)) { /* few: grown by one */
    l->dep_tmpl = cp_arena_grow(run->r->arena, l->dep_tmpl, l->n_dep, l->n_dep + 1, sizeof(CXCursor));
    l->dep_use = cp_arena_grow(run->r->arena, l->dep_use, l->n_dep, l->n_dep + 1, sizeof(CXCursor));
    l->dep_in = cp_arena_grow(run->r->arena, l->dep_in, l->n_dep, l->n_dep + 1, sizeof(CXCursor));
    l->dep_tmpl[l->n_dep] = tmpl;
    l->dep_use[l->n_dep] = ctx.dependent;
    l->dep_in[l->n_dep++] = ctx.in;
  }
  if (!ctx.converted && clang_Cursor_isNull(ctx.dependent))
    cp_diag_at(run, l->u, CP_ERROR, pr->offset,
               "'%s' is a template with a type parameter, so it converts one instance at a "
               "time, and no code in this file calls or launches an instance whose arguments "
               "make its arithmetic float (as '%s<float>'): use one here, or annotate a "
               "function that is not a template [%s]",
               name, name, cp_rule_name(CP_RULE_TEMPLATE_INSTANCE));
}

/* A template named inside another template converts only where that template is itself
 * annotated and converts instance by instance (its instances then name concrete ones):
 * elsewhere, the other template's float instance would call the float original, which
 * writes paired buffers without their companions. */
static void check_dependent_uses(cp_run *run, const decl_list *l) {
  for (unsigned i = 0; i < l->n_dep; i++) {
    int converted = 0;
    for (unsigned k = 0; k < run->n_funcs && !converted; k++)
      converted = run->funcs[k].instance && !run->funcs[k].auto_conv &&
                  clang_equalCursors(clang_getSpecializedCursorTemplate(run->funcs[k].cursor),
                                     l->dep_in[i]);
    if (converted)
      continue;
    const char *name = cp_cursor_spelling(run->r->arena, l->dep_tmpl[i]);
    cp_diag_cursor(run, CP_ERROR, l->u->p.tu, l->dep_use[i],
                   "'%s' is a template with a type parameter, so it converts one instance at a "
                   "time, and it is named here inside the template '%s', whose instances "
                   "cpconvert does not convert (they would call the float original): launch or "
                   "call '%s<float, ...>' from a function that is not a template (a device "
                   "template may instead be annotated too) [%s]",
                   name, cp_cursor_spelling(run->r->arena, l->dep_in[i]), name,
                   cp_rule_name(CP_RULE_TEMPLATE_INSTANCE));
  }
}

/* --all: every kernel of the main file, and (transitively) the __device__ functions of
 * the main file that converted functions call. */
typedef struct {
  cp_run *run;
  cp_unit *u;
} call_ctx;

static enum CXChildVisitResult add_callees(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  call_ctx *ctx = data;
  if (clang_getCursorKind(c) == CXCursor_CallExpr) {
    CXCursor callee = cp_callee_definition(c);
    if (!clang_Cursor_isNull(callee) && cp_is_function_definition(callee) &&
        cp_in_unit(ctx->u, callee) &&
        cp_cuda_kind(callee) == 1 && !cp_func_of(ctx->run, callee))
      cp_add_func(ctx->run, ctx->u, callee, NULL);
  }
  return CXChildVisit_Recurse;
}

/* Annotations in headers: a header whose text holds `#pragma cp` becomes a unit of the
 * run (written under --o-dir), its functions found through the first translation unit
 * that includes it, and so converted once however many inputs include it. Marked here,
 * scanned after the inclusions are listed. Without --o-dir the run writes one file, so
 * such a header is an error that says to use it. */
static void header_pragma(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  const decl_list *l = data;
  cp_run *run = l->run;
  CXTranslationUnit tu = l->u->p.tu;
  (void)stack;
  if (depth == 0 || clang_Location_isInSystemHeader(clang_getLocation(tu, file, 1, 1)))
    return;
  size_t len = 0, b = 0, e = 0;
  unsigned line = 0;
  const char *text = clang_getFileContents(tu, file, &len);
  if (!cp_find_cp_pragma(text, len, &line, &b, &e))
    return;
  cp_unit *u = cp_unit_for_file(run, tu, file);
  if (u && u != l->u && !u->scanned)
    u->scanned = -1;
  if (u)
    return;
  CXString name = clang_getFileName(file);
  cp_diag_add(run->r, CP_ERROR, cp_arena_strdup(run->r->arena, clang_getCString(name)), line,
              (unsigned)(strspn(text + b, " \t") + 1), cp_arena_strndup(run->r->arena, text + b, e - b),
              "'#pragma cp' in a header: its converted functions go into a converted copy of "
              "the header, and -o writes one file; convert with --o-dir DIR, which writes the "
              "header there too [%s]", cp_rule_name(CP_RULE_PRAGMA));
  clang_disposeString(name);
}

/* The headers header_pragma marked in the translation unit of input `from`, each scanned
 * as a unit of its own (recursively: a header's headers were listed with the same TU). */
static void scan_headers(cp_run *run, const cp_unit *from) {
  for (unsigned i = 0; i < run->n_units; i++) {
    cp_unit *u = run->units[i];
    if (u->scanned != -1 || u->p.tu != from->p.tu)
      continue;
    u->scanned = 1;
    unsigned before = run->n_funcs;
    cp_find_functions(run, u);
    u->has_funcs |= run->n_funcs > before;
  }
}

/* A `#pragma cp` in a preprocessor branch that was not taken marks nothing. A warning,
 * unless the function after it is marked by another pragma (the branches of an `#ifdef`
 * choosing between two pragmas for one kernel), or the branch is one of CUDA's two
 * compilations that the run converts in a view of its own (convert.c: the device view,
 * and the host view of its #else). */
static void warn_skipped_pragma(cp_run *run, const decl_list *l,
                                const CXSourceRangeList *skipped, unsigned at) {
  const cp_unit *u = l->u;
  unsigned end = cp_logical_line_end(&u->opt, at), i = 0;
  while (i < l->n && l->offsets[i] < end)
    i++;
  if (i < l->n && cp_func_of(run, l->decls[i]))
    return;
  for (unsigned k = 0; k < skipped->count; k++) {
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[k]), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(skipped->ranges[k]), NULL, NULL, NULL, &e);
    if (at >= b && at < e && (run->settings->device_parse || run->settings->host_view) &&
        cp_arch_branch(u->opt.input_text, b, (unsigned)u->opt.input_len))
      return;
  }
  cp_diag_at(run, u, CP_WARNING, at,
             "'#pragma cp' in a preprocessor branch that was not taken: the function it marks "
             "is not converted; convert with the -D options that select the branch [%s]",
                 cp_rule_name(CP_RULE_PRAGMA));
}

/* Unit u's top-level declarations, in source order, into a fresh list. */
static void unit_decls(cp_run *run, cp_unit *u, decl_list *l) {
  memset(l, 0, sizeof *l);
  l->run = run;
  l->u = u;
  clang_visitChildren(clang_getTranslationUnitCursor(u->p.tu), collect_decls, l);
}

void cp_find_functions(cp_run *run, cp_unit *u) {
  decl_list l;
  unit_decls(run, u, &l);
  unsigned first = run->n_funcs; /* functions of earlier units come before */

  unsigned nt = 0;
  token *t = cp_tokenize_main(run, u, &nt);
  CXSourceRangeList *skipped = clang_getSkippedRanges(u->p.tu, u->p.main_file);
  unsigned *unread = cp_arena_alloc(run->r->arena, (nt + 1) * sizeof *unread), n_unread = 0;
  for (unsigned i = 0; i + 2 < nt; i++) {
    if (strcmp(t[i].s, "_Pragma") == 0)
      cp_warn_operator_pragma(run, u, t, nt, i);
    if (strcmp(t[i].s, "#") != 0 || strcmp(t[i + 1].s, "pragma") != 0 ||
        !cp_starts_line(&u->opt, t[i].offset))
      continue;
    unsigned end = cp_logical_line_end(&u->opt, t[i].offset);
    if (t[i + 2].offset >= end)
      continue; /* `#pragma` alone */
    if (strcmp(t[i + 2].s, "cp") != 0) {
      if (!cp_in_skipped_range(skipped, t[i].offset))
        cp_warn_near_miss(run, u, t, nt, i + 2, end);
      continue;
    }
    if (cp_in_skipped_range(skipped, t[i].offset)) {
      if (n_unread < nt) /* warned about once every pragma is bound */
        unread[n_unread++] = t[i].offset;
      continue;
    }
    pragma_lexer lx = {t, nt, i, end, u};
    cp_pragma *pr = cp_arena_alloc(run->r->arena, sizeof *pr);
    if (cp_parse_pragma(run, &lx, pr) == 0)
      bind_pragma(run, &l, pr);
    i = lx.i > i ? lx.i - 1 : i;
  }
  check_dependent_uses(run, &l);
  for (unsigned k = 0; k < n_unread; k++)
    warn_skipped_pragma(run, &l, skipped, unread[k]);
  cp_warn_skipped_branches(run, u, first, skipped);
  clang_disposeSourceRangeList(skipped);
  if (!u->is_header) {
    clang_getInclusions(u->p.tu, header_pragma, &l);
    scan_headers(run, u);
  }

  /* --suggest: every kernel and device function */
  for (unsigned i = 0; run->settings->suggest && i < l.n; i++)
    if (cp_is_function_definition(l.decls[i]) && cp_cuda_kind(l.decls[i]) && !cp_func_of(run, l.decls[i]))
      cp_add_func(run, u, l.decls[i], NULL);
  if (run->settings->all) {
    for (unsigned i = 0; i < l.n; i++)
      if (cp_is_function_definition(l.decls[i]) && cp_cuda_kind(l.decls[i]) == 2 &&
          !cp_func_of(run, l.decls[i]))
        cp_add_func(run, u, l.decls[i], NULL);
    call_ctx ctx = {run, u};
    for (unsigned i = first; i < run->n_funcs; i++) /* n_funcs grows as callees are added */
      clang_visitChildren(run->funcs[i].cursor, add_callees, &ctx);
  }
}

void cp_find_host_functions(cp_run *run, cp_unit *u) {
  decl_list l;
  unit_decls(run, u, &l);
  add_host_functions(run, &l);
}
