/*
 * double.c: double arithmetic in a function converted from float (rule double-arith).
 *
 * C computes `x[i] * 0.5` or `a * s` (s a double) in double; here they become composite
 * arithmetic, so that a float-float build never touches the FP64 pipe. Called by expr.c
 * (binary operators, compound assignments, comparisons, conditionals) and call.c, on the
 * operands' values those have already written; it calls only value.c (cp_arith, cp_rvalue,
 * cp_pass), so it is no part of their recursion.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "internal.h"

/* ---- double arithmetic in a function converted from float (rule double-arith) ---------
 *
 * `x[i] * 0.5`, `a * s` with a double s, `(float)n + d[i]`: C computes these in double, which
 * on a GPU with rationed FP64 is what the conversion exists to avoid. In a function converted
 * from float they become composite arithmetic: the operands enter exactly (a float as it is,
 * an int by cp_from_int, a double constant a float holds exactly as that float, any other
 * double by cp_from_double, which ff device code does with integer operations), and the
 * value is the composite (`cpx`), read as a double by cp_to_double where C needs a double.
 * The output does not depend on the backend: under dp each operation is the double
 * operation again, under ff it is float-float. */

int cp_is_double(CXType t) {
  t = clang_getCanonicalType(t);
  return t.kind == CXType_Double || t.kind == CXType_LongDouble;
}

/* Whether double arithmetic at `n` converts: a function converted from float (a kernel
 * written in double has its own rules, cp_dd_), n of type double. */
int cp_double_rule(const cp_rw *c, const cp_node *n) {
  return !c->f->dbl && !c->f->is_host && cp_is_double(cp_node_type(c->f->unit->opt.input_text, n));
}

/* A double constant as a float operand, where a float holds its value exactly: a literal
 * written out gains the suffix (0.5 -> 0.5f, -0.25 -> -0.25f), one a macro writes is cast
 * ((float)(HALF)); NULL for any other node or value. */
static const char *exact_float_constant(cp_rw *c, const cp_node *n) {
  const cp_node *lit = n;
  char op[4];
  if (n->kind == CXCursor_UnaryOperator && n->nkids == 1 &&
      strcmp(cp_node_operator(c->f->unit->opt.input_text, n, op), "-") == 0)
    lit = n->kids[0];
  if (lit->kind != CXCursor_FloatingLiteral && !(n->macro && cp_macro_root(n)))
    return NULL;
  CXEvalResult r = clang_Cursor_Evaluate(n->cur);
  if (!r)
    return NULL;
  const char *t = NULL;
  if (clang_EvalResult_getKind(r) == CXEval_Float) {
    double d = clang_EvalResult_getAsDouble(r);
    if (fabs(d) <= FLT_MAX && (double)(float)d == d) {
      const char *src = cp_src(c, n);
      t = !n->macro && lit->kind == CXCursor_FloatingLiteral && !strpbrk(src, "fFlL_")
              ? cp_arena_printf(c->run->r->arena, "%sf", src)
              : cp_arena_printf(c->run->r->arena, "(float)(%s)", src);
    }
  }
  clang_EvalResult_dispose(r);
  return t;
}

cp_val *cp_composite_val(cp_rw *c, const char *text) {
  cp_val *v = cp_new_val(c, text, CP_V_COMPOSITE, 1);
  v->changed = 1;
  v->rule = CP_RULE_DOUBLE_ARITH;
  return v;
}

/* An operand of double arithmetic as composite arithmetic takes it, exactly (see above):
 * parentheses and conversions to double are looked through to the value they convert.
 * NULL where it is none of these (the arithmetic then stays double). */
const cp_val *cp_double_operand(cp_rw *c, const cp_node *k) {
  const char *text = c->f->unit->opt.input_text;
  cp_arena *a = c->run->r->arena;
  const cp_node *s = k;
  while (!s->val->cpx && s->nkids > 0 && cp_is_double(cp_node_type(text, s)) &&
         (s->kind == CXCursor_ParenExpr || s->kind == CXCursor_UnexposedExpr ||
          s->kind == CXCursor_CStyleCastExpr || s->kind == CXCursor_CXXStaticCastExpr ||
          s->kind == CXCursor_CXXFunctionalCastExpr) &&
         !exact_float_constant(c, s))
    s = s->kids[s->nkids - 1];
  if (s->val->cpx)
    return cp_composite_val(c, s->val->cpx);
  CXType t = clang_getCanonicalType(cp_node_type(text, s));
  const cp_val *v = cp_rvalue(c, s->val);
  cp_val *o;
  if (cp_is_double(t)) {
    const char *f = exact_float_constant(c, s);
    if (f)
      return cp_new_val(c, f, CP_V_PLAIN, 1);
    if (v->kind == CP_V_PLAIN && v->from == CP_FROM_DOUBLE)
      return v; /* an accumulator carried in double */
    o = cp_new_val(c, v->text, CP_V_PLAIN, 1);
    o->from = CP_FROM_DOUBLE;
    o->src = v->text;
    return o;
  }
  if (cp_type_width(t, 0) == 1)
    return v; /* a float: plain, composite, paired, or the split of a double */
  if (t.kind == CXType_UInt)
    return cp_composite_val(c, cp_arena_printf(a, "cp_from_uint(%s)", v->text));
  if (t.kind < CXType_Bool || t.kind > CXType_Int128)
    return NULL;
  o = cp_new_val(c, v->text, CP_V_PLAIN, 1);
  if (t.kind == CXType_ULong || t.kind == CXType_ULongLong || t.kind == CXType_Long ||
      t.kind == CXType_LongLong || t.kind == CXType_UInt128 || t.kind == CXType_Int128) {
    o->from = CP_FROM_DOUBLE; /* through double, exact up to 2^53 */
    o->src = cp_arena_printf(a, "(double)(%s)", v->text);
  } else if (!(s->kind == CXCursor_IntegerLiteral && cp_int_literal_fits(cp_src(c, s)))) {
    o->from = CP_FROM_INT;
    o->src = v->text;
  }
  return o;
}

/* A double value held as the composite `x`: its text is the double, cp_to_double(x). */
cp_val *cp_double_of(cp_rw *c, const char *x) {
  cp_val *v = cp_made(c, cp_arena_printf(c->run->r->arena, "cp_to_double(%s)", x), CP_V_OTHER, 0,
                      CP_RULE_DOUBLE_ARITH);
  v->cpx = x;
  return v;
}

/* A float made from a double (`(float)d`) read back as a double: the split of d, whose
 * double value is d to 2^-48; d is read instead of d rounded to a float. NULL for any
 * other value. */
cp_val *cp_double_of_split(cp_rw *c, const cp_val *k) {
  if (!cp_is_split(c, k))
    return NULL;
  return cp_made(c, cp_arena_printf(c->run->r->arena, "(%s)", k->src), CP_V_OTHER, 0,
                 CP_RULE_CONVERT);
}

/* a OP b of type double: cp_OP of the operands as double_operand gives them. */
cp_val *cp_double_arith(cp_rw *c, cp_node *n, const char *name) {
  const cp_val *a = cp_double_operand(c, n->kids[0]), *b = cp_double_operand(c, n->kids[1]);
  if (!a || !b)
    return cp_pass(c, n);
  return cp_double_of(c, cp_arith(c, name, a, b));
}

/* lhs op= rhs into a double lvalue: lhs = cp_to_double(cp_OP(lhs, rhs)), lhs written twice
 * (so it may have no side effects). */
cp_val *cp_double_compound(cp_rw *c, const cp_node *n, const cp_node *lhs,
                           const cp_node *rhs, const char *name) {
  const cp_val *a = cp_double_operand(c, lhs), *b = cp_double_operand(c, rhs);
  if (!a || !b)
    return cp_pass(c, n);
  if (cp_side_effect(c, lhs)) {
    cp_rule_error(c, n, CP_RULE_UNSUPPORTED_USE,
                  "compound assignment to a double whose address has side effects (converted "
                  "as lhs = lhs op rhs); compute the element's index first");
    return cp_pass(c, n);
  }
  const char *t = cp_arena_printf(c->run->r->arena, "%s = cp_to_double(%s)", lhs->val->text,
                                  cp_arith(c, name, a, b));
  if (cp_used_as_value(c, n))
    t = cp_arena_printf(c->run->r->arena, "(%s)", t);
  return cp_made(c, t, CP_V_OTHER, 0, CP_RULE_DOUBLE_ARITH);
}

/* A comparison whose operands are floats, composites or constants: NULL where it stays. */
cp_val *cp_compare_of(cp_rw *c, const char *cmp, const cp_val *a, const cp_val *b) {
  /* cp_double has pair-scalar comparisons only */
  int cf = cp_passes_as_float(b), fc = !cf && !c->f->dbl && cp_passes_as_float(a);
  return cp_made(c, cp_arena_printf(c->run->r->arena, "%s%s%s(%s, %s)", c->f->prec->fn, cmp,
                                    cf ? c->f->prec->cf : fc ? c->f->prec->fc : "",
                                    fc ? a->text : cp_promote(c, a),
                                    cf ? b->text : cp_promote(c, b)),
                 CP_V_OTHER, 0, CP_RULE_COMPARE);
}

/* An operand that is safe to evaluate whatever the other side of && or || said: a
 * variable, a field of a struct value (not through a pointer), a constant, their casts,
 * signs and float arithmetic. Not an element (its index may be what the other side checks),
 * a dereference, a call, a volatile variable or integer arithmetic (which may overflow). */
static int plain_operand(cp_rw *c, const cp_node *n) {
  char op[4];
  n = cp_node_strip(n);
  switch (n->kind) {
  case CXCursor_DeclRefExpr: /* a volatile read would happen where it did not */
    return !clang_isVolatileQualifiedType(clang_getCursorType(n->cur));
  case CXCursor_IntegerLiteral:
  case CXCursor_FloatingLiteral:
    return 1;
  case CXCursor_CStyleCastExpr:
    return n->nkids && plain_operand(c, n->kids[n->nkids - 1]);
  case CXCursor_UnaryOperator:
    cp_node_operator(c->f->unit->opt.input_text, n, op);
    return n->nkids == 1 && (strcmp(op, "-") == 0 || strcmp(op, "+") == 0) &&
           plain_operand(c, n->kids[0]);
  case CXCursor_BinaryOperator: /* float arithmetic has no undefined case */
    cp_node_operator(c->f->unit->opt.input_text, n, op);
    return n->nkids == 2 && strchr("+-*/", op[0]) && !op[1] &&
           (clang_getCanonicalType(clang_getCursorType(n->cur)).kind == CXType_Float ||
            clang_getCanonicalType(clang_getCursorType(n->cur)).kind == CXType_Double) &&
           plain_operand(c, n->kids[0]) && plain_operand(c, n->kids[1]);
  case CXCursor_MemberRefExpr:
    return n->nkids == 1 &&
           clang_getCanonicalType(clang_getCursorType(n->kids[0]->cur)).kind != CXType_Pointer &&
           plain_operand(c, n->kids[0]);
  default:
    return 0;
  }
}

/* Whether `n` is a comparison of plain operands; *composite: converted to a composite one. */
static int plain_comparison(cp_rw *c, const cp_node *n, int *composite) {
  char op[4];
  n = cp_node_strip(n);
  if (n->kind != CXCursor_BinaryOperator || n->nkids != 2 || n->macro ||
      !cp_compare_name(cp_node_operator(c->f->unit->opt.input_text, n, op)) ||
      !plain_operand(c, n->kids[0]) || !plain_operand(c, n->kids[1]))
    return 0;
  *composite |= n->val && n->val->changed && n->val->rule == CP_RULE_COMPARE;
  return 1;
}

/* One side of the joined comparison: a composite one is a call; a float or integer one is
 * put in parentheses (`cp_ge_cf(v, hi) & (hi != 0.0f)`), as compilers ask of a comparison
 * beside `&`. */
static const char *side(cp_rw *c, const cp_node *n) {
  const char *t = n->val ? n->val->text : cp_src(c, n);
  int call = n->val && n->val->changed && n->val->rule == CP_RULE_COMPARE;
  return call || n->kind == CXCursor_ParenExpr ? t : cp_arena_printf(c->run->r->arena, "(%s)", t);
}

/* The operators bind tighter than `&` and `|`, and && and || looser than all three, so `a <
 * b && c < d` becomes `a < b & c < d` with the same grouping wherever it stands. */
cp_val *cp_joined_compare(cp_rw *c, cp_node *n) {
  const cp_node *l = n->kids[0], *r = n->kids[1];
  int composite = 0;
  if (n->macro || l->macro || r->macro || l->begin != n->begin || r->end != n->end ||
      !plain_comparison(c, l, &composite) || !plain_comparison(c, r, &composite) || !composite)
    return NULL;
  const char *src = c->f->unit->opt.input_text;
  const char *between = cp_arena_strndup(c->run->r->arena, src + l->end, r->begin - l->end);
  char *op = strstr(between, "&&");
  if (!op)
    op = strstr(between, "||");
  if (!op)
    return NULL;
  memmove(op + 1, op + 2, strlen(op + 2) + 1); /* && -> &, || -> | */
  return cp_made(c, cp_arena_printf(c->run->r->arena, "%s%s%s", side(c, l), between, side(c, r)),
                 CP_V_OTHER, 0, CP_RULE_COMPARE);
}

/* A comparison with a double operand: on the composites; left as written where both sides
 * are floats or constants a float holds (the compiler compares those in float). */
cp_val *cp_double_compare(cp_rw *c, cp_node *n, const char *cmp) {
  const cp_val *a = cp_double_operand(c, n->kids[0]), *b = cp_double_operand(c, n->kids[1]);
  if (!a || !b || (cp_passes_as_float(a) && cp_passes_as_float(b)))
    return cp_pass(c, n);
  cp_val *v = cp_compare_of(c, cmp, a, b);
  v->rule = CP_RULE_DOUBLE_ARITH;
  c->run->r->applied[CP_RULE_COMPARE]--;
  c->run->r->applied[CP_RULE_DOUBLE_ARITH]++;
  return v;
}
