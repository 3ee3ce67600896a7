/*
 * call.c: lvalues (variables, buffer elements, members), calls and casts.
 *
 * An lvalue rooted at a paired buffer parameter (buf[i], buf[i].x, *(buf + k)) has a
 * twin: the same expression rooted at the companion (buf_err[i] ...), built by splicing
 * the companion's name in place of the root along the path. Reads combine the two,
 * writes store both. Calls map through the rule table (rules.def): converted functions
 * take composites and companions, math functions their composite versions, atomics and
 * shuffles their composite forms; anything else receives recombined floats.
 */
#include <string.h>

#include "internal.h"

const char *cp_twin(cp_rw *c, const cp_node *n, const cp_node *root) {
  CXString s = clang_getCursorSpelling(clang_getCursorReferenced(root->cur));
  const char *t = root->kind == CXCursor_MemberRefExpr /* s.x, p->x: the companion field */
                      ? cp_arena_printf(c->run->r->arena, "%s" CP_ERR_SUFFIX, cp_src(c, root))
                      : cp_arena_printf(c->run->r->arena, "%s" CP_ERR_SUFFIX, clang_getCString(s));
  clang_disposeString(s);
  for (const cp_node *k = root; k != n && k->parent; k = k->parent) {
    const char **over = cp_arena_alloc(c->run->r->arena, (k->parent->nkids + 1) * sizeof *over);
    for (unsigned i = 0; i < k->parent->nkids; i++)
      over[i] = k->parent->kids[i] == k ? t : NULL;
    int ch;
    t = cp_splice(c, k->parent, over, &ch);
  }
  return t;
}

/* Whether the field `field` (s.x) is read through a struct parameter of the kernel that only
 * plain floats fill (cp_plain_view_param, host/instances.c): its values alone, no companion. */
static int plain_view(cp_rw *c, const cp_node *field) {
  const cp_node *base = field && field->nkids ? cp_node_strip(field->kids[0]) : NULL;
  if (!base || base->kind != CXCursor_DeclRefExpr || !c->f->is_kernel)
    return 0;
  CXCursor d = clang_getCursorReferenced(base->cur);
  for (int i = 0; i < cp_num_args(c->f->cursor); i++)
    if (clang_equalCursors(cp_arg(c->f->cursor, (unsigned)i), d))
      return cp_plain_view_param(c->run, c->f, i);
  return 0;
}

/* The buffer an expression is rooted at: a variable or parameter of the function, or in
 * device code a device symbol or a paired struct field (s.x[i]: *root is then the field's
 * MemberRefExpr, whose companion is s.x_err). */
static cp_var *root_var(cp_rw *c, const cp_node *n, const cp_node **root) {
  *root = cp_node_root(n, 0);
  CXCursor decl = *root ? clang_getCursorReferenced((*root)->cur) : clang_getNullCursor();
  cp_var *v = *root ? cp_var_of(c->f, decl) : NULL;
  if (v || c->f->is_host)
    return v;
  if (*root && (v = cp_symbol_of(c->run, decl)))
    return v; /* a device symbol */
  v = cp_field_buffer(c->run, n);
  if (v && v->role == CP_VAR_PAIRED && !plain_view(c, cp_field_root(n))) {
    *root = cp_field_root(n);
    return v;
  }
  return NULL;
}

static const char *function_name(cp_rw *c, const cp_node *n) {
  return cp_cursor_spelling(c->run->r->arena, cp_callee(n->cur));
}

/* Whether a pointer parameter points to volatile (`volatile float *sdata`). */
static int volatile_pointee(const cp_var *p) {
  CXType t = clang_getCanonicalType(clang_getCursorType(p->decl));
  return t.kind == CXType_Pointer && clang_isVolatileQualifiedType(clang_getPointeeType(t));
}

cp_val *cp_lvalue(cp_rw *c, cp_node *n) {
  int w = cp_node_width(c, n);
  cp_val *v = cp_pass(c, n);
  if (!w)
    return v;
  if (n->kind == CXCursor_MemberRefExpr && n->nkids == 1 &&
      n->kids[0]->val->kind == CP_V_COMPOSITE) {
    v->kind = CP_V_COMPOSITE; /* a member of a composite vector value */
    return v;
  }
  const cp_node *root;
  cp_var *var = root_var(c, n, &root);
  if (!var)
    return v;
  switch (var->role) {
  case CP_VAR_COMPOSITE:
  case CP_VAR_OUTPTR:
    v->kind = CP_V_COMPOSITE;
    v->vol = var->role == CP_VAR_OUTPTR && volatile_pointee(var);
    break;
  case CP_VAR_ACCUM:
    if (n->kind == CXCursor_DeclRefExpr) {
      v->kind = CP_V_ACCUM;
      v->var = var;
    }
    break;
  case CP_VAR_PAIRED: {
    const cp_node *e = cp_side_effect(c, n);
    if (e) {
      cp_rule_error(c, n, CP_RULE_UNSUPPORTED_POINTER,
                    e->kind == CXCursor_CallExpr
                        ? cp_arena_printf(c->run->r->arena,
                                          "the index of a paired buffer element calls '%s', "
                                          "which does more than compute its result; the index "
                                          "is evaluated for the value and again for the error "
                                          "half: compute it into a local first",
                                          function_name(c, e))
                        : "the index of a paired buffer element has side effects; it is "
                          "evaluated for the value and again for the error half: compute it "
                          "into a local first");
      return v;
    }
    v->kind = CP_V_PAIRED;
    v->twin = cp_twin(c, n, root);
    break;
  }
  default:
    break;
  }
  return v;
}

typedef struct {
  const char *cuda, *cp;
  int nargs;
} math_row;

static const math_row math_table[] = {
#define CP_MATH(cuda_name, cp_name, nargs, prec) {#cuda_name, #cp_name, nargs},
#include "rules.def"
};

static const math_row *math_lookup(const char *name, int nargs) {
  for (size_t i = 0; i < sizeof math_table / sizeof math_table[0]; i++)
    if (strcmp(math_table[i].cuda, name) == 0 && math_table[i].nargs == nargs)
      return &math_table[i];
  return NULL;
}

static const char **overrides(cp_rw *c, const cp_node *n) {
  const char **over = cp_arena_alloc(c->run->r->arena, (n->nkids + 1) * sizeof *over);
  memset(over, 0, (n->nkids + 1) * sizeof *over);
  return over;
}

/* Whether an argument carries an error term: a composite, or the split of a double. */
static int any_composite_arg(const cp_rw *c, cp_node *n, int nargs) {
  for (int i = 0; i < nargs; i++) {
    const cp_val *v = cp_call_arg(n, nargs, i)->val;
    if (cp_is_composite(v) || cp_is_split(c, v))
      return 1;
  }
  return 0;
}

static cp_val *call_with(cp_rw *c, cp_node *n, const char **over, const char *callee,
                         cp_vkind kind, int width, cp_rule rule) {
  if (callee && n->nkids > 0 && !cp_call_is_infix(n)) /* a + b: the twin operator+ is found by
                                                        its parameter types */
    over[0] = callee;
  int ch;
  return cp_made(c, cp_splice(c, n, over, &ch), kind, width, rule);
}

static int const_ref(const cp_var *p) {
  CXType t = clang_getCanonicalType(clang_getCursorType(p->decl));
  return clang_isConstQualifiedType(clang_getPointeeType(t));
}

/* Whether an argument names a composite object a reference can bind to: a converted
 * local, its member or element (not a temporary made from a float or a buffer element). */
static int composite_lvalue(const cp_node *an) {
  const cp_node *s = cp_node_strip(an);
  return an->val && an->val->kind == CP_V_COMPOSITE &&
         (s->kind == CXCursor_DeclRefExpr || s->kind == CXCursor_MemberRefExpr ||
          s->kind == CXCursor_ArraySubscriptExpr);
}

/* A composite local of a scope(accumulators) function (an accumulator: `acc = step(acc,
 * pi, pj)`) passed to a helper whose parameter stays float: its error term is dropped at
 * every such call, which the user must hear about. */
static void demoted_accumulator(cp_rw *c, const cp_node *an, const cp_func *callee) {
  const cp_node *a = cp_node_strip(an);
  while (a->nkids == 1 && a->kind != CXCursor_DeclRefExpr) /* the copy of a float4 */
    a = cp_node_strip(a->kids[0]);
  cp_var *v = a->kind == CXCursor_DeclRefExpr ? cp_var_of(c->f, clang_getCursorReferenced(a->cur))
                                               : NULL;
  if (!v || v->role != CP_VAR_COMPOSITE || v->is_param || !c->f->pragma ||
      c->f->pragma->scope != CP_SCOPE_ACCUMULATORS)
    return;
  cp_rule_diag(c->run, c->f->unit, CP_WARNING, an->begin, CP_RULE_FLOAT_CALL,
               "accumulator '%s' is passed to '%s', whose parameter stays float (it converts with "
               "scope(accumulators), its signature unchanged): the error term of '%s' is dropped "
               "at this call; annotate '%s' with '#pragma cp composite scope(all)' to pass it "
               "whole", v->name, callee->name, v->name, callee->name);
}

/* Whether the call n is a whole statement (`f(x);`, `v[i] += a;` as a block's statement or
 * a branch or loop body), where a statement may stand instead of it. */
static int whole_statement(const cp_node *n) {
  const cp_node *s = n, *p = n->parent;
  while (p && (p->kind == CXCursor_UnexposedExpr || p->kind == CXCursor_ParenExpr)) {
    s = p;
    p = p->parent;
  }
  if (!p)
    return 0;
  const cp_node *last = p->nkids ? p->kids[p->nkids - 1] : NULL;
  switch (p->kind) {
  case CXCursor_CompoundStmt:
    return 1;
  case CXCursor_IfStmt:
    return p->nkids && p->kids[0] != s; /* a branch, not the condition */
  case CXCursor_DoStmt:
    return p->nkids && p->kids[0] == s;
  case CXCursor_WhileStmt:
  case CXCursor_ForStmt:
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
  case CXCursor_LabelStmt:
    return last == s;
  default:
    return 0;
  }
}

/* The most paired elements one call may bind to converting references. */
enum { MAX_REF_ELEMS = 8 };

/* The composite local standing for the k-th such element: cp_ref, cp_ref1, cp_ref2... */
static const char *ref_local(cp_rw *c, int k) {
  return k ? cp_arena_printf(c->run->r->arena, "cp_ref%d", k) : "cp_ref";
}

/* Paired buffers' elements bound to reference parameters that convert (`vel[i] += f` with
 * operator+=(float3 &, float3), `kick(vel[i], f)`, `swap(a[i], b[i])`): each element is
 * read into a composite, the call works on them, and both halves of each are stored back
 * in argument order, in a statement that stands for the call's (`do { ... } while (0)`,
 * one statement wherever the call's was). */
static const char *through_elements(cp_rw *c, const cp_val *const *elems,
                                    const cp_node *const *nodes, int n, const char *call) {
  cp_arena *a = c->run->r->arena;
  const char *loads = "", *stores = "";
  for (int k = 0; k < n; k++) {
    loads = cp_arena_printf(a, "%s%s%s %s = %s; ", loads, c->f->prec->type,
                            cp_wsuffix(elems[k]->width), ref_local(c, k), cp_promote(c, elems[k]));
    stores = cp_arena_printf(a, "%s %s;", stores, cp_store_text(c, nodes[k], elems[k], ref_local(c, k)));
  }
  return cp_arena_printf(a, "do { %s%s;%s } while (0)", loads, call, stores);
}

/* A call to another converted function. */
/* An argument bound to a float & parameter that now takes a cp_float &, which is neither a
 * composite lvalue nor a paired element the call can go through: refused, saying why. */
static void refuse_ref_arg(cp_rw *c, const cp_node *an) {
  const cp_node *root = cp_node_root(an, 0);
  cp_var *v = root ? cp_var_of(c->f, clang_getCursorReferenced(root->cur)) : NULL;
  int kept = v && c->f->pragma &&
             cp_names_contain(c->f->pragma->keep, c->f->pragma->n_keep, v->name);
  cp_rule_error(c, an, kept ? CP_RULE_UNSUPPORTED_POINTER : CP_RULE_UNSUPPORTED_USE,
                kept ? "this variable is in keep() but is bound to a float & parameter that "
                       "now takes a cp_float &; take it out of keep(), or pass a converted "
                       "local and copy it"
                     : "this argument is bound to a float & parameter that now takes a "
                       "cp_float &; pass a float local variable (it converts with it) and "
                       "copy it from there");
}

/* A twin is written after its float original: a call of it in the same file before that
 * definition would name it before it is declared, so it is refused. */
static void twin_defined_before(cp_rw *c, const cp_node *n, const cp_func *callee) {
  unsigned defined_at = cp_extent_begin(callee->cursor);
  if (callee->twin && callee->unit == c->f->unit && n->begin < defined_at)
    cp_rule_error(c, n, CP_RULE_AUTO_CONVERT,
                  cp_arena_printf(c->run->r->arena, "'%s' is called here before its "
                                  "definition, after which its converted twin '%s' is written; "
                                  "define '%s' before this function",
                                  callee->name, callee->twin, callee->name));
}

/* A call that passes keep() locals where the callee's parameters convert (cp_kept_call):
 * it calls the float original, which function.c keeps beside the converted copy, with
 * composite values recombined, as a call to any float function is. */
static cp_val *float_original_call(cp_rw *c, cp_node *n, const cp_func *callee, int nargs) {
  const char **over = overrides(c, n);
  int any = 0;
  for (int i = 0; i < nargs; i++) {
    cp_node *an = cp_call_arg(n, nargs, i);
    const cp_val *x = cp_rvalue(c, an->val);
    if (cp_is_composite(x) || x != an->val)
      over[cp_arg_index(n, nargs, i)] = cp_demote(c, x, an, CP_DROP_CALL, callee->name);
    any |= cp_is_composite(x) || x != an->val;
  }
  if (any)
    cp_rule_diag(c->run, c->f->unit, CP_WARNING, n->begin, CP_RULE_FLOAT_CALL,
                 "this call passes keep() variables where '%s' converts, so it calls the float "
                 "'%s': its composite arguments are recombined here and it computes in float",
                 callee->name, callee->name);
  int w = cp_node_width(c, n);
  if (!any)
    return cp_pass(c, n);
  return call_with(c, n, over, NULL, w ? CP_V_PLAIN : CP_V_OTHER, w, CP_RULE_CALL);
}

static cp_val *converted_call(cp_rw *c, cp_node *n, cp_func *callee, int nargs) {
  if (cp_kept_call(c->run, c->f, n))
    return float_original_call(c, n, callee, nargs);
  const char **over = overrides(c, n);
  cp_arena *a = c->run->r->arena;
  int composite_sig = !callee->pragma || callee->pragma->scope == CP_SCOPE_ALL;
  const cp_val *elems[MAX_REF_ELEMS]; /* paired elements bound to converting references */
  const cp_node *elem_nodes[MAX_REF_ELEMS];
  int n_elems = 0;
  for (int i = 0; i < nargs && i < cp_num_args(callee->cursor); i++) {
    cp_node *an = cp_call_arg(n, nargs, i);
    unsigned k = cp_arg_index(n, nargs, i);
    cp_var *p = cp_var_of(callee, cp_arg(callee->cursor, (unsigned)i));
    if (!p)
      continue;
    if (p->is_ref && p->role == CP_VAR_COMPOSITE && composite_sig && !const_ref(p) &&
        !composite_lvalue(an) && n_elems < MAX_REF_ELEMS && an->val &&
        an->val->kind == CP_V_PAIRED && whole_statement(n) && !cp_used_as_value(c, n)) {
      over[k] = ref_local(c, n_elems);
      elem_nodes[n_elems] = an;
      elems[n_elems++] = an->val;
      continue;
    }
    if (p->is_ref && p->role == CP_VAR_COMPOSITE && composite_sig && !const_ref(p) &&
        !composite_lvalue(an)) {
      refuse_ref_arg(c, an);
      continue;
    }
    if (p->role == CP_VAR_COMPOSITE && p->is_param && p->group < 0 && composite_sig)
      over[k] = cp_promote(c, an->val);
    else if (p->group < 0 && cp_is_composite(an->val)) {
      over[k] = cp_demote(c, an->val, an, CP_DROP_CALL, callee->name);
      demoted_accumulator(c, an, callee);
    } else if (p->role == CP_VAR_PAIRED) {
      const cp_node *root;
      cp_var *buf = root_var(c, an, &root);
      if (!buf || buf->role != CP_VAR_PAIRED) {
        cp_rule_error(c, an, CP_RULE_UNSUPPORTED_POINTER,
                      "this argument is not a paired buffer of the caller, but the parameter it "
                      "is passed to is paired");
        continue;
      }
      over[k] = cp_arena_printf(a, "%s, %s", an->val->text, cp_twin(c, an, root));
    }
  }
  int w = callee->returns_width;
  twin_defined_before(c, n, callee);
  cp_val *v = call_with(c, n, over, callee->twin,
                        w ? (composite_sig ? CP_V_COMPOSITE : CP_V_PLAIN) : CP_V_OTHER, w,
                        CP_RULE_CALL);
  if (n_elems) {
    v->text = through_elements(c, elems, elem_nodes, n_elems, v->text);
    v->kind = CP_V_OTHER;
    c->run->r->applied[CP_RULE_BUFFER_WRITE] += (unsigned)n_elems;
  }
  return v;
}

static cp_val *math_call(cp_rw *c, cp_node *n, const math_row *m, int nargs) {
  if (!any_composite_arg(c, n, nargs) && !c->promote_all)
    return cp_pass(c, n);
  const char **over = overrides(c, n);
  if (nargs == 2 && (strcmp(m->cp, "cp_add") == 0 || strcmp(m->cp, "cp_sub") == 0 ||
                     strcmp(m->cp, "cp_mul") == 0 || strcmp(m->cp, "cp_div") == 0))
    return cp_made(c,
                   cp_arith(c, m->cp + 3, cp_call_arg(n, nargs, 0)->val,
                            cp_call_arg(n, nargs, 1)->val),
                   CP_V_COMPOSITE, 1, CP_RULE_MATH);
  for (int i = 0; i < nargs; i++)
    over[cp_arg_index(n, nargs, i)] = cp_promote(c, cp_call_arg(n, nargs, i)->val);
  return call_with(c, n, over, cp_arena_printf(c->run->r->arena, "%s%s", cp_op_fn(c, m->cp + 3), m->cp + 3),
                   CP_V_COMPOSITE, 1, CP_RULE_MATH);
}

static int is_sincos(const char *name, int nargs) {
  return nargs == 3 && (strcmp(name, "sincosf") == 0 || strcmp(name, "sincos") == 0 ||
                        strcmp(name, "__sincosf") == 0);
}

/* Whether an argument is &v of a composite local or parameter v. */
static int composite_address(cp_rw *c, const cp_node *an) {
  const cp_node *a = cp_node_strip(an);
  char op[4];
  if (a->kind != CXCursor_UnaryOperator || a->nkids != 1 ||
      strcmp(cp_node_operator(c->f->unit->opt.input_text, a, op), "&") != 0)
    return 0;
  const cp_node *x = cp_node_strip(a->kids[0]);
  cp_var *v = x->kind == CXCursor_DeclRefExpr
                  ? cp_var_of(c->f, clang_getCursorReferenced(x->cur))
                  : NULL;
  return v && v->role == CP_VAR_COMPOSITE && v->width == 1;
}

int cp_sincos_maps(cp_rw *c, const cp_node *n) {
  int nargs = cp_num_args(n->cur);
  return is_sincos(function_name(c, n), nargs) && composite_address(c, cp_call_arg(n, nargs, 1)) &&
         composite_address(c, cp_call_arg(n, nargs, 2));
}

/* sincosf(x, &s, &c) with s and c composite: the composite sincos (the tier's, cp_dd_ in
 * a kernel written in double) writes both; any other sincos stays a float call (plain_call,
 * [float-call] where x is composite; the address of a composite passed there is refused). */
static cp_val *sincos_call(cp_rw *c, cp_node *n, int nargs) {
  const char **over = overrides(c, n);
  over[cp_arg_index(n, nargs, 0)] = cp_promote(c, cp_call_arg(n, nargs, 0)->val);
  return call_with(c, n, over, cp_arena_printf(c->run->r->arena, "%ssincos", cp_op_fn(c, "sincos")),
                   CP_V_OTHER, 0, CP_RULE_MATH);
}

/* A math call of type double in a function converted from float (`sqrt(x * 0.5)`), with a
 * composite version: that version on the operands as rule double-arith takes them; left as
 * written where every operand is a float or a constant a float holds (`sqrt(2.0)`). */
static cp_val *double_math_call(cp_rw *c, cp_node *n, const math_row *m, int nargs) {
  const cp_val *arg[3];
  int plain = 1;
  for (int i = 0; i < nargs && i < 3; i++) {
    if (!(arg[i] = cp_double_operand(c, cp_call_arg(n, nargs, i))))
      return NULL;
    plain &= cp_passes_as_float(arg[i]);
  }
  if (plain || nargs > 3)
    return NULL;
  cp_arena *a = c->run->r->arena;
  if (nargs == 2 && (strcmp(m->cp, "cp_add") == 0 || strcmp(m->cp, "cp_sub") == 0 ||
                     strcmp(m->cp, "cp_mul") == 0 || strcmp(m->cp, "cp_div") == 0))
    return cp_double_of(c, cp_arith(c, m->cp + 3, arg[0], arg[1]));
  const char *t = cp_arena_printf(a, "%s%s(", cp_op_fn(c, m->cp + 3), m->cp + 3);
  for (int i = 0; i < nargs; i++)
    t = cp_arena_printf(a, "%s%s%s", t, i ? ", " : "", cp_promote(c, arg[i]));
  return cp_double_of(c, cp_arena_printf(a, "%s)", t));
}

/* atomicAdd(&x, v) / atomicSub(&x, v) on floats. */
static cp_val *atomic_call(cp_rw *c, cp_node *n, const char *name, int nargs) {
  const cp_val *target = cp_call_arg(n, nargs, 0)->val, *v = cp_call_arg(n, nargs, 1)->val;
  cp_arena *a = c->run->r->arena;
  const cp_prec *P = c->f->prec;
  const char *value = cp_promote(c, v);
  if (cp_atomic_sign(name) < 0)
    value = cp_arena_printf(a, "%sneg(%s)", P->fn, value);
  value = cp_prof_store(c, cp_call_arg(n, nargs, 0), value); /* used where the atomic converts */
  const char *text = NULL;
  const cp_node *root;
  cp_var *buf = root_var(c, cp_call_arg(n, nargs, 0), &root);
  if (target->kind == CP_V_PAIRED_ADDR) {
    text = cp_arena_printf(a, "%s(%s, %s, %s)", P->atomic, target->text, target->twin, value);
  } else if (buf && buf->role == CP_VAR_PAIRED) { /* atomicAdd(total, x), atomicAdd(x + i, v) */
    text = cp_arena_printf(a, "%s(%s, %s, %s)", P->atomic, target->text,
                           cp_twin(c, cp_call_arg(n, nargs, 0), root), value);
  } else {
    const cp_node *t = cp_node_strip(cp_call_arg(n, nargs, 0));
    char op[4];
    if (t->kind == CXCursor_UnaryOperator &&
        strcmp(cp_node_operator(c->f->unit->opt.input_text, t, op), "&") == 0 &&
        t->kids[0]->val->kind == CP_V_COMPOSITE)
      text = cp_arena_printf(a, "%s(&(%s).%s, &(%s).%s, %s)", P->atomic, t->kids[0]->val->text,
                             P->hi, t->kids[0]->val->text, P->lo, value);
  }
  if (!text) {
    if (!cp_is_composite(v))
      return cp_pass(c, n);
    const char **over = overrides(c, n);
    over[n->nkids - 1] = cp_demote(c, v, cp_call_arg(n, nargs, 0), CP_DROP_STORE, NULL);
    return call_with(c, n, over, NULL, CP_V_PLAIN, 1, CP_RULE_CONVERT);
  }
  if (cp_used_as_value(c, n)) {
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
                  "the old value returned by a composite atomicAdd is not available; use the "
                  "atomic in a statement of its own");
    return cp_pass(c, n);
  }
  return cp_made(c, text, CP_V_OTHER, 0, CP_RULE_ATOMIC);
}

/* __shfl_*_sync of a composite shuffles both halves; of a fixed-point accumulator, the
 * 64-bit integer, which stays exact when it is summed back into one. */
static cp_val *shuffle_call(cp_rw *c, cp_node *n, const char *name, int nargs) {
  const cp_val *x = nargs < 2 ? NULL : cp_call_arg(n, nargs, 1)->val;
  if (!x || !(cp_is_composite(x) || cp_is_split(c, x)))
    return cp_pass(c, n);
  const char **over = overrides(c, n);
  if (x->kind == CP_V_COMPOSITE && x->from == CP_FROM_FIXED) {
    over[cp_arg_index(n, nargs, 1)] = x->src;
    cp_val *v = call_with(c, n, over, cp_arena_printf(c->run->r->arena, "cp_fixed%s", name + 1),
                          CP_V_COMPOSITE, 1, CP_RULE_SHUFFLE);
    v->from = CP_FROM_FIXED;
    v->src = v->text;
    v->text = cp_fixed_call(c, "cp_fixed_to_cp", v->src);
    return v;
  }
  over[cp_arg_index(n, nargs, 1)] = cp_promote(c, cp_call_arg(n, nargs, 1)->val);
  return call_with(c, n, over, cp_arena_printf(c->run->r->arena, "%s%s", c->f->prec->fn, name + 2),
                   CP_V_COMPOSITE, 1, CP_RULE_SHUFFLE);
}

static cp_val *vector_call(cp_rw *c, cp_node *n, int width, int nargs) {
  if (!any_composite_arg(c, n, nargs) && !c->promote_all)
    return cp_pass(c, n);
  const char **over = overrides(c, n);
  for (int i = 0; i < nargs; i++)
    over[cp_arg_index(n, nargs, i)] = cp_promote(c, cp_call_arg(n, nargs, i)->val);
  return call_with(c, n, over,
                   cp_arena_printf(c->run->r->arena, "cp_make_%s%d", c->f->prec->scalar, width),
                   CP_V_COMPOSITE, width, CP_RULE_VECTOR);
}

/* g.shfl_down(v, d) and its siblings on a cooperative-groups tile; of a fixed-point
 * accumulator, the tile's own shuffle of the 64-bit integer (cp_fixed is a long long), which
 * stays exact when it is summed back into one, as with __shfl_*_sync. */
static cp_val *group_shuffle(cp_rw *c, cp_node *n, const char *method, int nargs) {
  const cp_val *x = nargs < 1 ? NULL : cp_rvalue(c, cp_call_arg(n, nargs, 0)->val);
  if (nargs < 1 || n->nkids < 2 || !(cp_is_composite(x) || cp_is_split(c, x)))
    return cp_pass(c, n);
  const cp_node *callee = cp_node_strip(n->kids[0]);
  if (callee->kind != CXCursor_MemberRefExpr || callee->nkids != 1)
    return cp_pass(c, n);
  const cp_node *object = callee->kids[0];
  const char **over = overrides(c, n);
  if (x->kind == CP_V_COMPOSITE && x->from == CP_FROM_FIXED) {
    over[cp_arg_index(n, nargs, 0)] = x->src;
    cp_val *v = call_with(c, n, over, NULL, CP_V_COMPOSITE, 1, CP_RULE_GROUP_SHUFFLE);
    v->from = CP_FROM_FIXED;
    v->src = v->text;
    v->text = cp_fixed_call(c, "cp_fixed_to_cp", v->src);
    return v;
  }
  over[cp_arg_index(n, nargs, 0)] =
      cp_arena_printf(c->run->r->arena, "%s, %s", cp_src(c, object), cp_promote(c, x));
  /* the callee `g.shfl_down` becomes `cp_group_shfl_down`, its object the first argument */
  return call_with(c, n, over, cp_arena_printf(c->run->r->arena, "%sgroup_%s", c->f->prec->fn, method),
                   CP_V_COMPOSITE, 1, CP_RULE_GROUP_SHUFFLE);
}

/* A tile's shuffle method: a plain method (the prelude) or a member template (CUDA's
 * cooperative_groups, `template <class T> T shfl_down(T&&, unsigned)`). */
static int is_group_shuffle(CXCursor ref, const char *name) {
  enum CXCursorKind k = clang_getCursorKind(ref);
  enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(ref));
  return (k == CXCursor_CXXMethod ||
          (k == CXCursor_FunctionTemplate &&
           (pk == CXCursor_ClassDecl || pk == CXCursor_StructDecl ||
            pk == CXCursor_ClassTemplate || pk == CXCursor_ClassTemplatePartialSpecialization))) &&
         cp_is_group_shuffle(name);
}

/* A texture fetch or surface read gives one float, a surface write stores one: a warning
 * (and no [float-call] one). Whether `name` is such a call. */
static int texture_diag(cp_rw *c, cp_node *n, const char *name) {
  int surface = strncmp(name, "surf", 4) == 0;
  if (!surface && strncmp(name, "tex", 3) != 0)
    return 0;
  if (surface && strstr(name, "write"))
    cp_rule_diag(c->run, c->f->unit, CP_WARNING, n->begin, CP_RULE_UNSUPPORTED_TEXTURE,
                 "'%s' stores a plain float: the surface keeps the value without its error; "
                 "write a paired buffer to keep both halves",
                 name);
  else
    cp_rule_diag(c->run, c->f->unit, CP_WARNING, n->begin, CP_RULE_UNSUPPORTED_TEXTURE,
                 "'%s' reads a plain float: a paired buffer bound to this texture is read without "
                 "its error; read the buffer directly to get both halves",
                 name);
  return 1;
}

/* Any other function: recombined floats in, a plain float out. */
static cp_val *plain_call(cp_rw *c, cp_node *n, const char *name, int nargs) {
  int texture = texture_diag(c, n, name);
  const char **over = overrides(c, n);
  int any = 0, float_arg = 0; /* __half2float(h), __int2float_rn(k): nothing recombined */
  for (int i = 0; i < nargs; i++) {
    cp_node *an = cp_call_arg(n, nargs, i);
    CXType at = clang_getCanonicalType(clang_getCursorType(an->cur));
    float_arg |= cp_type_width(at, 0) || cp_type_width(at, 1);
    const cp_node *root;
    cp_var *buf = root_var(c, an, &root);
    if (buf && buf->role == CP_VAR_PAIRED && cp_node_strip(an) == root) {
      cp_rule_diag(c->run, c->f->unit, CP_ERROR, an->begin, CP_RULE_UNSUPPORTED_POINTER,
                   "paired buffer '%s' is passed to '%s', which is not converted: its body is not "
                   "in this file, so it cannot be converted with its caller; define it here, or "
                   "annotate its definition in a file of the same run", buf->name, name);
    }
    enum CXTypeKind bk =
        buf ? clang_getCanonicalType(clang_getCursorType(buf->decl)).kind : CXType_Invalid;
    if (buf && buf->role == CP_VAR_COMPOSITE && cp_node_strip(an) == root &&
        (bk == CXType_ConstantArray || bk == CXType_IncompleteArray || bk == CXType_Pointer)) {
      /* its elements are composites: no float * reads them */
      cp_rule_diag(c->run, c->f->unit, CP_ERROR, an->begin, CP_RULE_UNSUPPORTED_POINTER,
                   "'%s' holds composites and is passed to '%s', which is not converted (it "
                   "is not defined in a file the run converts) and reads floats through it: "
                   "convert the file that defines '%s' in the same run (with --o-dir for a "
                   "header), or pass it a float array", buf->name, name, name);
    }
    const cp_val *x = cp_rvalue(c, an->val);
    if (cp_is_composite(x) || x != an->val) {
      over[cp_arg_index(n, nargs, i)] = cp_demote(c, x, an, CP_DROP_CALL, name);
      any = 1;
    }
  }
  int w = cp_node_width(c, n);
  CXCursor decl = cp_callee(n->cur);
  int system = clang_Location_isInSystemHeader(clang_getCursorLocation(decl));
  if (w == 1 && (any || (c->promote_all && float_arg)) && !texture && system) { /* texture: said above */
    cp_rule_diag(c->run, c->f->unit, CP_WARNING, n->begin, CP_RULE_FLOAT_CALL,
                 "'%s' has no composite version; it is evaluated in float on the recombined "
                 "value", name);
  } else if (any && !texture && !system && *name) {
    /* a function of the user's that the run does not convert: the error terms of its
     * arguments are paid for and dropped here */
    cp_rule_diag(c->run, c->f->unit, CP_WARNING, n->begin, CP_RULE_FLOAT_CALL,
                 "'%s' is not converted (it is not defined in a file the run converts; with "
                 "--o-dir, the user's headers are converted too), so its composite arguments "
                 "are recombined here and it computes in float", name);
  }
  if (!any)
    return cp_pass(c, n);
  return call_with(c, n, over, NULL, w ? CP_V_PLAIN : CP_V_OTHER, w, CP_RULE_CALL);
}

cp_val *cp_call(cp_rw *c, cp_node *n) {
  CXCursor ref = cp_callee(n->cur);
  int nargs = cp_num_args(n->cur);
  if (clang_getCursorKind(ref) == CXCursor_Constructor || nargs < 0) {
    /* float4 p = pos[i]: a copy, whose value is its one child's */
    if (n->nkids == 1 && n->kids[0]->val->kind != CP_V_OTHER) {
      cp_val *v = cp_new_val(c, n->kids[0]->val->text, CP_V_OTHER, 0);
      *v = *n->kids[0]->val;
      if (v->kind == CP_V_PAIRED)
        return cp_made(c, cp_promote(c, v), CP_V_COMPOSITE, v->width, CP_RULE_BUFFER_READ);
      return v;
    }
    return cp_pass(c, n);
  }
  const char *name = function_name(c, n);
  if (clang_getCursorKind(ref) == CXCursor_CXXMethod && strcmp(name, "operator=") == 0 &&
      n->nkids == 3) /* v = make_float4(...): children are lhs, operator, rhs */
    return cp_assignment(c, n, n->kids[0], n->kids[2], "=");
  if (is_group_shuffle(ref, name) && cp_node_width(c, n) == 1)
    return group_shuffle(c, n, name, nargs);
  cp_func *callee = cp_func_of(c->run, ref);
  const math_row *m;
  if (callee)
    return converted_call(c, n, callee, nargs);
  if (cp_node_width(c, n) == 1 && (m = math_lookup(name, nargs)))
    return math_call(c, n, m, nargs);
  cp_val *dm;
  if (cp_double_rule(c, n) && (m = math_lookup(name, nargs)) &&
      (dm = double_math_call(c, n, m, nargs)))
    return dm;
  if (is_sincos(name, nargs) && cp_sincos_maps(c, n))
    return sincos_call(c, n, nargs);
  if (is_sincos(name, nargs) && (cp_is_composite(cp_call_arg(n, nargs, 0)->val) ||
                                  cp_is_split(c, cp_call_arg(n, nargs, 0)->val)))
    cp_rule_diag(c->run, c->f->unit, CP_WARNING, n->begin, CP_RULE_FLOAT_CALL,
                 "'%s' maps to the composite sincos only where both outputs are the addresses "
                 "of converted locals (&s, &c); here it is evaluated in float on the recombined "
                 "value", name);
  if (cp_atomic_sign(name) && nargs == 2 && cp_node_width(c, n) == 1)
    return atomic_call(c, n, name, nargs);
  if (cp_is_warp_shuffle(name) && cp_node_width(c, n) == 1)
    return shuffle_call(c, n, name, nargs);
  if (strncmp(name, "make_", 5) == 0 && strncmp(name + 5, c->f->prec->scalar,
                                                strlen(c->f->prec->scalar)) == 0 &&
      cp_node_width(c, n) > 1)
    return vector_call(c, n, cp_node_width(c, n), nargs);
  return plain_call(c, n, name, nargs);
}

cp_val *cp_cast(cp_rw *c, cp_node *n) {
  int w = cp_node_width(c, n);
  if (n->nkids == 0)
    return cp_pass(c, n);
  const cp_val *k = n->kids[n->nkids - 1]->val;
  CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
  cp_val *d;
  if (!w && (t.kind == CXType_Double || t.kind == CXType_LongDouble) &&
      (d = cp_double_of_split(c, k)))
    return d;
  if (k->cpx && !c->f->dbl) { /* a double held as a composite (rule double-arith) */
    if (w == 1)
      return cp_made(c, k->cpx, CP_V_COMPOSITE, 1, CP_RULE_DOUBLE_ARITH);
    if (t.kind == CXType_Double || t.kind == CXType_LongDouble) {
      d = cp_made(c, k->text, CP_V_OTHER, 0, CP_RULE_DOUBLE_ARITH); /* (double)(x * 0.5) */
      d->cpx = k->cpx;
      return d;
    }
    if (t.kind == CXType_Int)
      return cp_made(c, cp_arena_printf(c->run->r->arena, "cp_to_int(%s)", k->cpx), CP_V_OTHER, 0,
                     CP_RULE_DOUBLE_ARITH);
  }
  if (!w)
    return cp_pass(c, n);
  if (cp_is_composite(k)) /* (float)x of a composite x: the cast has nothing to do */
    return cp_made(c, cp_promote(c, k), CP_V_COMPOSITE, k->width, CP_RULE_CONVERT);
  cp_val *v = cp_pass(c, n);
  v->from = k->from;
  v->src = k->src;
  return v;
}
