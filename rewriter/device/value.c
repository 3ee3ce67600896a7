/*
 * value.c: converted values (cp_val) and the text they are made of.
 *
 * A value is a node's converted text and what kind of value that text is (plain float,
 * composite, element of a paired buffer, or not a float at all). A node's text is its
 * source text with the texts of its changed children spliced in (cp_splice), so
 * everything the conversion does not touch keeps its bytes and layout; inside a macro
 * expansion the node is printed from the AST instead (macro.c). cp_promote() turns any
 * float value into a composite exactly, cp_demote() into a plain float (the recombined
 * value); cp_arith() writes one operation with the runtime's one-float-operand forms
 * where an operand is a plain float. Also here: the precision tables every runtime name
 * comes from, whether an expression has side effects or a used value, the names of
 * comparisons, whether a float is the split of a double, and the value a read of an
 * accumulator gives (cp_rvalue). double.c, expr.c
 * and call.c build the values of expressions from these.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const cp_prec cp_prec_float = {
    .type = "cp_float", .scalar = "float", .fn = "cp_", .cf = "_cf", .fc = "_fc", .ff = "_ff",
    .from_scalar = "cp_from_float", .from_int = "cp_from_int", .to_scalar = "cp_to_float",
    .make = "cp_make_float", .pair_vec = "cp_pair_float", .store = "cp_store",
    .store_vec = "cp_store_float", .add_to = "cp_add_to", .atomic = "cp_atomic_add_warp",
    .atomic_old = "cp_atomic_add",
    .hi = "v", .lo = "e", .one = "1.0f", .recombine = "cp_recombine"};

const cp_prec cp_prec_double = {
    .type = "cp_double", .scalar = "double", .fn = "cp_dd_", .cf = "_cd", .fc = "_dc",
    .ff = "_dd", .from_scalar = "cp_dd_from_double", .from_int = "cp_dd_from_int",
    .to_scalar = "cp_dd_to_double", .make = "cp_make_double", .pair_vec = "cp_pair_double",
    .store = "cp_dd_store", .store_vec = "cp_store_double", .add_to = "cp_dd_add_to",
    .atomic = "cp_dd_atomic_add", .atomic_old = "cp_dd_atomic_add", .hi = "hi", .lo = "lo", .one = "1.0",
    .recombine = "cp_recombine_double"};

static const char *input_text_of(cp_rw *c, const cp_node *n) {
  const char *text = c->f->unit->opt.input_text;
  return cp_arena_strndup(c->run->r->arena, text + n->begin, n->end - n->begin);
}

/* A node's source text; inside a macro expansion (below its outermost node, whose text is
 * the macro's use) the node as the expansion wrote it (macro.c). */
const char *cp_src(cp_rw *c, const cp_node *n) {
  const char *t;
  if (n->macro && !cp_macro_root(n) && (t = cp_macro_text(c->run->r->arena, n)))
    return t;
  return input_text_of(c, n);
}

/* cp_splice inside a macro expansion: the node printed with its children's texts; the
 * outermost node keeps the macro's use where nothing changed. */
static const char *splice_macro(cp_rw *c, const cp_node *n, const char *const *over, int *changed) {
  cp_arena *a = c->run->r->arena;
  const char **kid = cp_arena_alloc(a, (n->nkids + 1) * sizeof *kid);
  *changed = 0;
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *k = n->kids[i];
    kid[i] = over && over[i] ? over[i] : k->val && k->val->changed ? k->val->text : NULL;
    *changed |= kid[i] != NULL;
    if (!kid[i])
      kid[i] = cp_macro_text(a, k);
  }
  const char *t = *changed || !cp_macro_root(n) ? cp_macro_print(a, n, kid) : NULL;
  return t ? t : input_text_of(c, n);
}

cp_val *cp_new_val(cp_rw *c, const char *text, cp_vkind kind, int width) {
  cp_val *v = cp_arena_alloc(c->run->r->arena, sizeof *v);
  memset(v, 0, sizeof *v);
  v->text = text;
  v->kind = kind;
  v->width = width;
  return v;
}

int cp_node_width(const cp_rw *c, const cp_node *n) {
  return cp_type_width(cp_node_type(c->f->unit->opt.input_text, n), c->f->dbl);
}

/* "float", "float4" -> "cp_from_float", "cp_from_float4": the suffix for width w. */
const char *cp_wsuffix(int w) {
  static const char *const s[] = {"", "", "2", "3", "4"};
  return w >= 0 && w <= 4 ? s[w] : "";
}

const char *cp_promote(cp_rw *c, const cp_val *v) {
  cp_arena *a = c->run->r->arena;
  const cp_prec *P = c->f->prec;
  switch (v->kind) {
  case CP_V_COMPOSITE:
    return v->text;
  case CP_V_PAIRED:
    if (v->width > 1)
      return cp_arena_printf(a, "%s%d(%s, %s)", P->pair_vec, v->width, v->text, v->twin);
    return cp_arena_printf(a, "%s(%s, %s)", P->make, v->text, v->twin);
  case CP_V_PLAIN:
    if (v->from == CP_FROM_INT)
      return cp_arena_printf(a, "%s(%s)", P->from_int, v->src);
    if (v->from == CP_FROM_DOUBLE)
      return cp_arena_printf(a, "%s(%s)", c->f->dbl ? P->from_scalar : "cp_from_double", v->src);
    return cp_arena_printf(a, "%s%s(%s)", P->from_scalar, cp_wsuffix(v->width), v->text);
  default:
    return v->text;
  }
}

/* --profile: the name a site gives the place `n` designates: a paired field as written
 * (s.x, p->pos), else its variable; "" if none. */
static const char *site_name(cp_rw *c, const cp_node *n) {
  const cp_node *s = cp_node_strip(n);
  if (s->kind != CXCursor_DeclRefExpr && s->kind != CXCursor_MemberRefExpr &&
      s->kind != CXCursor_ArraySubscriptExpr && s->kind != CXCursor_UnaryOperator)
    return ""; /* a value computed there, not a variable's */
  const cp_node *r = cp_field_root(n);
  if (r)
    return cp_src(c, r);
  r = cp_node_root(n, 0);
  return r ? cp_cursor_spelling(c->run->r->arena, clang_getCursorReferenced(r->cur)) : "";
}

static const char *prof_wrap(cp_rw *c, const cp_node *at, const char *kind, const char *name,
                             const char *extra, const char *value) {
  if (!at || !c->run->settings->profile)
    return value;
  return cp_prof_value(c->run, c->f->unit, at->begin, c->f->name, kind, name, extra, value);
}

const char *cp_prof_store(cp_rw *c, const cp_node *target, const char *value) {
  return prof_wrap(c, target, "store", target ? site_name(c, target) : "", NULL, value);
}

const char *cp_prof_var(cp_rw *c, const cp_node *at, const cp_var *v, const char *value) {
  const cp_node *root = !v && at ? cp_node_root(at, 0) : NULL;
  if (root) /* a composite local, its member or element; not `*out = x` through a pointer */
    v = cp_var_of(c->f, clang_getCursorReferenced(root->cur));
  return v && v->role == CP_VAR_COMPOSITE ? prof_wrap(c, at, "var", v->name, NULL, value) : value;
}

cp_drop cp_drop_into(const cp_node *lhs) {
  const cp_node *s = cp_node_strip(lhs);
  if (s->kind != CXCursor_DeclRefExpr)
    return CP_DROP_STORE;
  enum CXCursorKind scope =
      clang_getCursorKind(clang_getCursorSemanticParent(clang_getCursorReferenced(s->cur)));
  return scope == CXCursor_TranslationUnit || scope == CXCursor_Namespace
             ? CP_DROP_STORE /* a file-scope symbol */
             : CP_DROP_CONVERT;
}

const char *cp_store_text(cp_rw *c, const cp_node *target, const cp_val *elem, const char *value) {
  const cp_prec *P = c->f->prec;
  return cp_arena_printf(c->run->r->arena, "%s%s(&%s, &%s, %s)",
                         elem->width > 1 ? P->store_vec : P->store, cp_wsuffix(elem->width),
                         elem->text, elem->twin, cp_prof_store(c, target, value));
}

/* The `drop` site's own members: why, and the call for a call. */
static const char *drop_members(cp_rw *c, cp_drop why, const char *call) {
  static const char *const whys[] = {"convert", "call", "store"};
  cp_arena *a = c->run->r->arena;
  const char *t = cp_arena_printf(a, "\"why\":\"%s\"", whys[why]);
  return why == CP_DROP_CALL ? cp_arena_printf(a, "%s,\"call\":%s", t,
                                               cp_json_quote(a, call ? call : ""))
                             : t;
}

const char *cp_demote(cp_rw *c, const cp_val *v, const cp_node *at, cp_drop why, const char *call) {
  cp_arena *a = c->run->r->arena;
  const char *to = c->f->prec->to_scalar;
  if (v->kind != CP_V_COMPOSITE && v->kind != CP_V_PAIRED)
    return v->text;
  const char *x = v->kind == CP_V_PAIRED ? cp_promote(c, v) : v->text;
  if (at && c->run->settings->profile)
    x = prof_wrap(c, at, "drop", site_name(c, at), drop_members(c, why, call), x);
  return cp_arena_printf(a, "%s%s(%s)", to, cp_wsuffix(v->width), x);
}

/* True when the operand can be passed as a plain float without losing anything: a float
 * value, or an int/double literal that a float holds exactly. */
int cp_passes_as_float(const cp_val *v) {
  return v->kind == CP_V_PLAIN && v->from == CP_FROM_FLOAT;
}

int cp_is_composite(const cp_val *v) {
  return v->kind == CP_V_COMPOSITE || v->kind == CP_V_PAIRED;
}

/* Whether v is a float made from a double (`(float)d`, the text rounds): in a converted
 * function such a float is a composite, the exact split of d (cp_promote gives
 * cp_from_double(d)), wherever its error term can go on (an operand, a shuffle, a
 * conditional's branch). */
int cp_is_split(const cp_rw *c, const cp_val *v) {
  return !c->f->dbl && v->kind == CP_V_PLAIN && v->from == CP_FROM_DOUBLE && v->width == 1 &&
         v->src && strcmp(v->text, v->src) != 0;
}

/* The source text of `n` with each changed child's text spliced in; `over[i]`, where
 * `over` and it are not NULL, replaces the text of child i. */
const char *cp_splice(cp_rw *c, const cp_node *n, const char *const *over, int *changed) {
  if (n->macro)
    return splice_macro(c, n, over, changed);
  const char *text = c->f->unit->opt.input_text;
  size_t len = 0, cap = n->end - n->begin + 1;
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *k = n->kids[i];
    const char *kt = over && over[i] ? over[i] : k->val && k->val->changed ? k->val->text : NULL;
    if (kt)
      cap += strlen(kt);
  }
  char *out = cp_arena_alloc(c->run->r->arena, cap);
  unsigned pos = n->begin;
  *changed = 0;
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *k = n->kids[i];
    const char *kt = over && over[i] ? over[i] : k->val && k->val->changed ? k->val->text : NULL;
    if (!kt || k->begin < pos || k->end > n->end)
      continue;
    memcpy(out + len, text + pos, k->begin - pos);
    len += k->begin - pos;
    memcpy(out + len, kt, strlen(kt));
    len += strlen(kt);
    pos = k->end;
    *changed = 1;
  }
  memcpy(out + len, text + pos, n->end - pos);
  len += n->end - pos;
  out[len] = '\0';
  return out;
}

/* A node's value when its own form does not change: the spliced text, kind by type. */
cp_val *cp_pass(cp_rw *c, const cp_node *n) {
  int changed;
  const char *t = cp_splice(c, n, NULL, &changed);
  int w = cp_node_width(c, n);
  cp_val *v = cp_new_val(c, t, w ? CP_V_PLAIN : CP_V_OTHER, w);
  v->changed = changed;
  for (unsigned i = 0; i < n->nkids; i++)
    if (n->kids[i]->val && n->kids[i]->val->changed) {
      v->rule = n->kids[i]->val->rule;
      break;
    }
  return v;
}

/* A node whose own form changed. */
cp_val *cp_made(cp_rw *c, const char *text, cp_vkind kind, int width, cp_rule rule) {
  cp_val *v = cp_new_val(c, text, kind, width);
  v->changed = 1;
  v->rule = rule;
  c->run->r->applied[rule]++;
  return v;
}

/* The prefix of the runtime name of operation `op` in the function being converted: its
 * accuracy tier's (cp_low_add) where the tier has the operation and differs from the
 * output's family, else the precision's generic one (cp_add, cp_dd_add). */
const char *cp_op_fn(const cp_rw *c, const char *op) {
  static const char *const tiered[] = {"add", "sub", "mul", "div", "sqr", "sqrt", "rsqrt", "rcp", "fma",
                                       "exp", "log",
                                       "exp2", "exp10", "expm1", "log2", "log10", "log1p", "pow",
                                       "sinh", "cosh", "tanh", "erf", "erfc", "cbrt",
                                       "hypot", "rhypot", "norm3d", "rnorm3d",
                                       "sin", "cos", "sincos", "tan", "sinpi", "cospi", "asin",
                                       "acos", "atan", "atan2"};
  for (unsigned i = 0; c->f->tier_fn && i < sizeof tiered / sizeof *tiered; i++)
    if (strcmp(op, tiered[i]) == 0)
      return c->f->tier_fn;
  return c->f->prec->fn;
}

/* The suffix of comparison operator `op` (lt, le, gt, ge, eq, ne), or NULL. */
const char *cp_compare_name(const char *op) {
  static const char *const ops[][2] = {{"<", "lt"}, {"<=", "le"}, {">", "gt"},
                                       {">=", "ge"}, {"==", "eq"}, {"!=", "ne"}};
  for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(op, ops[i][0]) == 0)
      return ops[i][1];
  return NULL;
}

/* Whether an integer literal's value is one a float holds exactly (|v| <= 2^24). */
int cp_int_literal_fits(const char *lit) {
  char *end;
  unsigned long long v = strtoull(lit, &end, 0);
  return v <= (1ull << 24);
}

/* ---- reading an accumulator of accumulate(fixed|kahan|double) -------------------- */

const char *cp_fixed_call(cp_rw *c, const char *fn, const char *arg) {
  int bits = c->f->pragma ? c->f->pragma->fixed_bits : -1;
  if (bits < 0)
    return cp_arena_printf(c->run->r->arena, "%s(%s)", fn, arg);
  return cp_arena_printf(c->run->r->arena, "%s_bits(%s, %d)", fn, arg, bits);
}

/* Reading an accumulator: an exact composite (fixed, Kahan) or an exact double. */
cp_val *cp_accum_read(cp_rw *c, const cp_val *k) {
  const char *name = k->text;
  if (k->var->accum == CP_ACC_DOUBLE) {
    cp_val *v = cp_new_val(c, name, CP_V_PLAIN, 1);
    v->from = CP_FROM_DOUBLE;
    v->src = name;
    return v;
  }
  cp_val *v = cp_made(c, k->var->accum == CP_ACC_FIXED
                             ? cp_fixed_call(c, "cp_fixed_to_cp", name)
                             : cp_arena_printf(c->run->r->arena, "cp_kahan_to_cp(%s)", name),
                      CP_V_COMPOSITE, 1, CP_RULE_ACCUMULATE);
  if (k->var->accum == CP_ACC_FIXED) { /* summed back as the integer: exact (no 2^-48) */
    v->from = CP_FROM_FIXED;
    v->src = name;
  }
  return v;
}

const cp_val *cp_rvalue(cp_rw *c, const cp_val *v) {
  return v && v->kind == CP_V_ACCUM ? cp_accum_read(c, v) : v;
}

/* The value of `text` if it is one numeric literal (decimal, octal or hexadecimal integer,
 * decimal or hexadecimal floating, optional minus sign and suffixes) equal to +-2^k with
 * 2^k and 2^-k normal numbers of the scalar type; 0 otherwise. */
static double pow2_literal(const char *text, int dbl) {
  char buf[64];
  size_t n = strlen(text);
  if (n == 0 || n >= sizeof buf)
    return 0;
  memcpy(buf, text, n + 1);
  const char *s = buf[0] == '-' ? buf + 1 : buf;
  int hex_int = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !strpbrk(s, "pP");
  while (n && strchr(hex_int ? "uUlL" : "fFlLuU", buf[n - 1]))
    buf[--n] = 0;
  if (!isdigit((unsigned char)s[0]) && s[0] != '.')
    return 0;
  if (s[0] == '0' && isdigit((unsigned char)s[1]) && !strpbrk(s, ".eE"))
    return 0; /* an octal integer: strtod would read it as decimal */
  char *end;
  double v = strtod(buf, &end);
  int e;
  if (*end || !isfinite(v) || v == 0 || fabs(frexp(v, &e)) != 0.5)
    return 0;
  int lim = dbl ? 1022 : 126; /* |e - 1| is the exponent of |v| */
  return e - 1 <= lim && e - 1 >= -lim ? v : 0;
}

/* The shortest decimal literal of the scalar type that reads back as v exactly. */
static const char *scalar_literal(cp_arena *ar, double v, int dbl) {
  char buf[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  int plain = !strpbrk(buf, ".eEn");
  return cp_arena_printf(ar, "%s%s%s", buf, plain ? ".0" : "", dbl ? "" : "f");
}

/* A product with, or a quotient by, a power-of-two literal: both halves scaled, exact
 * (cp_mul_pow2); a power-of-two literal divided by a composite: its reciprocal (cp_rcp, one
 * division where cp_div_fc takes two), scaled. NULL when none of these. */
static const char *pow2_arith(cp_rw *c, const char *name, const cp_val *a, const cp_val *b) {
  const cp_prec *P = c->f->prec;
  cp_arena *ar = c->run->r->arena;
  int dbl = P == &cp_prec_double, mul = strcmp(name, "mul") == 0;
  if (!mul && strcmp(name, "div") != 0)
    return NULL;
  double n = mul || cp_is_composite(a) || !cp_is_composite(b) ? 0 : pow2_literal(a->text, dbl);
  if (n == 1)
    return cp_arena_printf(ar, "%srcp(%s)", cp_op_fn(c, "rcp"), cp_promote(c, b));
  if (n)
    return cp_arena_printf(ar, "%smul_pow2(%srcp(%s), %s)", P->fn, cp_op_fn(c, "rcp"), cp_promote(c, b), a->text);
  const cp_val *x = a, *k = b;
  double v = cp_is_composite(b) ? 0 : pow2_literal(b->text, dbl);
  if (!v && mul && !cp_is_composite(a)) {
    x = b, k = a;
    v = pow2_literal(a->text, dbl);
  }
  if (!v || !cp_is_composite(x))
    return NULL;
  const char *f = mul ? k->text : scalar_literal(ar, 1 / v, dbl);
  return cp_arena_printf(ar, "%smul_pow2(%s, %s)", P->fn, cp_promote(c, x), f);
}

/* cp_OP(a, b) with the one-float-operand forms where an operand is a plain float. An
 * int or double operand is not one: it is promoted exactly (cp_from_int, cp_from_double)
 * and counts as a composite. A product with or quotient by a power-of-two literal
 * is the exact scaling above. */
const char *cp_arith(cp_rw *c, const char *name, const cp_val *a, const cp_val *b) {
  cp_arena *ar = c->run->r->arena;
  const cp_prec *P = c->f->prec;
  const char *fn = cp_op_fn(c, name);
  const char *scaled = pow2_arith(c, name, a, b);
  if (scaled)
    return scaled;
  int fa = cp_passes_as_float(a), fb = cp_passes_as_float(b);
  if (!fa && fb)
    return cp_arena_printf(ar, "%s%s%s(%s, %s)", fn, name, P->cf, cp_promote(c, a), b->text);
  if (fa && !fb)
    return cp_arena_printf(ar, "%s%s%s(%s, %s)", fn, name, P->fc, a->text, cp_promote(c, b));
  if (fa && fb)
    return cp_arena_printf(ar, "%s%s%s(%s, %s)", fn, name, P->ff, a->text, b->text);
  return cp_arena_printf(ar, "%s%s(%s, %s)", fn, name, cp_promote(c, a), cp_promote(c, b));
}

/* The first node of `n` whose evaluation has an effect besides its value (an
 * assignment, ++/--, a call that is not pure): evaluating `n` twice could differ from
 * evaluating it once. NULL if none. */
const cp_node *cp_side_effect(cp_rw *c, const cp_node *n) {
  char op[4];
  switch (n->kind) {
  case CXCursor_CallExpr:
    if (!cp_call_is_pure(n))
      return n;
    break;
  case CXCursor_CompoundAssignOperator:
    return n;
  case CXCursor_BinaryOperator:
    if (strcmp(cp_node_operator(c->f->unit->opt.input_text, n, op), "=") == 0)
      return n;
    break;
  case CXCursor_UnaryOperator:
    cp_node_operator(c->f->unit->opt.input_text, n, op);
    if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)
      return n;
    break;
  default:
    break;
  }
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *e = cp_side_effect(c, n->kids[i]);
    if (e)
      return e;
  }
  return NULL;
}

/* Offsets of the two ';' of a for statement's header, at its own parenthesis depth. */
static void for_semicolons(const char *text, const cp_node *f, unsigned *first, unsigned *second) {
  unsigned i = f->begin, depth = 0, found = 0;
  *first = *second = f->end;
  for (; i < f->end; i++) {
    if (text[i] == '(')
      depth++;
    else if (text[i] == ')' && --depth == 0)
      return;
    else if (text[i] == ';' && depth == 1) {
      if (found++ == 0)
        *first = i;
      else {
        *second = i;
        return;
      }
    }
  }
}

/* Whether the value of `n` is used: as an operand, initializer, return value or
 * condition; not when it is a statement of its own or a for loop's init or step. */
int cp_used_as_value(cp_rw *c, const cp_node *n) {
  const cp_node *k = n, *p = n->parent;
  while (p && (p->kind == CXCursor_ParenExpr || p->kind == CXCursor_UnexposedExpr)) {
    k = p;
    p = p->parent;
  }
  if (!p)
    return 0;
  if (clang_isExpression(p->kind) || p->kind == CXCursor_VarDecl || p->kind == CXCursor_ReturnStmt)
    return 1;
  switch (p->kind) {
  case CXCursor_IfStmt:
  case CXCursor_WhileStmt:
  case CXCursor_SwitchStmt:
    return p->nkids > 0 && p->kids[0] == k;
  case CXCursor_DoStmt:
    return p->nkids > 0 && p->kids[p->nkids - 1] == k;
  case CXCursor_ForStmt: {
    unsigned first, second;
    for_semicolons(c->f->unit->opt.input_text, p, &first, &second);
    return k->begin > first && k->begin < second;
  }
  default:
    return 0;
  }
}

void cp_rule_error(cp_rw *c, const cp_node *n, cp_rule rule, const char *msg) {
  cp_rule_diag(c->run, c->f->unit, CP_ERROR, n->begin, rule, "%s", msg);
}
