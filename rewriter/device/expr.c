/*
 * expr.c: the converted text of expressions inside converted functions.
 *
 * cp_rewrite() gives every expression node a value (cp_val): its converted text and what
 * kind of value that text is (plain float, composite, element of a paired buffer, or not
 * a float at all). A node's text is its source text with the texts of its changed
 * children spliced in, so everything the conversion does not touch keeps its bytes and
 * layout; only a node whose own form changes (a + b -> cp_add(a, b)) is written anew.
 *
 * Parents decide how a child's value is used: cp_promote() turns any float value into a
 * composite (exactly: cp_from_float, cp_from_int, cp_from_double, or the pair of a paired
 * element), cp_demote() into a plain float (the recombined value). Mixed operations use
 * the runtime's one-float-operand forms (cp_add_cf, cp_add_fc) so a plain operand costs
 * no conversion.
 *
 * Calls, atomics, shuffles and casts are in call.c, which calls back here for a call that
 * is an assignment, C++'s operator= (the one circle of device/: an expression holds calls,
 * and such a call is an expression's operator); values, their texts, promotion and demotion, and an accumulator's read
 * value in value.c; double arithmetic in a function converted from float in double.c.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int is_float_value(const cp_val *v) {
  return v->kind == CP_V_PLAIN || v->kind == CP_V_COMPOSITE || v->kind == CP_V_PAIRED;
}

/* Overrides for one child: an array with `text` at index `which`. */
static const char **one_override(cp_rw *c, const cp_node *n, const cp_node *which, const char *text) {
  const char **over = cp_arena_alloc(c->run->r->arena, (n->nkids + 1) * sizeof *over);
  for (unsigned i = 0; i < n->nkids; i++)
    over[i] = n->kids[i] == which ? text : NULL;
  return over;
}

static const char *op_name(const char *op) {
  switch (op[0]) {
  case '+': return "add";
  case '-': return "sub";
  case '*': return "mul";
  case '/': return "div";
  }
  return NULL;
}

/* ---- accumulators carried by accumulate(fixed|kahan|double) ------------------------- */

const char *cp_accum_type(cp_accum m) {
  switch (m) {
  case CP_ACC_FIXED: return "cp_fixed";
  case CP_ACC_KAHAN: return "cp_kahan";
  case CP_ACC_DOUBLE: return "double";
  case CP_ACC_COMPOSITE: break;
  }
  return "cp_float";
}

/* A value converted into the accumulator's carrier: exactly for fixed (up to its
 * resolution) and double, as its recombined float for Kahan (which sums floats). */
const char *cp_accum_in(cp_rw *c, const cp_var *v, const cp_val *x) {
  cp_arena *a = c->run->r->arena;
  switch (v->accum) {
  case CP_ACC_FIXED:
    if (x->kind == CP_V_COMPOSITE && x->from == CP_FROM_FIXED)
      return x->src;
    if (cp_passes_as_float(x))
      return cp_fixed_call(c, "cp_fixed_from_float", x->text);
    return cp_fixed_call(c, "cp_fixed_from_cp", cp_promote(c, x));
  case CP_ACC_KAHAN:
    return cp_arena_printf(a, "cp_kahan_add(cp_kahan_init(), %s)",
                           cp_demote(c, x, NULL, CP_DROP_CONVERT, NULL)); /* Kahan sums floats */
  case CP_ACC_DOUBLE:
    if (cp_is_composite(x))
      return cp_arena_printf(a, "cp_to_double(%s)", cp_promote(c, x));
    if (cp_is_split(c, x)) /* (float)d: the double d itself, as the split holds it */
      return cp_arena_printf(a, "(%s)", x->src);
    return x->text;
  case CP_ACC_COMPOSITE: break;
  }
  return cp_promote(c, x);
}

/* acc = x, acc += x, acc -= x, acc *= x ... on an accumulator. */
static cp_val *accum_update(cp_rw *c, const cp_node *n, const cp_val *l, const cp_val *r,
                            const char *op) {
  cp_arena *a = c->run->r->arena;
  const cp_var *v = l->var;
  const char *name = l->text, *t;
  int sum = strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0, neg = op[0] == '-';
  if (cp_used_as_value(c, n)) {
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
                  "the value of an assignment to an accumulator is used; assign in a statement "
                  "of its own");
    return cp_pass(c, n);
  }
  if (v->accum == CP_ACC_DOUBLE) {
    if (!cp_is_composite(r) && !cp_is_split(c, r))
      return cp_pass(c, n); /* double op= float: C++ already does it in double */
    t = cp_arena_printf(a, "%s %s %s", name, op, cp_accum_in(c, v, r));
  } else if (strcmp(op, "=") == 0) {
    t = cp_arena_printf(a, "%s = %s", name, cp_accum_in(c, v, r));
  } else if (sum && v->accum == CP_ACC_FIXED) {
    t = cp_arena_printf(a, "%s = cp_fixed_add(%s, %s%s)", name, name, neg ? "-" : "",
                        cp_accum_in(c, v, r));
  } else if (sum && v->accum == CP_ACC_KAHAN) {
    const char *x = cp_demote(c, r, NULL, CP_DROP_CONVERT, NULL);
    t = neg ? cp_arena_printf(a, "%s = cp_kahan_add(%s, -(%s))", name, name, x)
            : cp_arena_printf(a, "%s = cp_kahan_add(%s, %s)", name, name, x);
  } else {
    const cp_val *old = cp_accum_read(c, l);
    cp_val *value = cp_new_val(c, cp_arith(c, op_name(op), old, r), CP_V_COMPOSITE, 1);
    t = cp_arena_printf(a, "%s = %s", name, cp_accum_in(c, v, value));
  }
  return cp_made(c, t, CP_V_OTHER, 0, CP_RULE_ACCUMULATE);
}

/* lhs = rhs, lhs op= rhs, for every kind of target (n is the operator node, or the
 * operator= call of a struct such as float4). */
/* The right operand of a compound assignment into a composite: C converts neither side
 * first (x += 0.5 * y computes in double, n -= f in float), so an int or double operand
 * is still of its own type here. It enters the composite operation exactly, as an
 * implicit conversion would: an int by cp_from_int, a double by the exact split. */
static const cp_val *compound_operand(cp_rw *c, const cp_node *rhs, const cp_val *r) {
  if (r->kind != CP_V_OTHER || c->f->dbl)
    return r;
  if (r->cpx) /* double arithmetic, held as a composite already */
    return cp_composite_val(c, r->cpx);
  CXType t = clang_getCanonicalType(clang_getCursorType(rhs->cur));
  cp_from from;
  if (t.kind == CXType_Double || t.kind == CXType_LongDouble)
    from = CP_FROM_DOUBLE;
  else if (t.kind >= CXType_Bool && t.kind <= CXType_Int128 && t.kind != CXType_Int &&
           t.kind != CXType_Short && t.kind != CXType_SChar && t.kind != CXType_Char_S)
    from = CP_FROM_DOUBLE; /* unsigned, long, long long: through double, exact up to 2^53 */
  else if (t.kind == CXType_Int || t.kind == CXType_Short || t.kind == CXType_SChar ||
           t.kind == CXType_Char_S)
    from = CP_FROM_INT;
  else
    return r;
  cp_val *v = cp_new_val(c, r->text, CP_V_PLAIN, 1);
  v->from = from;
  v->src = from == CP_FROM_DOUBLE && t.kind != CXType_Double
               ? cp_arena_printf(c->run->r->arena, "(double)(%s)", r->text)
               : r->text;
  return v;
}

/* n op= x where n is not a float (an int, a double) and x is composite: C computes it in
 * x's type and converts back; here x enters as its recombined float (as C would see it),
 * or, into a double, as the exact double of the pair. */
static cp_val *into_other(cp_rw *c, const cp_node *n, const cp_node *lhs, const cp_node *rhs,
                          const cp_val *r) {
  CXType t = clang_getCanonicalType(clang_getCursorType(lhs->cur));
  const char *x = t.kind == CXType_Double && !c->f->dbl
                      ? cp_arena_printf(c->run->r->arena, "cp_to_double(%s)", cp_promote(c, r))
                      : cp_demote(c, r, rhs, CP_DROP_CONVERT, NULL);
  int ch;
  return cp_made(c, cp_splice(c, n, one_override(c, n, rhs, x), &ch), CP_V_OTHER, 0,
                 CP_RULE_CONVERT);
}

/* The value of an element of a volatile cp_float * (`sdata[tid]` of a warp-synchronous
 * reduction): read through cp_load_volatile, since a volatile struct is not copied. */
static cp_val *volatile_read(cp_rw *c, const cp_val *k) {
  return cp_made(c, cp_arena_printf(c->run->r->arena, "cp_load_volatile(&%s)", k->text),
                 CP_V_COMPOSITE, k->width, CP_RULE_ASSIGN);
}

/* x = y, x op= y into an element of a volatile cp_float *: the new value (from the old one
 * read through cp_load_volatile) is written through cp_store_volatile, in a statement of
 * its own. */
static cp_val *volatile_store(cp_rw *c, const cp_node *n, const cp_node *lhs, const cp_val *l,
                              const cp_val *r, const char *name) {
  if (cp_used_as_value(c, n) || cp_side_effect(c, lhs)) {
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
                  "a store into a volatile composite whose value is used or whose index has "
                  "side effects; store in a statement of its own, with the index computed first");
    return cp_pass(c, n);
  }
  const char *value = name ? cp_arith(c, name, volatile_read(c, l), r) : cp_promote(c, r);
  return cp_made(c, cp_arena_printf(c->run->r->arena, "cp_store_volatile(&%s, %s)", l->text, value),
                 CP_V_OTHER, 0, CP_RULE_ASSIGN);
}

cp_val *cp_assignment(cp_rw *c, const cp_node *n, const cp_node *lhs, const cp_node *rhs,
                      const char *op) {
  const cp_val *l = lhs->val, *r = rhs->val;
  cp_arena *a = c->run->r->arena;
  const char *name = op[1] == '=' ? op_name(op) : NULL; /* compound: "add"... */
  if (name && l->kind != CP_V_ACCUM && cp_double_rule(c, lhs))
    return cp_double_compound(c, n, lhs, rhs, name);
  if (name)
    r = compound_operand(c, rhs, r);
  if (l->kind == CP_V_ACCUM)
    return accum_update(c, n, l, r, op);
  if (l->kind == CP_V_PAIRED) {
    if (cp_used_as_value(c, n)) {
      cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
               "the value of a store into a paired buffer is used; store in a statement of its own");
      return cp_pass(c, n);
    }
    if (name && strcmp(name, "add") == 0)
      return cp_made(c, cp_arena_printf(a, "%s(&%s, &%s, %s)", c->f->prec->add_to, l->text, l->twin,
                                        cp_prof_store(c, lhs, cp_promote(c, r))),
                  CP_V_OTHER, 0, CP_RULE_BUFFER_WRITE);
    const char *value = name ? cp_arith(c, name, l, r) : cp_promote(c, r);
    return cp_made(c, cp_store_text(c, lhs, l, value), CP_V_OTHER, 0, CP_RULE_BUFFER_WRITE);
  }
  if (l->kind == CP_V_COMPOSITE && l->vol)
    return volatile_store(c, n, lhs, l, r, name);
  if (l->kind == CP_V_COMPOSITE) {
    if (!name) {
      int ch;
      const char *t = cp_splice(c, n, one_override(c, n, rhs, cp_prof_var(c, lhs, NULL, cp_promote(c, r))), &ch);
      return cp_made(c, t, CP_V_COMPOSITE, l->width, CP_RULE_ASSIGN);
    }
    if (cp_side_effect(c, lhs)) {
      cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
               "compound assignment to a composite whose address has side effects; "
               "compute the element's index first");
      return cp_pass(c, n);
    }
    const char *t = cp_arena_printf(a, "%s = %s", l->text, cp_prof_var(c, lhs, NULL, cp_arith(c, name, l, r)));
    if (cp_used_as_value(c, n))
      t = cp_arena_printf(a, "(%s)", t);
    return cp_made(c, t, CP_V_COMPOSITE, l->width, CP_RULE_ASSIGN);
  }
  if (l->kind == CP_V_PLAIN && cp_is_composite(r)) {
    int ch;
    const char *t = cp_splice(c, n, one_override(c, n, rhs, cp_demote(c, r, lhs, cp_drop_into(lhs), NULL)),
                              &ch);
    return cp_made(c, t, CP_V_PLAIN, l->width, CP_RULE_CONVERT);
  }
  if (l->kind == CP_V_OTHER && name && cp_is_composite(r))
    return into_other(c, n, lhs, rhs, r);
  return cp_pass(c, n);
}

/* Whether an expression reads a volatile object: each read must stay. */
static int reads_volatile(const cp_node *n) {
  if (clang_isExpression(n->kind) && clang_isVolatileQualifiedType(clang_getCursorType(n->cur)))
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (reads_volatile(n->kids[i]))
      return 1;
  return 0;
}

/* x * x of one composite operand written twice, evaluated without effects (no assignment,
 * ++, impure call or volatile read): cp_sqr(x) evaluates it once. */
static int is_square(cp_rw *c, const cp_node *n, const char *name, const cp_val *a, const cp_val *b) {
  return strcmp(name, "mul") == 0 && cp_is_composite(a) && cp_is_composite(b) && !a->vol && !b->vol &&
         strcmp(a->text, b->text) == 0 && !cp_side_effect(c, n->kids[0]) && !reads_volatile(n->kids[0]);
}

static cp_val *binary(cp_rw *c, cp_node *n) {
  char op[4];
  cp_node_operator(c->f->unit->opt.input_text, n, op);
  if (strcmp(op, "=") == 0 || n->kind == CXCursor_CompoundAssignOperator)
    return cp_assignment(c, n, n->kids[0], n->kids[1], op);
  const char *cmp = cp_compare_name(op);
  cp_val *joined = (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) ? cp_joined_compare(c, n) : NULL;
  if (joined)
    return joined;
  if (op_name(op) && !op[1] && cp_double_rule(c, n))
    return cp_double_arith(c, n, op_name(op));
  if (cmp && (cp_double_rule(c, n->kids[0]) || cp_double_rule(c, n->kids[1])))
    return cp_double_compare(c, n, cmp);
  const cp_val *a = n->kids[0]->val, *b = n->kids[1]->val;
  if (!is_float_value(a) || !is_float_value(b) || a->width != 1 || b->width != 1)
    return cp_pass(c, n);
  int carry = cp_is_composite(a) || cp_is_composite(b) || cp_is_split(c, a) || cp_is_split(c, b);
  if (cmp)
    return carry ? cp_compare_of(c, cmp, a, b) : cp_pass(c, n);
  const char *name = op_name(op);
  if (!name || op[1] || cp_node_width(c, n) != 1)
    return cp_pass(c, n);
  if (!carry && !c->promote_all)
    return cp_pass(c, n);
  if (is_square(c, n, name, a, b))
    return cp_made(c, cp_arena_printf(c->run->r->arena, "%ssqr(%s)", cp_op_fn(c, "sqr"), cp_promote(c, a)),
                   CP_V_COMPOSITE, 1, CP_RULE_ARITH);
  return cp_made(c, cp_arith(c, name, a, b), CP_V_COMPOSITE, 1, CP_RULE_ARITH);
}

/* Whether &x of a composite goes where a cp_float * is expected: an argument of a
 * converted function (its output parameter), of a sincos that maps (cp_sincos_maps) or
 * the target of an atomicAdd. */
static int address_stays(cp_rw *c, const cp_node *n) {
  const cp_node *p = n->parent;
  while (p && (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr))
    p = p->parent;
  if (!p || p->kind != CXCursor_CallExpr)
    return 0;
  CXCursor ref = clang_getCursorReferenced(p->cur);
  if (cp_func_of(c->run, ref) || cp_sincos_maps(c, p))
    return 1;
  CXString s = clang_getCursorSpelling(ref);
  int atomic = cp_atomic_sign(clang_getCString(s)) != 0;
  clang_disposeString(s);
  return atomic;
}

static cp_val *unary(cp_rw *c, cp_node *n) {
  char op[4];
  cp_node_operator(c->f->unit->opt.input_text, n, op);
  const cp_val *k = n->kids[0]->val;
  cp_arena *a = c->run->r->arena;
  if (strcmp(op, "-") == 0 && k->cpx && cp_double_rule(c, n))
    return cp_double_of(c, cp_arena_printf(a, "%sneg(%s)", c->f->prec->fn, k->cpx));
  if (strcmp(op, "-") == 0 && (cp_is_composite(k) || cp_is_split(c, k)))
    return cp_made(c, cp_arena_printf(a, "%sneg(%s)", c->f->prec->fn, cp_promote(c, k)), CP_V_COMPOSITE, 1,
                CP_RULE_ARITH);
  if (k->kind == CP_V_ACCUM) {
    if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
      cp_val one = {.text = "1.0f", .kind = CP_V_PLAIN, .width = 1};
      return accum_update(c, n, k, &one, op[0] == '+' ? "+=" : "-=");
    }
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
                  "an accumulator carried by accumulate() can only be read, assigned and "
                  "summed into");
    return cp_pass(c, n);
  }
  if (strcmp(op, "&") == 0 && k->kind == CP_V_COMPOSITE && !address_stays(c, n)) {
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_POINTER,
                  "the address of a composite escapes; only converted functions (as their "
                  "output parameter) and atomicAdd can take it");
    return cp_pass(c, n);
  }
  if (strcmp(op, "&") == 0 && k->kind == CP_V_PAIRED) {
    cp_val *v = cp_made(c, cp_arena_printf(a, "&%s", k->text), CP_V_PAIRED_ADDR, k->width,
                     CP_RULE_BUFFER_WRITE);
    v->twin = cp_arena_printf(a, "&%s", k->twin);
    c->run->r->applied[CP_RULE_BUFFER_WRITE]--; /* counted where the address is used */
    return v;
  }
  if ((strcmp(op, "++") == 0 || strcmp(op, "--") == 0) && cp_is_composite(k)) {
    int postfix = n->begin == n->kids[0]->begin;
    if (postfix && cp_used_as_value(c, n)) {
      cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
               "the value of a postfix ++/-- on a composite is used; use the prefix form");
      return cp_pass(c, n);
    }
    if (k->kind == CP_V_PAIRED)
      return cp_made(c, cp_arena_printf(a, "%s(&%s, &%s, %s)", c->f->prec->add_to, k->text, k->twin,
                                        cp_prof_store(c, n->kids[0],
                                                      cp_arena_printf(a, "%s(%s%s)",
                                                                      c->f->prec->from_scalar,
                                                                      op[0] == '-' ? "-" : "",
                                                                      c->f->prec->one))),
                  CP_V_OTHER, 0, CP_RULE_BUFFER_WRITE);
    const char *step = op[0] == '+' ? "add" : "sub";
    const char *t = cp_arena_printf(a, "%s = %s%s%s(%s, %s)", k->text, cp_op_fn(c, step), step, c->f->prec->cf, k->text,
                                    c->f->prec->one);
    if (cp_used_as_value(c, n))
      t = cp_arena_printf(a, "(%s)", t);
    return cp_made(c, t, CP_V_COMPOSITE, 1, CP_RULE_ASSIGN);
  }
  if (strcmp(op, "*") == 0)
    return cp_lvalue(c, n);
  return cp_pass(c, n);
}

/* Whether `t` is one call, NAME(...), whose last ')' closes its first '('. */
static int is_one_call(const char *t) {
  const char *p = t;
  while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
    p++;
  if (p == t || *p != '(')
    return 0;
  int depth = 0;
  for (; *p; p++) {
    if (*p == '(')
      depth++;
    else if (*p == ')' && --depth == 0)
      return p[1] == '\0';
  }
  return 0;
}

static cp_val *paren(cp_rw *c, cp_node *n) {
  const cp_val *k = n->kids[0]->val;
  if (k->changed && is_one_call(k->text)) { /* (a + b) -> cp_add(a, b): a call needs none */
    cp_val *v = cp_new_val(c, k->text, k->kind, k->width);
    *v = *k;
    return v;
  }
  cp_val *v = cp_pass(c, n);
  if (k->cpx) /* (a * 0.5): still the double held as a composite */
    v->cpx = k->cpx;
  if (k->kind == CP_V_OTHER)
    return v;
  v->kind = k->kind;
  v->width = k->width;
  v->from = k->from;
  v->src = k->src;
  v->var = k->var; /* (acc) is still the accumulator: read or assigned as `acc` is */
  if (k->twin)
    v->twin = cp_arena_printf(c->run->r->arena, "(%s)", k->twin);
  return v;
}

/* c ? acc : x with an accumulator branch: both branches are lvalues, so the read of the
 * accumulator is outside the operator, on its result. The accumulator is read here
 * instead (exact composite, or double), and the result is a composite. */
static cp_val *accum_select(cp_rw *c, cp_node *n, const cp_val *a, const cp_val *b, int w) {
  const cp_node *p = n->parent;
  while (p && p->kind == CXCursor_ParenExpr)
    p = p->parent;
  if (!p || p->kind != CXCursor_UnexposedExpr || w != 1) {
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
                  "a conditional operator with an accumulator carried by accumulate() as a "
                  "branch can only be read");
    return cp_pass(c, n);
  }
  if (a->kind == CP_V_ACCUM)
    a = cp_accum_read(c, a);
  if (b->kind == CP_V_ACCUM)
    b = cp_accum_read(c, b);
  const char *over[3] = {NULL, cp_promote(c, a), cp_promote(c, b)};
  int ch;
  return cp_made(c, cp_splice(c, n, over, &ch), CP_V_COMPOSITE, w, CP_RULE_SELECT);
}

static cp_val *conditional(cp_rw *c, cp_node *n) {
  if (n->nkids != 3)
    return cp_pass(c, n);
  const cp_val *a = n->kids[1]->val, *b = n->kids[2]->val;
  int w = cp_node_width(c, n);
  if (a->kind == CP_V_ACCUM || b->kind == CP_V_ACCUM)
    return accum_select(c, n, a, b, w);
  if ((a->cpx || b->cpx) && cp_double_rule(c, n)) { /* c ? x * 0.5 : d: a composite select */
    const cp_val *da = cp_double_operand(c, n->kids[1]), *db = cp_double_operand(c, n->kids[2]);
    if (da && db) {
      const char *over[3] = {NULL, cp_promote(c, da), cp_promote(c, db)};
      int ch;
      return cp_double_of(c, cp_arena_printf(c->run->r->arena, "(%s)", cp_splice(c, n, over, &ch)));
    }
  }
  if (!w || (!cp_is_composite(a) && !cp_is_composite(b) && !cp_is_split(c, a) &&
             !cp_is_split(c, b)))
    return cp_pass(c, n);
  if (a->vol) /* c ? smem[k] : v, an lvalue of volatile type: its element is read here */
    a = volatile_read(c, a);
  if (b->vol)
    b = volatile_read(c, b);
  const char *over[3] = {NULL, cp_promote(c, a), cp_promote(c, b)};
  int ch;
  const char *t = cp_splice(c, n, over, &ch);
  return cp_made(c, t, CP_V_COMPOSITE, w, CP_RULE_SELECT);
}

/* Implicit conversions (UnexposedExpr wrappers) and value-category changes. */
static cp_val *implicit(cp_rw *c, cp_node *n) {
  if (n->nkids != 1)
    return cp_pass(c, n);
  const cp_val *k = n->kids[0]->val;
  int to = cp_node_width(c, n), from = cp_node_width(c, n->kids[0]);
  CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
  CXType kt = clang_getCanonicalType(clang_getCursorType(n->kids[0]->cur));
  cp_arena *a = c->run->r->arena;
  if (k->cpx && cp_is_double(t)) { /* a double held as a composite, read as a double */
    cp_val *v = cp_new_val(c, k->text, k->kind, k->width);
    *v = *k;
    return v;
  }
  if (k->cpx && to == 1) /* converted to float: the composite itself */
    return cp_composite_val(c, k->cpx);
  if (k->cpx && t.kind == CXType_Int) /* truncated, exactly */
    return cp_made(c, cp_arena_printf(a, "cp_to_int(%s)", k->cpx), CP_V_OTHER, 0, CP_RULE_DOUBLE_ARITH);
  if (to && to == from) {
    if (k->kind == CP_V_ACCUM)
      return cp_accum_read(c, k);
    if (k->kind == CP_V_PAIRED)
      return cp_made(c, cp_promote(c, k), CP_V_COMPOSITE, k->width, CP_RULE_BUFFER_READ);
    if (k->vol)
      return volatile_read(c, k);
    cp_val *v = cp_new_val(c, k->text, k->kind, k->width);
    *v = *k;
    return v;
  }
  if (to == 1 && !from && kt.kind != CXType_Pointer) {
    cp_val *v = cp_pass(c, n);
    v->kind = CP_V_PLAIN;
    v->width = 1;
    v->src = k->text;
    if (kt.kind == CXType_Double || kt.kind == CXType_LongDouble)
      v->from = CP_FROM_DOUBLE;
    else if (kt.kind >= CXType_Bool && kt.kind <= CXType_Int128)
      v->from = k->kind == CP_V_OTHER && n->kids[0]->kind == CXCursor_IntegerLiteral &&
                        cp_int_literal_fits(cp_src(c, n->kids[0]))
                    ? CP_FROM_FLOAT
                    : CP_FROM_INT;
    return v;
  }
  cp_val *d = !to && from && cp_is_double(t) ? cp_double_of_split(c, k) : NULL;
  if (d)
    return d;
  if (!to && from && cp_is_composite(k)) {
    if ((t.kind == CXType_Double || t.kind == CXType_LongDouble) && !c->f->dbl) {
      cp_val *v = cp_made(c, cp_arena_printf(a, "cp_to_double(%s)", cp_promote(c, k)), CP_V_OTHER,
                          0, CP_RULE_CONVERT);
      v->cpx = cp_promote(c, k);
      return v;
    }
    return cp_made(c, cp_demote(c, k, n->kids[0], CP_DROP_CONVERT, NULL), CP_V_OTHER, 0,
                   CP_RULE_CONVERT);
  }
  cp_val *v = cp_pass(c, n);
  if (k->kind == CP_V_PAIRED_ADDR)
    *v = *k; /* &buf[i] converted to another pointer type still names the element */
  return v;
}

/* Nodes that hand their child's value on unchanged (so a macro may contain them). */
static int wraps_value(enum CXCursorKind k) {
  return k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr || k == CXCursor_DeclRefExpr ||
         k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr;
}

static int has_composite_kid(const cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    if (n->kids[i]->val && cp_is_composite(n->kids[i]->val))
      return 1;
  return 0;
}

/* Float arithmetic whose operator lies in a macro's body: the operator cannot be read from
 * the text (every token of the body is at the expansion point), so it would be left in
 * float unseen, and a write through it would not pair its buffer. Reported once, at the
 * innermost such node. */
static int float_operator_in_macro(cp_rw *c, const cp_node *n) {
  if (!n->macro || (n->kind != CXCursor_BinaryOperator && n->kind != CXCursor_CompoundAssignOperator &&
                    n->kind != CXCursor_UnaryOperator))
    return 0;
  for (unsigned i = 0; i < n->nkids; i++)
    if (n->kids[i]->val && n->kids[i]->val->rule == CP_RULE_UNSUPPORTED_MACRO)
      return 0;
  if (cp_type_width(clang_getCursorType(n->cur), c->f->dbl) > 0)
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (cp_type_width(clang_getCursorType(n->kids[i]->cur), c->f->dbl) > 0)
      return 1;
  return 0;
}

/* Whether a node a macro wrote, with value `v`, is refused. With libclang 17 on, the AST
 * says every operator, so the rules convert inside macros as elsewhere: a changed
 * expression is written out over the macro's use (macro.c) when every part of it prints
 * and it is the macro's whole expansion, and refused otherwise; one left as written is
 * float arithmetic the rules keep. Before 17 an operator inside a macro cannot be read, so
 * any float arithmetic there is refused. */
static const char *macro_refused(cp_rw *c, const cp_node *n, const cp_val *v) {
  if (!cp_node_operator_from_ast())
    return n->macro && (v->changed || (!wraps_value(n->kind) && has_composite_kid(n)) ||
                        float_operator_in_macro(c, n))
               ? "float arithmetic inside a macro expansion is not converted with this "
                 "libclang (16 cannot tell its operators); write it out, or make the macro a "
                 "__device__ function"
               : NULL;
  if (!cp_macro_root(n) || (!v->changed && (v->kind == CP_V_PLAIN || v->kind == CP_V_OTHER)))
    return NULL;
  if (v->changed && (!clang_isExpression(n->kind) || !cp_macro_text(c->run->r->arena, n)))
    return "float arithmetic inside a macro expansion that cannot be written out at its use "
           "(the macro writes a statement, a declaration or an expression the AST does not "
           "spell out); write it out, or make the macro a __device__ function";
  if (!cp_macro_whole(c->f->unit->opt.input_text, n))
    return "float arithmetic inside a macro expansion that is part of a larger expression "
           "(an operator, parenthesis or operand of it comes from the macro); write it out, "
           "or make the macro a __device__ function";
  return NULL;
}

/* An expression of a function template whose type depends on the template's parameters
 * (libclang's "dependent type", where cp_node_type cannot tell it either) that may compute
 * with floats in an instantiation: an operator, a call or a conditional, or any such
 * expression with a float operand (a composite or paired value, a float or floatN child).
 * A comparison of operands whose types are known is not. */
/* Whether `n`, of a type clang leaves dependent, is still never a float: a call of a
 * function that is not a template and returns no float (assert's __assert_fail, given the
 * template's __PRETTY_FUNCTION__), or a conditional whose branches are such calls or of
 * types known not to be floats (`c ? void(0) : __assert_fail(...)`). */
static int float_type(CXType t) {
  t = clang_getCanonicalType(t);
  return cp_type_width(t, 0) || cp_type_width(t, 1) || t.kind == CXType_Float ||
         t.kind == CXType_Double;
}

/* Whether the leaf `n` is spelled __PRETTY_FUNCTION__, __FUNCTION__ or __func__ (dependent
 * in a template; in assert's expansion, spelled in the header that defines assert). */
static int function_name_leaf(const cp_node *n) {
  CXFile file;
  unsigned off;
  CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(n->cur));
  clang_getSpellingLocation(at, &file, NULL, NULL, &off);
  size_t size = 0;
  const char *t = file ? clang_getFileContents(clang_Cursor_getTranslationUnit(n->cur), file,
                                               &size) : NULL;
  static const char *const names[] = {"__PRETTY_FUNCTION__", "__FUNCTION__", "__func__"};
  for (unsigned i = 0; t && i < 3; i++)
    if (off + strlen(names[i]) <= size && strncmp(t + off, names[i], strlen(names[i])) == 0)
      return 1;
  return 0;
}

static int never_float(const char *text, const cp_node *n) {
  n = cp_node_strip(n);
  CXType t = clang_getCanonicalType(cp_node_type(text, n));
  if (t.kind != CXType_Dependent)
    return !float_type(t);
  if (n->nkids == 0)
    return function_name_leaf(n);
  if (n->kind == CXCursor_UnaryOperator) /* __extension__ __PRETTY_FUNCTION__ */
    return never_float(text, n->kids[0]);
  if (n->kind == CXCursor_CallExpr) { /* every function it may call returns no float */
    CXCursor set[8];
    unsigned k = cp_callee_set(n->cur, set, 8);
    int nargs = cp_num_args(n->cur);
    for (unsigned i = 0; i < k; i++)
      if (float_type(clang_getResultType(clang_getCursorType(set[i]))) ||
          clang_getCursorKind(set[i]) != CXCursor_FunctionDecl)
        return 0;
    for (int i = 0; i < nargs; i++)
      if (!never_float(text, cp_call_arg(n, nargs, i)))
        return 0;
    return k > 0;
  }
  return n->kind == CXCursor_ConditionalOperator && n->nkids == 3 &&
         never_float(text, n->kids[1]) && never_float(text, n->kids[2]);
}

static int dependent_arith(const cp_rw *c, const cp_node *n) {
  const char *text = c->f->unit->opt.input_text;
  if (cp_node_type(text, n).kind != CXType_Dependent || never_float(text, n))
    return 0;
  char op[4];
  if (n->kind == CXCursor_BinaryOperator && n->nkids == 2 && cp_node_operator(text, n, op)[0] &&
      strchr("<>=!&|", op[0]) &&
      cp_node_type(text, n->kids[0]).kind != CXType_Dependent &&
      cp_node_type(text, n->kids[1]).kind != CXType_Dependent)
    return 0;
  if (n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_CompoundAssignOperator ||
      n->kind == CXCursor_UnaryOperator || n->kind == CXCursor_CallExpr ||
      n->kind == CXCursor_ConditionalOperator)
    return 1;
  for (unsigned i = 0; i < n->nkids; i++) {
    CXType t = clang_getCanonicalType(cp_node_type(text, n->kids[i]));
    if ((n->kids[i]->val && cp_is_composite(n->kids[i]->val)) || cp_type_width(t, 0))
      return 1;
  }
  return 0;
}

/* Whether a child was refused by dependent_arith already (once per expression). */
static int refused_below(const cp_node *n) {
  for (unsigned i = 0; i < n->nkids; i++)
    if (n->kids[i]->val && n->kids[i]->val->rule == CP_RULE_UNSUPPORTED_TEMPLATE)
      return 1;
  return 0;
}

/* Whether an earlier sibling from the same macro was refused already. */
static int refused_beside(const cp_node *n) {
  for (unsigned i = 0; n->parent && i < n->parent->nkids && n->parent->kids[i] != n; i++) {
    const cp_node *k = n->parent->kids[i];
    if (k->macro && k->begin == n->begin && k->val && k->val->rule == CP_RULE_UNSUPPORTED_MACRO)
      return 1;
  }
  return 0;
}

const cp_val *cp_rewrite(cp_rw *c, cp_node *n) {
  if (n->val)
    return n->val;
  if (n->kind == CXCursor_LambdaExpr) {
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_LAMBDA,
                  "a lambda in a converted function is not converted; make it a __device__ "
                  "function (converted with its caller)");
    return n->val = cp_new_val(c, cp_src(c, n), CP_V_OTHER, 0);
  }
  for (unsigned i = 0; i < n->nkids; i++)
    cp_rewrite(c, n->kids[i]);
  cp_val *v;
  switch (n->kind) {
  case CXCursor_DeclRefExpr: v = cp_lvalue(c, n); break;
  case CXCursor_ArraySubscriptExpr:
  case CXCursor_MemberRefExpr: v = cp_lvalue(c, n); break;
  case CXCursor_UnexposedExpr: v = implicit(c, n); break;
  case CXCursor_ParenExpr: v = paren(c, n); break;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: v = n->nkids == 2 ? binary(c, n) : cp_pass(c, n); break;
  case CXCursor_UnaryOperator: v = n->nkids == 1 ? unary(c, n) : cp_pass(c, n); break;
  case CXCursor_ConditionalOperator: v = conditional(c, n); break;
  case CXCursor_CallExpr: v = cp_call(c, n); break;
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXFunctionalCastExpr:
  case CXCursor_CXXStaticCastExpr: v = cp_cast(c, n); break;
  default: v = cp_pass(c, n); break;
  }
  if (dependent_arith(c, n)) { /* reported once, at the innermost such expression */
    if (!refused_below(n))
      cp_rule_error(c, n, CP_RULE_UNSUPPORTED_TEMPLATE,
                    "the type of this expression depends on the template's parameters, so its "
                    "arithmetic may be float in one instantiation and not in another: a "
                    "converted template may only compute with types known in the template "
                    "itself; make the dependent part a function that is not a template, or "
                    "convert an instantiation written out");
    v = cp_new_val(c, cp_src(c, n), CP_V_OTHER, 0);
    v->rule = CP_RULE_UNSUPPORTED_TEMPLATE;
  }
  const char *refused = macro_refused(c, n, v);
  if (refused) {
    if (!refused_beside(n)) /* `f(PAIR)`: once for the macro */
      cp_rule_error(c, n, CP_RULE_UNSUPPORTED_MACRO, refused);
    v = cp_new_val(c, cp_src(c, n), CP_V_OTHER, 0);
    v->rule = CP_RULE_UNSUPPORTED_MACRO;
  }
  n->val = v;
  return v;
}
