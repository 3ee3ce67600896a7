/*
 * annotate.c: `#pragma cp composite [clauses]` and the functions it marks.
 *
 * libclang keeps no pragma in the AST, so pragmas are read from the main file's tokens,
 * comments left out: a `#` that starts a line (after blanks, or a UTF-8 byte order mark
 * on the first), then `pragma`, then `cp`, up to the end of the logical line (LF, CRLF or
 * a lone CR; backslash-newline continues it). A pragma inside an `#if` branch the
 * preprocessor skipped marks nothing, and gets a warning; so do `_Pragma("cp ...")` and
 * near-miss spellings (`#pragma CP composite`, `#pragma cpp composite`), which would
 * otherwise leave a function float without a word. Each pragma marks the first
 * declaration that starts after it, which must be a __global__ or __device__ function
 * definition; anything else is an error at the pragma.
 *
 * Clauses: pair(p, ...) nopair(p, ...) keep(v, ...) scope(all|accumulators)
 *          accumulate(composite|fixed|kahan|double)
 * A pragma without scope() or accumulate() takes the run's defaults (--scope,
 * --accumulate); a clause written in the pragma wins.
 * Whether the names exist is checked in analyse.c, which knows the function's variables.
 *
 * The pragma on __device__ helpers is optional: cp_find_helpers adds the unannotated
 * __device__ functions of the main file that converted functions call with a float
 * interface, transitively (function.c decides whether each converts in place or as a twin).
 */
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

typedef struct {
  const char *s;
  unsigned offset;
} token;

typedef struct {
  token *t;
  unsigned n, i;
  unsigned end_offset; /* offset just past the pragma's logical line */
  const cp_unit *u;    /* the unit whose text it reads */
} pragma_lexer;

/* Offset of the end of the logical line that starts at `offset`: its '\n' (CRLF, LF) or
 * its lone '\r' (old Mac files: clang ends lines there too), unless a backslash before
 * it continues the line (also with spaces or tabs between them, as clang reads it, with
 * a warning). */
static unsigned logical_line_end(const cp_options *opt, unsigned offset) {
  const char *s = opt->input_text;
  for (unsigned i = offset; i < opt->input_len; i++) {
    if (s[i] != '\n' && s[i] != '\r')
      continue;
    if (s[i] == '\r' && i + 1 < opt->input_len && s[i + 1] == '\n')
      continue; /* CRLF: the line ends at its '\n' */
    unsigned j = s[i] == '\n' && i > 0 && s[i - 1] == '\r' ? i - 1 : i;
    while (j > offset && (s[j - 1] == ' ' || s[j - 1] == '\t'))
      j--;
    if (j == 0 || s[j - 1] != '\\')
      return i;
  }
  return (unsigned)opt->input_len;
}

static const token *peek(pragma_lexer *lx) {
  return lx->i < lx->n && lx->t[lx->i].offset < lx->end_offset ? &lx->t[lx->i] : NULL;
}

static int accept(pragma_lexer *lx, const char *s) {
  const token *t = peek(lx);
  if (t && strcmp(t->s, s) == 0) {
    lx->i++;
    return 1;
  }
  return 0;
}

static int is_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
          (*s >= '0' && *s <= '9')))
      return 0;
  return 1;
}

/* `( name, name, ... )` into a list; returns 0 or -1 after a diagnostic. */
static int parse_names(cp_run *run, pragma_lexer *lx, const char *clause, cp_clause_name **out,
                       unsigned *count) {
  unsigned at = lx->i > 0 ? lx->t[lx->i - 1].offset : 0;
  if (!accept(lx, "(")) {
    cp_diag_at(run, lx->u, CP_ERROR, at, "expected '(' after '%s' [%s]", clause,
               cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  unsigned cap = 8;
  cp_clause_name *names = cp_arena_alloc(run->r->arena, cap * sizeof *names);
  unsigned n = 0;
  for (;;) {
    const token *t = peek(lx);
    if (!t || !is_identifier(t->s)) {
      cp_diag_at(run, lx->u, CP_ERROR, t ? t->offset : at, "expected a name in '%s(...)' [%s]",
                 clause, cp_rule_name(CP_RULE_PRAGMA));
      return -1;
    }
    if (n == cap) {
      cp_clause_name *bigger = cp_arena_alloc(run->r->arena, 2 * cap * sizeof *bigger);
      memcpy(bigger, names, n * sizeof *names);
      names = bigger;
      cap *= 2;
    }
    const char *name = t->s;
    unsigned name_at = t->offset;
    lx->i++;
    for (const token *sep; (sep = peek(lx)) && (strcmp(sep->s, ".") == 0 ||
                                                strcmp(sep->s, "->") == 0);) {
      lx->i++; /* a field path: pair(s.x), pair(sim->atoms.r.x) */
      const token *f = peek(lx);
      if (!f || !is_identifier(f->s)) {
        cp_diag_at(run, lx->u, CP_ERROR, f ? f->offset : sep->offset,
                   "expected a field name after '%s' in '%s(...)' [%s]", sep->s, clause,
                   cp_rule_name(CP_RULE_PRAGMA));
        return -1;
      }
      name = cp_arena_printf(run->r->arena, "%s%s%s", name, sep->s, f->s);
      lx->i++;
    }
    names[n++] = (cp_clause_name){name, name_at};
    if (accept(lx, ")"))
      break;
    if (!accept(lx, ",")) {
      t = peek(lx);
      cp_diag_at(run, lx->u, CP_ERROR, t ? t->offset : at,
                 "expected ',' or ')' in '%s(...)' [%s]", clause, cp_rule_name(CP_RULE_PRAGMA));
      return -1;
    }
  }
  /* pair(a) pair(b) is the same as pair(a, b) */
  cp_clause_name *all = cp_arena_alloc(run->r->arena, (*count + n) * sizeof *all);
  if (*count)
    memcpy(all, *out, *count * sizeof *all);
  memcpy(all + *count, names, n * sizeof *names);
  *out = all;
  *count += n;
  return 0;
}

/* `(word)` where word is one of `choices` (NULL-terminated); returns its index or -1. */
static int parse_choice(cp_run *run, pragma_lexer *lx, const char *clause,
                        const char *const *choices, const char *expected) {
  unsigned at = lx->t[lx->i - 1].offset;
  const token *t;
  if (!accept(lx, "(") || !(t = peek(lx))) {
    cp_diag_at(run, lx->u, CP_ERROR, at, "expected '(' after '%s' [%s]", clause,
               cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  for (int k = 0; choices[k]; k++) {
    if (strcmp(t->s, choices[k]) == 0) {
      lx->i++;
      if (!accept(lx, ")")) {
        cp_diag_at(run, lx->u, CP_ERROR, t->offset, "expected ')' after '%s(%s' [%s]", clause, t->s,
                   cp_rule_name(CP_RULE_PRAGMA));
        return -1;
      }
      return k;
    }
  }
  cp_diag_at(run, lx->u, CP_ERROR, t->offset, "'%s' takes %s, not '%s' [%s]", clause, expected,
             t->s, cp_rule_name(CP_RULE_PRAGMA));
  return -1;
}

static const char *const scope_names[] = {"all", "accumulators", NULL};
static const char *const accum_names[] = {"composite", "fixed", "kahan", "double", NULL};

/* Parses one pragma starting at lx->i (the `#`); returns 0 or -1 after a diagnostic. */
static int parse_pragma(cp_run *run, pragma_lexer *lx, cp_pragma *pr) {
  memset(pr, 0, sizeof *pr);
  pr->offset = lx->t[lx->i].offset;
  pr->end = lx->end_offset;
  pr->scope = lx->u->opt.scope;
  pr->accum = lx->u->opt.accumulate;
  lx->i += 3; /* # pragma cp */
  const token *t = peek(lx);
  if (!t || strcmp(t->s, "composite") != 0) {
    cp_diag_at(run, lx->u, CP_ERROR, t ? t->offset : pr->offset,
               "unknown cp directive%s%s%s (expected '#pragma cp composite') [%s]", t ? " '" : "",
               t ? t->s : "", t ? "'" : "", cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  lx->i++;
  int seen_scope = 0, seen_accum = 0, k;
  while ((t = peek(lx))) {
    const char *c = t->s;
    unsigned at = t->offset;
    lx->i++;
    if (strcmp(c, ",") == 0)
      continue;
    if (strcmp(c, "pair") == 0 || strcmp(c, "nopair") == 0 || strcmp(c, "keep") == 0) {
      cp_clause_name **list = c[0] == 'p' ? &pr->pair : c[0] == 'n' ? &pr->nopair : &pr->keep;
      unsigned *count = c[0] == 'p' ? &pr->n_pair : c[0] == 'n' ? &pr->n_nopair : &pr->n_keep;
      if (parse_names(run, lx, c, list, count) != 0)
        return -1;
    } else if (strcmp(c, "scope") == 0 || strcmp(c, "accumulate") == 0) {
      int is_scope = c[0] == 's';
      if (is_scope ? seen_scope++ : seen_accum++) {
        cp_diag_at(run, lx->u, CP_ERROR, at, "'%s' is given twice [%s]", c,
                   cp_rule_name(CP_RULE_PRAGMA));
        return -1;
      }
      k = parse_choice(run, lx, c, is_scope ? scope_names : accum_names,
                       is_scope ? "all or accumulators" : "composite, fixed, kahan or double");
      if (k < 0)
        return -1;
      if (is_scope)
        pr->scope = (cp_scope)k;
      else
        pr->accum = (cp_accum)k, pr->accum_given = 1;
    } else {
      cp_diag_at(run, lx->u, CP_ERROR, at,
                 "unknown clause '%s' in '#pragma cp composite' (expected pair, nopair, keep, "
                 "scope or accumulate) [%s]",
                 c, cp_rule_name(CP_RULE_PRAGMA));
      return -1;
    }
  }
  return 0;
}

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

static unsigned cursor_offset(CXCursor c) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL,
                             &off);
  return off;
}

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
  l->offsets[l->n++] = cursor_offset(c);
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
static CXCursor callee_definition(CXCursor call) {
  CXCursor ref = cp_callee(call);
  CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
  return clang_getCursorDefinition(clang_Cursor_isNull(tmpl) ? ref : tmpl);
}

static int is_function_definition(CXCursor c) {
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

static cp_func *add_func(cp_run *run, cp_unit *u, CXCursor fn, const cp_pragma *pr);

/* Host functions of the main file that call converted functions (launches) or such host
 * functions, found until none is added, and those that use file-scope pointers or pointer
 * fields (where allocations often are): their buffer pointers join the pairing analysis
 * so that companions follow the buffers into host code. */
typedef struct {
  cp_run *run;
  int found;
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

static enum CXChildVisitResult calls_converted(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  host_ctx *ctx = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXCursor ref = clang_getCursorReferenced(c);
  if (((k == CXCursor_CallExpr || k == CXCursor_DeclRefExpr) && cp_func_of(ctx->run, ref)) ||
      ((k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) && outside_buffer(ref))) {
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
      if (!is_host_definition(d) || cp_cuda_kind(d) != 0 || cp_func_of(run, d))
        continue;
      host_ctx ctx = {run, 0};
      clang_visitChildren(d, calls_converted, &ctx);
      if (ctx.found || called_from_host(&callees, run, d)) {
        cp_func *f = add_func(run, l->u, d, NULL);
        if (f)
          f->is_host = 1;
        added = 1;
      }
    }
  }
}

static cp_func *add_func(cp_run *run, cp_unit *u, CXCursor fn, const cp_pragma *pr) {
  cp_func *f = cp_func_add(run, u, fn);
  f->is_kernel = cp_cuda_kind(fn) == 2;
  f->pragma = pr;
  return f;
}

static int per_instance(CXCursor fn);
static void add_instances(cp_run *run, decl_list *l, CXCursor tmpl, const cp_pragma *pr);

/* Binds a parsed pragma to the declaration after it, or reports why it cannot. */
static void bind_pragma(cp_run *run, decl_list *l, const cp_pragma *pr) {
  unsigned i = l->next;
  while (i < l->n && l->offsets[i] < pr->end)
    i++;
  l->next = i;
  if (i == l->n || !is_function_definition(l->decls[i])) {
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
  if (per_instance(l->decls[i]))
    add_instances(run, l, l->decls[i], pr);
  else
    add_func(run, l->u, l->decls[i], pr);
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

static int per_instance(CXCursor fn) {
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
static const char *instance_name(cp_run *run, CXCursor inst) {
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

static void unwritable_instance(cp_run *run, const cp_unit *u, CXCursor call, CXCursor inst) {
  cp_diag_cursor(run, CP_ERROR, u->p.tu, call,
                 "this instance of '%s' has a template argument that is neither a type with a "
                 "name nor an integer (a lambda, a template, a pack); cpconvert writes each "
                 "instance out as a function that is not a template, and cannot write this one: "
                 "pass a named type [%s]", cp_cursor_spelling(run->r->arena, inst),
                 cp_rule_name(CP_RULE_UNSUPPORTED_TEMPLATE));
}

/* Whether an instance computes in float: a type argument is float or floatN. */
static int float_instance(CXCursor inst) {
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
      cp_func_of(ctx->run, inst) || !float_instance(inst))
    return CXChildVisit_Recurse;
  const char *name = instance_name(ctx->run, inst);
  if (!name) {
    unwritable_instance(ctx->run, ctx->u, c, inst);
    return CXChildVisit_Recurse;
  }
  cp_func *f = add_func(ctx->run, ctx->u, inst, ctx->pr);
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

static int in_skipped_range(const CXSourceRangeList *skipped, unsigned offset) {
  for (unsigned i = 0; skipped && i < skipped->count; i++) {
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[i]), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(skipped->ranges[i]), NULL, NULL, NULL, &e);
    if (offset >= b && offset < e)
      return 1;
  }
  return 0;
}

/* Unit u's tokens as (spelling, offset) pairs. */
static token *tokenize_main(cp_run *run, const cp_unit *u, unsigned *count) {
  const cp_parse *p = &u->p;
  CXSourceLocation b = clang_getLocationForOffset(p->tu, p->main_file, 0);
  CXSourceLocation e = clang_getLocationForOffset(p->tu, p->main_file, (unsigned)u->opt.input_len);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(p->tu, clang_getRange(b, e), &toks, &n);
  token *out = cp_arena_alloc(run->r->arena, (n + 1) * sizeof *out);
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++) {
    if (clang_getTokenKind(toks[i]) == CXToken_Comment)
      continue; /* `#pragma cp composite // why`: a comment is no clause */
    CXString s = clang_getTokenSpelling(p->tu, toks[i]);
    out[k].s = cp_arena_strdup(run->r->arena, clang_getCString(s));
    clang_disposeString(s);
    clang_getSpellingLocation(clang_getTokenLocation(p->tu, toks[i]), NULL, NULL, NULL,
                              &out[k++].offset);
  }
  clang_disposeTokens(p->tu, toks, n);
  *count = k;
  return out;
}

/* Whether only blanks stand before `offset` on its line. A UTF-8 byte order mark before
 * the first line is no text (clang skips it too). */
static int starts_line(const cp_options *opt, unsigned offset) {
  const char *t = opt->input_text;
  while (offset > 0 && (t[offset - 1] == ' ' || t[offset - 1] == '\t'))
    offset--;
  return offset == 0 || t[offset - 1] == '\n' || t[offset - 1] == '\r' ||
         (offset == 3 && memcmp(t, "\xEF\xBB\xBF", 3) == 0);
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
    CXCursor callee = callee_definition(c);
    if (!clang_Cursor_isNull(callee) && is_function_definition(callee) &&
        cp_in_unit(ctx->u, callee) &&
        cp_cuda_kind(callee) == 1 && !cp_func_of(ctx->run, callee))
      add_func(ctx->run, ctx->u, callee, NULL);
  }
  return CXChildVisit_Recurse;
}

/* The precision of a math function, by its rules.def row (CP_MATH's prec). */
enum { precision_of_any = 0, precision_of_float = 1, precision_of_double = 2 };

/* What the identifier `w` (length n) names: 1 float (float, float2..4, a float math
 * function of rules.def: sqrtf, __fdividef), 2 double (double, double2..4, a double math
 * function: sqrt, __fma_rn, the bit casts of double), 0 neither (or both: min, max). */
static int precision_word(const char *w, size_t n) {
  static const char *const dbl_casts[] = {"__double_as_longlong", "__longlong_as_double",
                                          "__hiloint2double", "__double2hiint", "__double2loint"};
  for (int p = 1; p <= 2; p++) {
    size_t k = p == 1 ? 5 : 6;
    if (n >= k && strncmp(w, p == 1 ? "float" : "double", k) == 0 &&
        (n == k || (n == k + 1 && w[k] >= '2' && w[k] <= '4')))
      return p;
  }
  for (size_t i = 0; i < sizeof dbl_casts / sizeof *dbl_casts; i++)
    if (strlen(dbl_casts[i]) == n && strncmp(w, dbl_casts[i], n) == 0)
      return 2;
#define CP_MATH(cuda_name, cp_name, nargs, prec)                                             \
  if (n == sizeof #cuda_name - 1 && strncmp(w, #cuda_name, n) == 0)                           \
    return precision_of_##prec;
#include "rules.def"
  return 0;
}

/* What the number `w` (length n) is: 1 a float literal (1.5f, 0x1p3f), 2 a double one
 * (1.5, 1e-3), 0 an integer (0xff is one). */
static int precision_literal(const char *w, size_t n) {
  int hex = n > 1 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'), real = 0;
  for (size_t i = 0; i < n; i++)
    if (hex ? (w[i] == 'p' || w[i] == 'P') : (w[i] == '.' || w[i] == 'e' || w[i] == 'E'))
      real = 1;
  if (!real)
    return 0;
  return w[n - 1] == 'f' || w[n - 1] == 'F' ? 1 : 2;
}

/* The precision tokens of the text [b, e) outside comments and strings: bit 1 a float
 * token, bit 2 a double token (precision_word, precision_literal). */
static int precision_tokens(const char *t, unsigned b, unsigned e) {
  int found = 0;
  for (unsigned i = b; i < e;) {
    unsigned j = i + 1;
    if (t[i] == '/' && j < e && t[j] == '/') {
      while (j < e && t[j] != '\n')
        j++;
    } else if (t[i] == '/' && j < e && t[j] == '*') {
      for (j++; j + 1 < e && !(t[j] == '*' && t[j + 1] == '/'); j++)
        ;
      j += 2;
    } else if (t[i] == '"' || t[i] == '\'') {
      while (j < e && t[j] != t[i] && t[j] != '\n')
        j += t[j] == '\\' ? 2 : 1;
      j++;
    } else if (isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '.') {
      int num = isdigit((unsigned char)t[i]) ||
                (t[i] == '.' && i + 1 < e && isdigit((unsigned char)t[i + 1]));
      while (j < e && (isalnum((unsigned char)t[j]) || t[j] == '_' || t[j] == '.' ||
                       (num && (t[j] == '+' || t[j] == '-') && strchr("eEpP", t[j - 1]))))
        j++;
      found |= num ? precision_literal(t + i, j - i) : precision_word(t + i, j - i);
    }
    i = j;
  }
  return found;
}

/* Whether an untaken branch [b, e) is the double side of a precision switch: it names
 * double (a type, a literal like 2.0, a double math function or bit cast) and nothing
 * float. Such a branch is the double build, which is not converted by design. */
static int double_branch(const char *t, unsigned b, unsigned e) {
  return precision_tokens(t, b, e) == 2;
}

/* The directive word of the line starting at `b` (if, ifdef, else, endif...), or "". */
static const char *directive(const char *t, unsigned b, unsigned len, unsigned *word) {
  unsigned i = b;
  while (i < len && (t[i] == ' ' || t[i] == '\t'))
    i++;
  if (i >= len || t[i] != '#')
    return "";
  for (i++; i < len && (t[i] == ' ' || t[i] == '\t'); i++)
    ;
  *word = i;
  return t + i;
}

static int line_names_arch(const char *t, unsigned b, unsigned len) {
  for (unsigned i = b; i + 13 <= len && t[i] != '\n'; i++)
    if (strncmp(t + i, "__CUDA_ARCH__", 13) == 0)
      return 1;
  return 0;
}

/* Whether the untaken branch at `b` belongs to a conditional on __CUDA_ARCH__ (`#if
 * __CUDA_ARCH__ >= 700`, `#ifdef __CUDA_ARCH__`, or the #else/#elif of one): a branch one
 * of CUDA's two compilations takes and the other does not. */
static int arch_branch(const char *t, unsigned b, unsigned len) {
  unsigned w = 0;
  const char *d = directive(t, b, len, &w);
  if (line_names_arch(t, b, len))
    return 1;
  if (strncmp(d, "el", 2) != 0)
    return 0;
  int depth = 0; /* back to the #if that opens this chain */
  for (unsigned ls = b; ls > 0;) {
    unsigned p = ls - 1; /* the previous line's start */
    while (p > 0 && t[p - 1] != '\n')
      p--;
    ls = p;
    d = directive(t, ls, len, &w);
    if (strncmp(d, "endif", 5) == 0)
      depth++;
    else if (strncmp(d, "if", 2) == 0 && depth-- == 0)
      return line_names_arch(t, ls, len);
    else if (strncmp(d, "el", 2) == 0 && depth == 0 && line_names_arch(t, ls, len))
      return 1;
  }
  return 0;
}

/* Code of a converted function in a preprocessor branch that was not taken is left as it
 * is: a warning at the branch, so that nobody selects it later and gets float code. Not
 * for the double side of a `real` typedef switch (double_branch): it is the double
 * build, converted by nobody. */
static void warn_skipped_branches(cp_run *run, const cp_unit *u, unsigned first,
                                  const CXSourceRangeList *skipped) {
  unsigned reported = UINT_MAX;
  for (unsigned f = first; skipped && f < run->n_funcs; f++) {
    if (run->funcs[f].unit != u)
      continue;
    CXSourceRange ext = clang_getCursorExtent(run->funcs[f].cursor);
    unsigned fb, fe;
    clang_getExpansionLocation(clang_getRangeStart(ext), NULL, NULL, NULL, &fb);
    clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &fe);
    unsigned lo = 0, hi = skipped->count; /* the first range that starts at or after fb */
    while (lo < hi) {
      unsigned mid = (lo + hi) / 2, b;
      clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[mid]), NULL, NULL, NULL, &b);
      if (b < fb)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (unsigned i = lo; i < skipped->count; i++) {
      unsigned b;
      clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[i]), NULL, NULL, NULL, &b);
      if (b >= fe)
        break;
      unsigned be, len = (unsigned)u->opt.input_len;
      clang_getExpansionLocation(clang_getRangeEnd(skipped->ranges[i]), NULL, NULL, NULL, &be);
      /* the run that writes the copies parses as the device compilation does (a branch
       * the host compilation alone takes, skipped there, is the one the copy would miss) */
      if (run->funcs[f].instance && !run->settings->device_parse &&
          arch_branch(u->opt.input_text, b, len)) {
        run->wants_device = 1; /* whatever the branch holds (a double cast too) */
        continue;
      }
      if (run->funcs[f].instance && arch_branch(u->opt.input_text, b, len)) {
        if (b == reported)
          break; /* said for another instance of the same template */
        reported = b;
        /* the copy is written once, from one compilation's view: the other's branch
         * would keep the template's parameters over converted values */
        cp_diag_at(run, u, CP_ERROR, b,
                   "'%s' is converted instance by instance, into one copy written from one of "
                   "CUDA's two compilations, and this branch on __CUDA_ARCH__ is the other's: "
                   "it would stay unconverted in the copy; compute both sides without the "
                   "preprocessor branch, or annotate a function that is not a template [%s]",
                   run->funcs[f].name, cp_rule_name(CP_RULE_TEMPLATE_INSTANCE));
        break;
      }
      if (double_branch(u->opt.input_text, b, be < len ? be : len))
        continue;
      if (!run->settings->device_parse && arch_branch(u->opt.input_text, b, len)) {
        run->wants_device = 1; /* convert as the device compilation sees it (convert.c) */
        continue;
      }
      if (arch_branch(u->opt.input_text, b, len))
        continue; /* the host compilation's branch: converted by the host view (convert.c) */
      cp_diag_at(run, u, CP_WARNING, b,
                 "this preprocessor branch of '%s' was not taken, so it is not converted and "
                 "stays float; convert with the -D options that select it to use it [%s]",
                 run->funcs[f].name, cp_rule_name(CP_RULE_CONVERT));
    }
  }
}

/* Whether the line [b, e) of `text` is a `#pragma cp` directive. */
static int is_cp_pragma_line(const char *text, size_t b, size_t e) {
  static const char *const words[] = {"#", "pragma", "cp"};
  size_t k = b;
  for (size_t w = 0; w < 3; w++) {
    while (k < e && (text[k] == ' ' || text[k] == '\t'))
      k++;
    size_t n = strlen(words[w]);
    if (e - k < n || strncmp(text + k, words[w], n) != 0)
      return 0;
    k += n;
    if (w > 0 && k < e && text[k] != ' ' && text[k] != '\t' && text[k] != '\r')
      return 0; /* `#pragma cpx` or `#pragmas` */
  }
  return 1;
}

/* Whether a header's text holds a `#pragma cp` line; its line and column if so. Lines end
 * at LF, CRLF or a lone CR; a UTF-8 byte order mark before the first is no text. */
static int find_cp_pragma(const char *text, size_t len, unsigned *line, size_t *b_out,
                          size_t *e_out) {
  *line = 1;
  size_t b = text && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  for (; text && b < len; ++*line) {
    size_t e = b;
    while (e < len && text[e] != '\n' && text[e] != '\r')
      e++;
    if (is_cp_pragma_line(text, b, e)) {
      *b_out = b;
      *e_out = e;
      return 1;
    }
    b = e + (e + 1 < len && text[e] == '\r' && text[e + 1] == '\n' ? 2 : 1);
  }
  return 0;
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
  if (!find_cp_pragma(text, len, &line, &b, &e))
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

/* ---- annotations cpconvert does not read ------------------------------------------ */

/* Whether `s` holds `word`, in any case. */
static int holds_word(const char *s, const char *word) {
  size_t n = strlen(word);
  for (; *s; s++)
    if (strncasecmp(s, word, n) == 0)
      return 1;
  return 0;
}

/* `#pragma W1 W2 ...` where W1 is not `cp`: a misspelt annotation (`CP`, `cpp`,
 * `cp_composite`, `xx composite`) would leave its function float without a word, so it
 * gets a warning. t[i] is W1; `end` the end of the pragma's line. */
static void warn_near_miss(cp_run *run, const cp_unit *u, const token *t, unsigned nt, unsigned i,
                           unsigned end) {
  const char *w = t[i].s, *next = i + 1 < nt && t[i + 1].offset < end ? t[i + 1].s : "";
  if (strcasecmp(w, "cp") != 0 && strcasecmp(w, "cpp") != 0 && strncasecmp(w, "cp_", 3) != 0 &&
      !holds_word(w, "composite") && strcasecmp(next, "composite") != 0)
    return;
  cp_diag_at(run, u, CP_WARNING, t[i].offset,
             "'#pragma %s%s%s' is not a cpconvert annotation, so the function after it is not "
             "converted; did you mean '#pragma cp composite'? [%s]", w, *next ? " " : "", next,
                 cp_rule_name(CP_RULE_PRAGMA));
}

/* `_Pragma("cp composite")`: the operator form reaches clang, not cpconvert, which reads
 * `#pragma cp` lines; a warning rather than a function silently left float. */
static void warn_operator_pragma(cp_run *run, const cp_unit *u, const token *t, unsigned nt,
                                 unsigned i) {
  if (i + 2 >= nt || strcmp(t[i + 1].s, "(") != 0 || t[i + 2].s[0] != '"')
    return;
  const char *s = t[i + 2].s + 1 + strspn(t[i + 2].s + 1, " \t");
  if (strncmp(s, "cp", 2) != 0 || (s[2] != ' ' && s[2] != '\t' && s[2] != '"'))
    return;
  cp_diag_at(run, u, CP_WARNING, t[i].offset,
             "cpconvert reads '#pragma cp' lines, not _Pragma(%s), so the function it marks is "
             "not converted; write '#pragma cp composite' on the line before the function [%s]",
             t[i + 2].s, cp_rule_name(CP_RULE_PRAGMA));
}

/* A `#pragma cp` in a preprocessor branch that was not taken marks nothing. A warning,
 * unless the function after it is marked by another pragma (the branches of an `#ifdef`
 * choosing between two pragmas for one kernel), or the branch is one of CUDA's two
 * compilations that the run converts in a view of its own (convert.c: the device view,
 * and the host view of its #else). */
static void warn_skipped_pragma(cp_run *run, const decl_list *l,
                                const CXSourceRangeList *skipped, unsigned at) {
  const cp_unit *u = l->u;
  unsigned end = logical_line_end(&u->opt, at), i = 0;
  while (i < l->n && l->offsets[i] < end)
    i++;
  if (i < l->n && cp_func_of(run, l->decls[i]))
    return;
  for (unsigned k = 0; k < skipped->count; k++) {
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[k]), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(skipped->ranges[k]), NULL, NULL, NULL, &e);
    if (at >= b && at < e && (run->settings->device_parse || run->settings->host_view) &&
        arch_branch(u->opt.input_text, b, (unsigned)u->opt.input_len))
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
  token *t = tokenize_main(run, u, &nt);
  CXSourceRangeList *skipped = clang_getSkippedRanges(u->p.tu, u->p.main_file);
  unsigned *unread = cp_arena_alloc(run->r->arena, (nt + 1) * sizeof *unread), n_unread = 0;
  for (unsigned i = 0; i + 2 < nt; i++) {
    if (strcmp(t[i].s, "_Pragma") == 0)
      warn_operator_pragma(run, u, t, nt, i);
    if (strcmp(t[i].s, "#") != 0 || strcmp(t[i + 1].s, "pragma") != 0 ||
        !starts_line(&u->opt, t[i].offset))
      continue;
    unsigned end = logical_line_end(&u->opt, t[i].offset);
    if (t[i + 2].offset >= end)
      continue; /* `#pragma` alone */
    if (strcmp(t[i + 2].s, "cp") != 0) {
      if (!in_skipped_range(skipped, t[i].offset))
        warn_near_miss(run, u, t, nt, i + 2, end);
      continue;
    }
    if (in_skipped_range(skipped, t[i].offset)) {
      if (n_unread < nt) /* warned about once every pragma is bound */
        unread[n_unread++] = t[i].offset;
      continue;
    }
    pragma_lexer lx = {t, nt, i, end, u};
    cp_pragma *pr = cp_arena_alloc(run->r->arena, sizeof *pr);
    if (parse_pragma(run, &lx, pr) == 0)
      bind_pragma(run, &l, pr);
    i = lx.i > i ? lx.i - 1 : i;
  }
  check_dependent_uses(run, &l);
  for (unsigned k = 0; k < n_unread; k++)
    warn_skipped_pragma(run, &l, skipped, unread[k]);
  warn_skipped_branches(run, u, first, skipped);
  clang_disposeSourceRangeList(skipped);
  if (!u->is_header) {
    clang_getInclusions(u->p.tu, header_pragma, &l);
    scan_headers(run, u);
  }

  /* --suggest: every kernel and device function */
  for (unsigned i = 0; run->settings->suggest && i < l.n; i++)
    if (is_function_definition(l.decls[i]) && cp_cuda_kind(l.decls[i]) && !cp_func_of(run, l.decls[i]))
      add_func(run, u, l.decls[i], NULL);
  if (run->settings->all) {
    for (unsigned i = 0; i < l.n; i++)
      if (is_function_definition(l.decls[i]) && cp_cuda_kind(l.decls[i]) == 2 &&
          !cp_func_of(run, l.decls[i]))
        add_func(run, u, l.decls[i], NULL);
    call_ctx ctx = {run, u};
    for (unsigned i = first; i < run->n_funcs; i++) /* n_funcs grows as callees are added */
      clang_visitChildren(run->funcs[i].cursor, add_callees, &ctx);
  }
}

/* ---- unannotated helpers called from converted code ------------------------------- */

/* Whether a function takes or returns something that converts: float, floatN, a pointer
 * to them (an out-parameter, a buffer) or a reference to them (an out-parameter). */
static int has_float_interface(CXCursor fn) {
  CXType r = clang_getResultType(clang_getCursorType(fn));
  if (cp_type_width(r, 0) || cp_type_width(r, 1))
    return 1;
  for (int k = 0; k < cp_num_args(fn); k++) {
    CXType t = clang_getCanonicalType(clang_getCursorType(cp_arg(fn, (unsigned)k)));
    if (t.kind == CXType_LValueReference)
      t = clang_getPointeeType(t);
    if (cp_type_width(t, 0) || cp_type_width(t, 1) || cp_pointee_width(t, 0) ||
        cp_pointee_width(t, 1))
      return 1;
  }
  return 0;
}

typedef struct {
  cp_run *run;
  cp_unit *u; /* the input whose calls are followed */
  const cp_func *caller;
} helper_ctx;

/* The unit a helper is written in: the caller's file, or (with --o-dir) a header of the
 * user's, converted once whichever inputs include it; its cursor is then taken from the
 * translation unit the header unit reads, since offsets and tokens come from there.
 * NULL: a system header, or a header without --o-dir (the helper stays float). */
static cp_unit *helper_unit(cp_run *run, cp_unit *from, CXCursor *fn) {
  CXSourceLocation loc = clang_getCursorLocation(*fn);
  if (clang_Location_isFromMainFile(loc))
    return from;
  CXFile file = NULL;
  unsigned line = 0, col = 0;
  clang_getExpansionLocation(loc, &file, &line, &col, NULL);
  if (!file || clang_Location_isInSystemHeader(loc))
    return NULL;
  cp_unit *u = cp_unit_for_file(run, from->p.tu, file);
  if (!u || !u->is_header)
    return NULL;
  if (u->p.tu != from->p.tu) {
    CXCursor c = clang_getCursor(u->p.tu, clang_getLocation(u->p.tu, u->p.main_file, line, col));
    if (!is_function_definition(c))
      return NULL;
    *fn = c;
  }
  u->has_funcs = 1;
  return u;
}

/* The caller's scope and accumulate(), none of its names: for a helper it calls. */
static const cp_pragma *helper_pragma(cp_run *run, const cp_func *caller) {
  if (!caller->pragma)
    return NULL;
  cp_pragma *pr = cp_arena_alloc(run->r->arena, sizeof *pr);
  memset(pr, 0, sizeof *pr);
  pr->offset = pr->end = caller->pragma->offset;
  pr->scope = caller->pragma->scope;
  pr->accum = caller->pragma->accum;
  return pr;
}

/* Whether an instance's template is in the file being converted, or in a header whose
 * unit reads this translation unit: an instance exists only in the translation unit that
 * uses it, so a header read through another one cannot name it. */
static int same_view(cp_run *run, const cp_unit *from, CXCursor inst) {
  CXSourceLocation loc = clang_getCursorLocation(inst);
  if (clang_Location_isFromMainFile(loc))
    return 1;
  CXFile file = NULL;
  clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
  cp_unit *u = file && !clang_Location_isInSystemHeader(loc)
                   ? cp_unit_for_file(run, from->p.tu, file) : NULL;
  return u && u->is_header && u->p.tu == from->p.tu;
}

/* A helper that is an instance of a function template with a type parameter (sum<float>):
 * converted as that instance's copy, as an annotated template's are, in the caller's file
 * or (with --o-dir) a header that file's translation unit reads; elsewhere it stays
 * float, and the call says so (float-call). */
static void add_helper_instance(helper_ctx *ctx, CXCursor call, CXCursor inst) {
  cp_run *run = ctx->run;
  if (cp_cuda_kind(inst) != 1 || cp_func_of(run, inst) || !float_instance(inst) ||
      ctx->caller->unit != ctx->u || !same_view(run, ctx->u, inst))
    return;
  CXCursor fn = inst;
  cp_unit *u = helper_unit(run, ctx->u, &fn);
  if (!u)
    return;
  const char *name = instance_name(run, inst);
  if (!name) {
    unwritable_instance(run, ctx->u, call, inst);
    return;
  }
  cp_func *f = add_func(run, u, inst, helper_pragma(run, ctx->caller));
  f->instance = 1;
  f->auto_conv = 1;
  f->twin = name;
}

static enum CXChildVisitResult add_helpers(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  helper_ctx *ctx = data;
  if (clang_getCursorKind(c) != CXCursor_CallExpr)
    return CXChildVisit_Recurse;
  CXCursor inst = clang_getCursorDefinition(cp_callee(c));
  if (per_instance(clang_getSpecializedCursorTemplate(inst))) {
    add_helper_instance(ctx, c, inst);
    return CXChildVisit_Recurse;
  }
  CXCursor callee = callee_definition(c);
  cp_unit *u;
  if (clang_Cursor_isNull(callee) || !is_function_definition(callee) ||
      cp_cuda_kind(callee) != 1 || cp_func_of(ctx->run, callee) || !has_float_interface(callee) ||
      !(u = helper_unit(ctx->run, ctx->u, &callee)))
    return CXChildVisit_Recurse;
  cp_func *f = add_func(ctx->run, u, callee, NULL);
  f->auto_conv = 1;
  f->pragma = helper_pragma(ctx->run, ctx->caller);
  return CXChildVisit_Recurse;
}

void cp_find_helpers(cp_run *run, cp_unit *u) {
  for (unsigned i = 0; i < run->n_funcs; i++) { /* n_funcs grows as helpers are added */
    if ((run->funcs[i].unit != u && !run->funcs[i].unit->is_header) ||
        run->funcs[i].is_host) /* a header's functions: their callees too */
      continue;
    helper_ctx ctx = {run, u, &run->funcs[i]};
    clang_visitChildren(run->funcs[i].cursor, add_helpers, &ctx);
  }
}

void cp_find_host_functions(cp_run *run, cp_unit *u) {
  decl_list l;
  unit_decls(run, u, &l);
  add_host_functions(run, &l);
}
