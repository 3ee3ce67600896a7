/*
 * function.c: the edits for each converted function.
 *
 *   signature  float parameters / result of a converted __device__ function -> cp_float;
 *              `float *` parameters that receive a converted local's address -> cp_float *;
 *              a paired buffer parameter gains `, TYPE name_err` right after it;
 *   locals     the type specifier of a composite declaration -> cp_float / cp_floatN
 *              (one edit per declaration statement: `float a, b;` shares its `float`);
 *   bodies     every full expression (statement, initializer, condition, return value)
 *              whose converted text differs from its source becomes one edit.
 * Edits never nest: a full expression's edit carries its rewritten subexpressions.
 */
#include <string.h>

#include "internal.h"

/* The offset of the last whole word `word` in [from, to) of unit u's text, or -1. */
static long last_word(const cp_unit *u, unsigned from, unsigned to, const char *word) {
  const char *s = u->opt.input_text;
  size_t n = strlen(word);
  for (long i = (long)to - (long)n; i >= (long)from; i--)
    if (memcmp(s + i, word, n) == 0 && (i == 0 || !cp_ident_char(s[i - 1])) &&
        !cp_ident_char(s[i + (long)n]))
      return i;
  return -1;
}

/* A type with qualifiers, pointers, references and arrays taken off: the type whose
 * word names it in a declaration (float, float4, or a typedef's name). */
static CXType named_type(CXType t) {
  for (;;) {
    CXType u = t;
    if (t.kind == CXType_Pointer || t.kind == CXType_LValueReference)
      u = clang_getPointeeType(t);
    else if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
             t.kind == CXType_VariableArray)
      u = clang_getArrayElementType(t);
    else if (t.kind == CXType_Elaborated)
      u = clang_Type_getNamedType(t);
    if (u.kind == t.kind && clang_equalTypes(u, t))
      return t;
    t = u;
  }
}

/* The word that names a declaration's type (float, float4, or a typedef's name). */
static const char *type_word(cp_run *run, CXType t) {
  t = named_type(t);
  CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(t));
  const char *w = clang_getCString(s);
  const char *word = strrchr(w, ' ');
  word = cp_arena_strdup(run->r->arena, word ? word + 1 : w);
  clang_disposeString(s);
  return word;
}

/* What a typedef's name hides beyond its float, written after the composite type that
 * takes the name's place: " &" for `typedef float &real_ref`, " *const" for a const
 * pointer; "" when the name is the float itself. A const float under it stays const. */
static const char *hidden_declarator(cp_run *run, CXType t, const char **prefix) {
  *prefix = "";
  t = named_type(t);
  if (t.kind != CXType_Typedef)
    return "";
  const char *s = "";
  CXType c = clang_getCanonicalType(t);
  while (c.kind == CXType_Pointer || c.kind == CXType_LValueReference) {
    s = cp_arena_printf(run->r->arena, "%s%s%s", c.kind == CXType_Pointer ? " *" : " &",
                        clang_isConstQualifiedType(c) ? "const" : "", s);
    c = clang_getCanonicalType(clang_getPointeeType(c));
  }
  if (*s && clang_isConstQualifiedType(c))
    *prefix = "const ";
  return s;
}

/* Replaces the word naming a declaration's float type, between `from` and `to`, by
 * `repl` (NULL: cp_floatN of the width). */
/* The type words already retyped, so that declarators sharing one (`float a, b;`) edit it
 * once. A hash set on (edit list, offset, rule): a scan of the edits made n kernels cost
 * n^2. Open addressing, at most half full. */
struct cp_retyped {
  const cp_edit_list *list;
  size_t offset;
  cp_rule rule;
};

static unsigned retyped_hash(const cp_edit_list *list, size_t offset, cp_rule rule, unsigned mask) {
  size_t h = (size_t)list * 31u + offset * 2654435761u + (size_t)rule;
  return (unsigned)(h ^ (h >> 17)) & mask;
}

/* 1 if (list, offset, rule) was there already; else adds it and returns 0. */
static int retyped_once(cp_run *run, const cp_edit_list *edits, size_t offset, cp_rule rule) {
  if (2 * (run->n_retyped + 1) > run->cap_retyped) {
    struct cp_retyped *old = run->retyped;
    unsigned old_cap = run->cap_retyped;
    run->cap_retyped = old_cap ? 2 * old_cap : 256;
    run->retyped = cp_arena_alloc(run->r->arena, run->cap_retyped * sizeof *run->retyped);
    memset(run->retyped, 0, run->cap_retyped * sizeof *run->retyped);
    for (unsigned i = 0; i < old_cap; i++)
      if (old[i].list) {
        unsigned h = retyped_hash(old[i].list, old[i].offset, old[i].rule, run->cap_retyped - 1);
        while (run->retyped[h].list)
          h = (h + 1) & (run->cap_retyped - 1);
        run->retyped[h] = old[i];
      }
  }
  unsigned mask = run->cap_retyped - 1, h = retyped_hash(edits, offset, rule, mask);
  for (; run->retyped[h].list; h = (h + 1) & mask)
    if (run->retyped[h].list == edits && run->retyped[h].offset == offset &&
        run->retyped[h].rule == rule)
      return 1;
  run->retyped[h] = (struct cp_retyped){edits, offset, rule};
  run->n_retyped++;
  return 0;
}

/* The macro expansion between `from` and `to` that spells the type (`REAL` of
 * `#define REAL float` in `__shared__ REAL s`): the last one not named like CUDA's own
 * qualifiers (__shared__, __restrict__). Its offset, and its length in *len; -1 if none. */
static long type_macro(const cp_unit *u, unsigned from, unsigned to, size_t *len) {
  long at = -1;
  const char *text = u->opt.input_text;
  const cp_macros *m = &u->macros;
  for (unsigned i = 0; i < m->n; i++)
    if (m->begin[i] >= from && m->end[i] <= to && strncmp(text + m->begin[i], "__", 2) != 0) {
      at = m->begin[i];
      *len = m->end[i] - m->begin[i];
    }
  return at;
}

/* In unit u's text (a declaration of f: in its own unit, or a prototype elsewhere), the
 * edit into `edits`. */
static int retype(cp_run *run, cp_unit *u, cp_edit_list *edits, const cp_func *f, CXType t,
                  int width, unsigned from, unsigned to, cp_rule rule, const char *repl) {
  const char *word = type_word(run, t);
  long at = last_word(u, from, to, word);
  const char *base = cp_arena_printf(run->r->arena, "%s%s", f->prec->scalar, cp_wsuffix(width));
  if (at < 0 && strcmp(word, base) != 0)
    at = last_word(u, from, to, base);
  size_t len = 0;
  if (at < 0 && f->instance) { /* an instance's `T t`: T is the float of its type */
    cp_instance_args args;
    cp_instance_args_of(run, f->cursor, &args);
    for (unsigned k = 0; k < args.n; k++) {
      long w = strcmp(args.value[k], word) == 0 ? last_word(u, from, to, args.name[k]) : -1;
      if (w > at) {
        at = w;
        len = strlen(args.name[k]);
      }
    }
  }
  if (at < 0 && (at = type_macro(u, from, to, &len)) < 0)
    return 0; /* auto, or a type the declaration does not spell: nothing to edit */
  if (retyped_once(run, edits, (size_t)at, rule))
    return 1;
  const char *prefix = "", *hidden = "";
  if (!len) { /* the type word itself, not a macro that spells it */
    int named = last_word(u, (unsigned)at, (unsigned)at + (unsigned)strlen(word), word) == at;
    len = named ? strlen(word) : strlen(base);
    if (named)
      hidden = hidden_declarator(run, t, &prefix);
    if (*hidden) /* `real_ref f` -> `cp_float &f` */
      while (u->opt.input_text[at + (long)len] == ' ' || u->opt.input_text[at + (long)len] == '\t')
        len++;
  }
  cp_apply_edit(run, edits, (size_t)at, len,
                cp_arena_printf(run->r->arena, "%s%s%s", prefix,
                                repl ? repl
                                     : cp_arena_printf(run->r->arena, "%s%s", f->prec->type,
                                                       cp_wsuffix(width)),
                                hidden),
                rule);
  return 1;
}

static void signature(cp_run *run, cp_func *f) {
  unsigned name_at = cp_cursor_offset(f->cursor);
  cp_unit *u = f->unit;
  cp_edit_list *edits = cp_func_edits(f);
  if (f->returns_width && cp_composite_signature(f))
    retype(run, u, edits, f, clang_getResultType(clang_getCursorType(f->cursor)), f->returns_width,
           cp_extent_begin(f->cursor), name_at, CP_RULE_SIGNATURE, NULL);
  for (unsigned i = 0; i < f->n_vars; i++) {
    cp_var *v = &f->vars[i];
    if (!v->is_param)
      continue;
    unsigned b = cp_extent_begin(v->decl), at = cp_cursor_offset(v->decl);
    if ((v->role == CP_VAR_COMPOSITE && cp_composite_signature(f)) || v->role == CP_VAR_OUTPTR) {
      retype(run, u, edits, f, clang_getCursorType(v->decl), v->width, b, at, CP_RULE_SIGNATURE,
             NULL);
    } else if (v->role == CP_VAR_PAIRED) {
      const char *type = cp_arena_strndup(run->r->arena, u->opt.input_text + b, at - b);
      cp_apply_edit(run, edits, cp_extent_end(v->decl), 0,
                    cp_arena_printf(run->r->arena, ", %s%s" CP_ERR_SUFFIX, type, v->name), CP_RULE_PAIR_PARAM);
    }
  }
}

/* A prototype of a converted function, in unit u, takes the same new signature, parameter
 * by parameter (its parameter names may differ or be left out). */
static void prototype(cp_run *run, cp_unit *u, cp_func *f, CXCursor proto) {
  unsigned name_at = cp_cursor_offset(proto);
  cp_edit_list *edits = &u->edits;
  if (f->returns_width && cp_composite_signature(f))
    retype(run, u, edits, f, clang_getResultType(clang_getCursorType(proto)), f->returns_width,
           cp_extent_begin(proto), name_at, CP_RULE_SIGNATURE, NULL);
  int n = cp_num_args(proto);
  for (int i = 0; i < n && i < cp_num_args(f->cursor); i++) {
    cp_var *v = cp_var_of(f, cp_arg(f->cursor, (unsigned)i));
    CXCursor pd = cp_arg(proto, (unsigned)i);
    unsigned b = cp_extent_begin(pd), e = cp_extent_end(pd);
    if (!v || e <= b)
      continue;
    if ((v->role == CP_VAR_COMPOSITE && cp_composite_signature(f)) || v->role == CP_VAR_OUTPTR) {
      retype(run, u, edits, f, clang_getCursorType(pd), v->width, b, e, CP_RULE_SIGNATURE, NULL);
    } else if (v->role == CP_VAR_PAIRED && !retyped_once(run, edits, e, CP_RULE_PAIR_PARAM)) {
      CXString pn = clang_getCursorSpelling(pd);
      const char *pname = clang_getCString(pn);
      unsigned at = *pname ? cp_cursor_offset(pd) : e;
      cp_apply_edit(run, edits, e, 0,
                    cp_arena_printf(run->r->arena, ", %s%s%s",
                                    cp_arena_strndup(run->r->arena, u->opt.input_text + b, at - b),
                                    pname, *pname ? CP_ERR_SUFFIX : ""),
                    CP_RULE_PAIR_PARAM);
      clang_disposeString(pn);
    }
  }
}

/* A prototype in a user header (a host wrapper's, a kernel's declared for other files)
 * is edited in that header's unit, once however many inputs include it; without
 * --o-dir the header is not written, and the other files that see it would call the old
 * signature: a located error. */
static void header_prototype(cp_run *run, cp_unit *from, cp_func *f, CXCursor proto) {
  if (!cp_signature_changes(f))
    return;
  CXFile file = NULL;
  clang_getExpansionLocation(clang_getCursorLocation(proto), &file, NULL, NULL, NULL);
  cp_unit *u = file ? cp_unit_for_file(run, from->p.tu, file) : NULL;
  if (!u || u == from) {
    if (!u)
      cp_diag_cursor(run, CP_ERROR, from->p.tu, proto,
                     "'%s' changes its signature when converted (it gains companion "
                     "parameters or composite types), and this declaration of it is in a "
                     "header the run does not write: convert with --o-dir DIR, which writes "
                     "the header converted beside the other outputs [%s]",
                     f->name, cp_rule_name(CP_RULE_PAIR_PARAM));
    return;
  }
  prototype(run, u, f, proto);
}

/* A walk over one input's top-level declarations, with the unit it is in. */
typedef struct {
  cp_run *run;
  cp_unit *u;
} unit_walk;

/* One walk per file over its top-level declarations (one per converted function made
 * a file of n kernels cost n^2). A twin's prototypes are its float original's: left. */
static enum CXChildVisitResult find_prototypes(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  unit_walk *w = data;
  cp_run *run = w->run;
  enum CXCursorKind k = clang_getCursorKind(c);
  CXSourceLocation loc = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(loc))
    return CXChildVisit_Continue;
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
    return CXChildVisit_Recurse;
  cp_func *f;
  if (k != CXCursor_FunctionDecl || clang_isCursorDefinition(c) || !(f = cp_func_of(run, c)) ||
      f->twin)
    return CXChildVisit_Continue;
  if (clang_Location_isFromMainFile(loc))
    prototype(run, w->u, f, c);
  else
    header_prototype(run, w->u, f, c);
  return CXChildVisit_Continue;
}

/* One full expression: `mode` 1 promotes the result, -1 demotes it, 0 takes it as is; `into`,
 * when given, is the composite local it initialises (--profile's `var` site). */
static void full_expr(cp_rw *c, cp_node *n, int mode, const cp_var *into) {
  const cp_val *v = cp_rewrite(c, n);
  if (mode && v->kind == CP_V_ACCUM) /* an accumulator as a value: T t = {sum, sum2}; */
    v = cp_rvalue(c, v);
  const char *text = v->text;
  CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
  if (mode < 0 && v->kind == CP_V_PLAIN && v->from == CP_FROM_DOUBLE && v->src == v->text &&
      t.kind == CXType_Float)
    text = cp_arena_printf(c->run->r->arena, "(float)%s", v->text); /* a double accumulator:
                                                                      braces do not narrow */
  else if (mode > 0 && v->kind == CP_V_OTHER && t.kind >= CXType_Bool && t.kind <= CXType_Int128)
    text = cp_arena_printf(c->run->r->arena, "%s(%s)", c->f->prec->from_int, v->text); /* {1, 2} */
  else if (mode > 0 && v->kind == CP_V_OTHER && t.kind == CXType_Double && !c->f->dbl)
    text = cp_arena_printf(c->run->r->arena, "cp_from_double(%s)", v->text);
  else if (mode > 0 && v->kind != CP_V_OTHER && v->kind != CP_V_COMPOSITE)
    text = cp_promote(c, v);
  else if (mode < 0 && cp_is_composite(v))
    text = cp_demote(c, v, n, CP_DROP_CONVERT, NULL);
  const char *wrapped = into && !(n->macro && !cp_macro_root(n))
                            ? cp_prof_var(c, n, into, text) : text;
  if (wrapped == text && text == v->text && !v->changed)
    return;
  if (n->macro && !cp_macro_root(n)) { /* its statement too comes from the macro */
    cp_rule_diag(c->run, c->f->unit, CP_ERROR, n->begin, CP_RULE_UNSUPPORTED_MACRO,
                 "float arithmetic in a statement a macro writes is not converted (only an "
                 "expression can be written out at the macro's use); write it out, or make the "
                 "macro a __device__ function");
    return;
  }
  cp_rule rule = text != v->text ? CP_RULE_CONVERT : v->changed ? v->rule : CP_RULE_PROFILE;
  cp_edit_add(c->run->r->arena, cp_func_edits(c->f), n->begin, n->end - n->begin, wrapped, rule);
}

/* An initializer list: for composite elements each element promoted (mode 1); for a
 * struct's float members (`T t = {a, b};`, a paired struct's too) each demoted (-1). */
static void init_list(cp_rw *c, cp_node *n, int mode) {
  for (unsigned i = 0; i < n->nkids; i++) {
    if (n->kids[i]->kind == CXCursor_InitListExpr)
      init_list(c, n->kids[i], mode);
    else if (clang_isExpression(n->kids[i]->kind))
      full_expr(c, n->kids[i], mode, NULL);
  }
}

/* A paired struct local's initializer list (members.c): a float member given a composite
 * (`Value t = {acc, 0.0f};`) starts as `{}` and takes the composite, both halves, by a
 * store after its companion's declaration; the stores' text is returned. */
static const char *record_init(cp_rw *c, cp_node *list, const cp_var *v) {
  CXCursor fields[64];
  unsigned nf = cp_record_fields(clang_getCursorType(list->cur), fields, 64);
  const char *stores = "";
  for (unsigned i = 0; i < nf; i++) {
    cp_node *e = (cp_node *)cp_init_element(c->f->unit->opt.input_text, list, i);
    int w = cp_type_width(clang_getCanonicalType(clang_getCursorType(fields[i])), 0);
    if (!e || e->kind == CXCursor_InitListExpr || e->macro || !w ||
        !cp_is_composite(cp_rewrite(c, e))) {
      if (e)
        e->kind == CXCursor_InitListExpr ? init_list(c, e, -1) : full_expr(c, e, -1, NULL);
      continue;
    }
    const char *field = cp_cursor_spelling(c->run->r->arena, fields[i]);
    cp_edit_add(c->run->r->arena, cp_func_edits(c->f), e->begin, e->end - e->begin, "{}",
                CP_RULE_LOCAL_TYPE);
    stores = cp_arena_printf(c->run->r->arena, "%s %s%s(&%s.%s, &%s" CP_ERR_SUFFIX ".%s, %s);",
                             stores, w > 1 ? c->f->prec->store_vec : c->f->prec->store,
                             cp_wsuffix(w), v->name, field, v->name, field,
                             cp_promote(c, cp_rewrite(c, e)));
  }
  return stores;
}

static void accum_init(cp_rw *c, cp_node *init, const cp_var *v) {
  const cp_val *val = cp_rewrite(c, init);
  const char *text = cp_accum_in(c, v, val);
  if (strcmp(text, cp_src(c, init)) != 0)
    cp_edit_add(c->run->r->arena, cp_func_edits(c->f), init->begin, init->end - init->begin, text,
                CP_RULE_ACCUMULATE);
}

/* The initializer of a variable: the child libclang names as such (array sizes are
 * children too). What a paired struct local's needs after its declaration is returned. */
static const char *var_init(cp_rw *c, cp_node *decl, cp_var *v) {
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl->cur);
  if (clang_Cursor_isNull(init) ||
      (clang_getCursorKind(init) == CXCursor_CallExpr && cp_num_args(init) == 0))
    return ""; /* none, or `float4 a;`: an implicit default construction with no text */
  for (unsigned i = 0; i < decl->nkids; i++) {
    cp_node *k = decl->kids[i];
    if (!clang_equalCursors(k->cur, init))
      continue;
    if (v && v->is_record && v->role == CP_VAR_PAIRED && k->kind == CXCursor_InitListExpr)
      return record_init(c, k, v);
    if (v && v->role == CP_VAR_ACCUM)
      accum_init(c, k, v);
    else if (k->kind == CXCursor_InitListExpr)
      init_list(c, k, v && v->role == CP_VAR_COMPOSITE ? 1 : -1);
    else
      full_expr(c, k, v && v->role == CP_VAR_COMPOSITE ? 1 : v && v->role == CP_VAR_FLOAT ? -1 : 0,
                v && v->role == CP_VAR_COMPOSITE && !v->is_param ? v : NULL);
  }
  return "";
}

/* A union local with a float member: its members keep their types. */
static void check_union(cp_rw *c, const cp_node *n) {
  CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
  CXCursor d = clang_getTypeDeclaration(t);
  if (t.kind != CXType_Record || clang_getCursorKind(d) != CXCursor_UnionDecl)
    return;
  CXString s = clang_getCursorSpelling(n->cur);
  cp_rule_diag(c->run, c->f->unit, CP_WARNING, n->begin, CP_RULE_UNSUPPORTED_UNION,
               "'%s' is a union; its float members stay float (unions are not converted)",
               clang_getCString(s));
  clang_disposeString(s);
}

/* The type a float variable is declared with after conversion; NULL if it stays. */
static const char *new_type(cp_run *run, const cp_func *f, const cp_var *v) {
  if (v->role == CP_VAR_ACCUM)
    return cp_accum_type(v->accum);
  if (v->role == CP_VAR_COMPOSITE)
    return cp_arena_printf(run->r->arena, "%s%s", f->prec->type, cp_wsuffix(v->width));
  return NULL;
}

/* `float a, b, c;` whose declarators become different types (keep(b), an accumulator
 * among composites): one declaration per run of declarators of one type, each with the
 * declaration's own specifiers, in their order (`cp_float a; float b; cp_float c;`), so
 * that an initializer still sees the names declared before it. Only a statement of a
 * block whose declarators are all plain (no pointer, array or reference) and of the type
 * the specifiers spell; 0, editing nothing, otherwise. */
static int split_decl(cp_rw *c, cp_node *n) {
  cp_run *run = c->run;
  const char *text = c->f->unit->opt.input_text;
  if (!n->parent || n->parent->kind != CXCursor_CompoundStmt || n->macro || !n->nkids)
    return 0;
  CXType t0 = clang_getCanonicalType(clang_getCursorType(n->kids[0]->cur));
  unsigned name0 = cp_cursor_offset(n->kids[0]->cur), at[64], names[64];
  if (n->nkids > 64)
    return 0;
  for (unsigned i = 0; i < n->nkids; i++) {
    cp_node *k = n->kids[i];
    cp_var *v = cp_var_of(c->f, k->cur);
    CXType t = clang_getCanonicalType(clang_getCursorType(k->cur));
    if (k->kind != CXCursor_VarDecl || k->macro || !v || v->group >= 0 || v->is_record ||
        !clang_equalTypes(t, t0) || (t.kind != CXType_Float && t.kind != CXType_Record))
      return 0;
    at[i] = names[i] = cp_cursor_offset(k->cur);
    if (i == 0)
      continue;
    long p = (long)at[i] - 1; /* a plain declarator: its name follows the comma */
    while (p > (long)n->begin && (text[p] == ' ' || text[p] == '\t' || text[p] == '\n' ||
                                  text[p] == '\r'))
      p--;
    if (text[p] != ',')
      return 0;
    at[i] = (unsigned)p;
  }
  const char *word = type_word(run, clang_getCursorType(n->kids[0]->cur));
  long w = last_word(c->f->unit, n->begin, name0, word);
  if (w < 0)
    return 0; /* a typedef or a macro spells it */
  const char *spec = cp_arena_printf(run->r->arena, "%.*s", (int)(name0 - n->begin),
                                     text + n->begin);
  size_t end = strlen(spec);
  while (end && (spec[end - 1] == ' ' || spec[end - 1] == '\t' || spec[end - 1] == '\n'))
    end--;
  const char *prev = "";
  for (unsigned i = 0; i < n->nkids; i++) {
    cp_var *v = cp_var_of(c->f, n->kids[i]->cur);
    const char *t = new_type(run, c->f, v), *key = t ? t : "float";
    if (i > 0 && strcmp(key, prev) == 0)
      continue;
    cp_rule rule = v->role == CP_VAR_ACCUM ? CP_RULE_ACCUMULATE : CP_RULE_LOCAL_TYPE;
    if (i == 0 && t)
      cp_apply_edit(run, cp_func_edits(c->f), (size_t)w, strlen(word), t, rule);
    else if (i > 0) /* `, b` -> `; SPEC b`, SPEC with the type word replaced if it changes */
      cp_apply_edit(run, cp_func_edits(c->f), at[i], 1, /* the space or line after it stays */
                    cp_arena_printf(run->r->arena, "; %.*s%s%.*s%s", (int)(w - n->begin), spec,
                                    t ? t : word, (int)(end - (size_t)(w - n->begin) - strlen(word)),
                                    spec + (w - n->begin) + strlen(word),
                                    names[i] == at[i] + 1 ? " " : ""),
                    rule);
    prev = key;
  }
  return 1;
}

static void decl_stmt(cp_rw *c, cp_node *n) {
  cp_run *run = c->run;
  cp_var *first = NULL;
  const char *type = NULL;
  int split = 0;
  for (unsigned i = 0; i < n->nkids && !split; i++) {
    cp_var *v = cp_var_of(c->f, n->kids[i]->cur);
    if (!v || v->group >= 0)
      continue;
    const char *t = new_type(run, c->f, v);
    if (first && (!t != !type || (t && strcmp(t, type) != 0))) {
      if ((split = split_decl(c, n)) != 0)
        break;
      cp_diag_at(run, c->f->unit, CP_ERROR, n->begin,
                 "'%s' becomes %s but shares its declaration with '%s', which becomes %s; "
                 "declare them separately [%s]", v->name, t ? t : "float", first->name,
                 type ? type : "float", cp_rule_name(CP_RULE_LOCAL_TYPE));
      return;
    }
    first = v;
    type = t;
  }
  int from_macro = n->macro || (n->nkids && n->kids[0]->macro);
  if (split) {
    /* split_decl made the type edits */
  } else if (type && !from_macro) {
    cp_node *d = n->kids[0];
    retype(run, c->f->unit, cp_func_edits(c->f), c->f, clang_getCursorType(d->cur), first->width,
           n->begin, cp_cursor_offset(d->cur),
           first->role == CP_VAR_ACCUM ? CP_RULE_ACCUMULATE : CP_RULE_LOCAL_TYPE, type);
    CXType t = clang_getCanonicalType(clang_getCursorType(d->cur));
    if (t.kind == CXType_IncompleteArray)
      cp_diag_at(run, c->f->unit, CP_NOTE, n->begin, /* a note: the launches here are converted */
                 "'%s' is dynamic shared memory and now holds %s (%d bytes per element): the "
                 "launches of the kernels that use it, in the files converted in this run, pass "
                 "twice the bytes; launches in other files must too [%s]", first->name, type,
                 8 * first->width, cp_rule_name(CP_RULE_LOCAL_TYPE));
  } else if (type) {
    cp_diag_at(run, c->f->unit, CP_ERROR, n->begin, "the declaration of '%s' comes from a macro "
               "and cannot be converted [%s]", first->name,
               cp_rule_name(CP_RULE_UNSUPPORTED_MACRO));
    return;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (n->kids[i]->kind == CXCursor_VarDecl) {
      cp_var *v = cp_var_of(c->f, n->kids[i]->cur);
      check_union(c, n->kids[i]);
      const char *stores = var_init(c, n->kids[i], v);
      if (v && v->is_record && v->role == CP_VAR_PAIRED) /* members.c */
        cp_apply_edit(run, cp_func_edits(c->f), n->end, 0,
                      cp_arena_printf(run->r->arena, " decltype(%s) %s" CP_ERR_SUFFIX "{};%s",
                                      v->name, v->name, stores), CP_RULE_LOCAL_TYPE);
    }
}

static int uses_converted(cp_rw *c, const cp_node *n) {
  if (n->kind == CXCursor_DeclRefExpr) {
    cp_var *v = cp_var_of(c->f, clang_getCursorReferenced(n->cur));
    if (v && (v->role == CP_VAR_COMPOSITE || v->role == CP_VAR_ACCUM || v->role == CP_VAR_PAIRED ||
              v->role == CP_VAR_OUTPTR))
      return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (uses_converted(c, n->kids[i]))
      return 1;
  return 0;
}

/* Every initializer list in `n` of a struct whose pointer fields gain companions: an error
 * (its elements would land on the companions; host code gets their values, host/fields.c,
 * device code not: a copy of such a struct there would be a pointer copy, refused anyway). */
static void struct_lists(cp_rw *c, const cp_node *n) {
  CXCursor fields[64];
  unsigned nf = n->kind == CXCursor_InitListExpr && n->nkids
                    ? cp_record_fields(clang_getCanonicalType(clang_getCursorType(n->cur)), fields, 64)
                    : 0;
  for (unsigned i = 0; i < nf; i++)
    if (cp_field_gains_companion(c->run, fields[i])) {
      CXString f = clang_getCursorSpelling(fields[i]);
      cp_rule_diag(c->run, c->f->unit, CP_ERROR, n->begin, CP_RULE_UNSUPPORTED_USE,
                   "an initializer list of a struct whose field '%s' gains a companion "
                   "('%s" CP_ERR_SUFFIX "') is not converted in device code (its elements would "
                   "land on the companions); use the struct the buffers come from (the kernel's "
                   "parameter) instead of a new one", clang_getCString(f), clang_getCString(f));
      clang_disposeString(f);
      return;
    }
  for (unsigned i = 0; i < n->nkids; i++)
    struct_lists(c, n->kids[i]);
}

static void walk(cp_rw *c, cp_node *n) {
  if ((n->kind == CXCursor_AsmStmt || n->kind == CXCursor_GCCAsmStmt) && uses_converted(c, n)) {
    cp_rule_diag(c->run, c->f->unit, CP_ERROR, n->begin, CP_RULE_UNSUPPORTED_ASM,
                 "inline assembly reads or writes a converted variable; cpconvert cannot convert "
                 "assembly: keep() the variable, or move the assembly out of the converted "
                 "function");
    return;
  }
  if (n->kind == CXCursor_VarDecl)
    check_union(c, n);
  if (clang_isExpression(n->kind)) {
    full_expr(c, n, 0, NULL);
    return;
  }
  if (n->kind == CXCursor_DeclStmt) {
    decl_stmt(c, n);
    return;
  }
  if (n->kind == CXCursor_ReturnStmt && n->nkids == 1) {
    int composite = c->f->returns_width && cp_composite_signature(c->f);
    full_expr(c, n->kids[0], composite ? 1 : c->f->returns_width ? -1 : 0, NULL);
    return;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    walk(c, n->kids[i]);
}

/* Calls into converted functions whose signature changed, from code that is not
 * converted (host code, kernel launches, unannotated device functions): they would not
 * compile, so each is an error that says what to do. */
typedef struct {
  cp_run *run;
  cp_unit *u;
  CXCursor in;
} outside_ctx;

static enum CXChildVisitResult find_outside_calls(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  outside_ctx *ctx = data;
  if (clang_getCursorKind(c) != CXCursor_CallExpr)
    return CXChildVisit_Recurse;
  cp_func *callee = cp_func_of(ctx->run, cp_callee(c));
  if (callee && !callee->twin && cp_signature_changes(callee)) {
    CXString caller = clang_getCursorSpelling(ctx->in);
    int tmpl = clang_getCursorKind(ctx->in) == CXCursor_FunctionTemplate;
    cp_diag_at(ctx->run, ctx->u, CP_ERROR, cp_extent_begin(c),
               "'%s' is converted and its parameters change, but '%s', which calls it, is not "
               "converted%s, or use scope(accumulators), which keeps the signature [%s]",
               callee->name, clang_getCString(caller),
               tmpl ? " (a function template: templates are not converted); call it from a "
                      "function that is not a template"
                    : "; annotate the caller too",
               cp_rule_name(CP_RULE_UNSUPPORTED_CALL));
    clang_disposeString(caller);
  }
  return CXChildVisit_Recurse;
}

static enum CXChildVisitResult each_function(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  unit_walk *w = data;
  cp_run *run = w->run;
  enum CXCursorKind k = clang_getCursorKind(c);
  cp_func *g;
  if (!cp_in_unit(w->u, c))
    return CXChildVisit_Continue;
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
      k == CXCursor_UnexposedDecl) /* libclang 16 shows extern "C" { } as unexposed */
    return CXChildVisit_Recurse;
  if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate) &&
      clang_isCursorDefinition(c) && (!(g = cp_func_of(run, c)) || g->twin)) {
    outside_ctx ctx = {run, w->u, c}; /* a twin's float original is code that is not converted */
    clang_visitChildren(c, find_outside_calls, &ctx);
  }
  return CXChildVisit_Continue;
}

void cp_convert_functions(cp_run *run) {
  cp_find_twins(run);
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    cp_rw c = {run, f, !f->pragma || f->pragma->scope == CP_SCOPE_ALL};
    unsigned before[CP_RULE_COUNT];
    memcpy(before, run->r->applied, sizeof before);
    cp_edit_list *twin = f->twin ? cp_arena_alloc(run->r->arena, sizeof *twin) : NULL;
    if (twin) { /* unique per twin: retyped_once keys on the list */
      memset(twin, 0, sizeof *twin);
      f->twin_edits = twin; /* from here on cp_func_edits(f) */
    }
    if (f->instance)
      cp_note_instance(run, f);
    else if (f->auto_conv && f->twin)
      cp_note_helper(run, f, 1);
    size_t edits = cp_func_edits(f)->count;
    signature(run, f);
    if (f->is_host)
      cp_convert_host(run, f);
    else if (!cp_convert_cas_atomic(run, f)) {
      struct_lists(&c, f->body);
      walk(&c, f->body);
    }
    if (f->auto_conv && !f->twin && !f->instance)
      cp_note_helper(run, f, cp_edits_change(cp_func_edits(f), edits, f->unit->opt.input_text));
    else if (f->pragma && !f->twin && !f->is_host && !f->n_vars &&
             !cp_edits_change(cp_func_edits(f), edits, f->unit->opt.input_text))
      cp_rule_diag(run, f->unit, CP_WARNING, cp_cursor_offset(f->cursor), CP_RULE_PRAGMA,
                   "'%s' is annotated, but there is nothing to convert in it: it computes with "
                   "no float or double value (int, __half and the like are left alone); it "
                   "stays as written", f->name);
    if (twin)
      cp_emit_twin(run, f, twin);
    for (int k = 0; k < CP_RULE_COUNT; k++) /* what this function's conversion applied */
      f->applied[k] = run->r->applied[k] - before[k];
  }
  cp_convert_fields(run);
  cp_convert_symbols(run);
  for (unsigned u = 0; u < run->n_inputs; u++) {
    unit_walk w = {run, run->units[u]};
    clang_visitChildren(clang_getTranslationUnitCursor(w.u->p.tu), find_prototypes, &w);
    clang_visitChildren(clang_getTranslationUnitCursor(w.u->p.tu), each_function, &w);
  }
}
