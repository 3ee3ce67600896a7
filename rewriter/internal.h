/*
 * internal.h: what the rewriter's files share and the tool never sees.
 *
 * The files form layers, a folder each, listed bottom up in README.md (each folder's README
 * orders its own files). A file calls only functions of earlier folders, or of earlier files
 * of its own folder; scripts/check_layers.py checks this, as the ctest `layers`. The
 * sections below name the file that defines what they declare.
 *
 * Invariants: node offsets are byte offsets into the main file's text (the input), with
 * `end` exclusive; a node whose text comes from a macro expansion has `macro` set, spans the
 * whole expansion, and is never edited in place: a converted expression a macro wrote is
 * printed from the AST over the macro's use (macro.c), or refused.
 */
#ifndef CPCONVERT_INTERNAL_H
#define CPCONVERT_INTERNAL_H

#include "parse.h"
#include <stdint.h>

/* The suffix that names a companion: buffer `x` pairs with `x_err`, in generated code and in
 * diagnostics (formats write "%s" CP_ERR_SUFFIX). The runtime and the tests spell it too. */
#define CP_ERR_SUFFIX "_err"

/* ---- node tree (tree.c) ----------------------------------------------------------- */

struct cp_val;

typedef struct cp_node {
  CXCursor cur;
  enum CXCursorKind kind;
  unsigned begin, end;
  int macro;
  struct cp_node *parent;
  struct cp_node **kids;
  unsigned nkids;
  struct cp_val *val; /* expr.c: the node's converted value, once computed */
  struct cp_node *too_deep; /* the root only: the first node CP_TREE_DEPTH levels down,
                             * whose children were not built (NULL: none) */
} cp_node;

/* How deep a node tree goes: the converted text of an expression holds its operands', so
 * the memory of a conversion grows with the square of an expression's depth (a sum of
 * 10 000 terms, 10 000 levels, takes 0.9 GB; 20 000 nested `?:` took 7.4 GB and 20 000
 * unary minus signs 1.9 GB); deeper than this is refused (cp_tree_refused). */
#define CP_TREE_DEPTH 12000

/* The main file's macro expansions, as [begin, end) offsets sorted by begin. */
typedef struct {
  unsigned *begin, *end;
  unsigned n;
} cp_macros;

/* The macro expansions of `file` (a unit's main file, or the header it stands for). */
void cp_macros_collect(cp_arena *a, CXTranslationUnit tu, CXFile file, cp_macros *m);
/* A cursor's spelling (a name, `operator+`), copied into the arena. */
const char *cp_cursor_spelling(cp_arena *a, CXCursor c);
/* tree.c: the parameters of a function (a function template's too, which
 * clang_Cursor_getArgument does not give: its ParmDecl children), or a call's arguments;
 * -1 and a null cursor for anything else, as clang's own. */
int cp_num_args(CXCursor c);
CXCursor cp_arg(CXCursor c, unsigned i);
/* A node tree over `root`; a node lying inside a macro expansion gets `macro` set. */
cp_node *cp_tree_build(cp_arena *a, CXCursor root, const cp_macros *m);
/* Whether a type is the base type (float, or double when `dbl`): 0 no, 1 scalar, 2..4
 * the CUDA vector type (float2/3/4, double2/3/4). */
int cp_type_width(CXType t, int dbl);
/* Same for a pointer's pointee (float *, const double4 *); 0 if not such a pointer. */
int cp_pointee_width(CXType t, int dbl);
/* The declaration a DeclRefExpr (or an implicit cast of one) names; null cursor if none. */
CXCursor cp_node_decl(const cp_node *n);
/* A file-scope `__device__`, `__constant__` or `__shared__` float symbol (scalar, floatN,
 * or array of them; not the unsized `extern __shared__` array, which every such
 * declaration shares): its element width; 0 for anything else. */
int cp_symbol_width(CXCursor c);
/* The template parameters of an instance of a function template (axpy<float, 4>) and
 * their arguments as source text (T: float, B: 4; a bool as true or false), at most
 * CP_MAX_TEMPLATE_ARGS; how many, or -1 when an argument is not a type with a name or an
 * integer (a lambda's type, a template, a pack), which cannot be written out. */
#define CP_MAX_TEMPLATE_ARGS 32
int cp_template_args(cp_arena *a, CXCursor inst, const char **names, const char **values);
/* The function a call calls (clang_getCursorReferenced), or, for a call in a template
 * whose callee clang leaves unresolved (`warpReduce<BLOCK>(s, tid)`), the one function
 * template of that name whose parameter and result types name none of its template
 * parameters and take the call's arguments (a float * is not an int *); a null cursor
 * where none or several do. */
CXCursor cp_callee(CXCursor call);
/* The functions a call in a template that clang leaves unresolved may call (the overload
 * set of its name: `f(t < 0 ? 1.0f : 2.0f)` with t a T), at most `max` of them into out[];
 * how many (0 for a resolved call). */
unsigned cp_callee_set(CXCursor call, CXCursor *out, unsigned max);
/* The type of expression n: clang's, or, where clang leaves it dependent in a template but
 * every instantiation gives it the same type, that type: an element of an array whose
 * size is a template parameter (`__shared__ float s[BLOCK]`, `s[i]`), an assignment to
 * one, arithmetic between such values, a call that cp_callee resolves. */
CXType cp_node_type(const char *text, const cp_node *n);
/* The first child of a cursor (a call's callee expression, a cast's operand); a null
 * cursor if it has none. */
CXCursor cp_first_child(CXCursor c);
/* Whether t is a reference to an object that is not const (float &, not const float &):
 * what it binds is written through it. */
int cp_writable_ref(CXType t);
/* The node with implicit casts (UnexposedExpr wrappers) and parentheses removed. */
const cp_node *cp_node_strip(const cp_node *n);
/* The spelling of a unary, binary or compound-assignment operator, read from the text
 * between its operands (libclang 16 has no call for an operator's kind, 17 on do: the
 * text serves both releases supported); inside a macro expansion, where the text says
 * nothing, or with `text` NULL (a node of a header whose text the caller does not have),
 * from the AST (libclang 17 on); "" if none. */
const char *cp_node_operator(const char *text, const cp_node *n, char buf[4]);
/* Whether this libclang tells operators apart in the AST (17 on), so that expressions
 * written by macros can be printed (macro.c). */
int cp_node_operator_from_ast(void);
/* Whether `n` assigns (x = y, x op= y, or a struct's operator= call); sets the operands
 * and the operator's spelling. */
int cp_node_assignment(const char *text, const cp_node *n, const cp_node **lhs,
                       const cp_node **rhs, char op[4]);
/* The one definition of a store, which both directions of the analysis ask
 * (analyse.c from each store to the buffer it writes, cp_find_writes from a buffer to its
 * stores): the target node `n` writes when it is an assignment or compound assignment
 * (its left side; *rhs the value, op the operator) or ++/-- (its operand; *rhs NULL);
 * NULL when n stores nothing. Calls that write through a reference or pointer, and
 * atomics, are each direction's own (a call's argument is a target, not n). */
const cp_node *cp_store_target(const char *text, const cp_node *n, const cp_node **rhs,
                               char op[4]);
/* The node an lvalue or pointer expression is rooted at: the DeclRefExpr of its variable
 * (a[i], a[i].x, *p, &p, (void **)&p, p + k, p->x), or, with `fields`, the MemberRefExpr
 * of the struct field it reads (s->pos, &s.pos); NULL otherwise. Cursor kinds only, so it
 * works inside macro arguments, where offsets say nothing. */
const cp_node *cp_node_root(const cp_node *n, int fields);
/* The float or double pointer (or array) field an expression designates or indexes: the
 * MemberRefExpr of `x` in s.x[i], s->x + k, sim.atoms.r.x[i], s.pos[i].y; NULL if none. */
const cp_node *cp_field_root(const cp_node *n);

/* A call's arguments are its last `nargs` children (before them: the callee, and a
 * launch's configuration): the index of argument `i` among the children, and its node. */
unsigned cp_arg_index(const cp_node *call, int nargs, int i);
/* Whether a call is a free binary operator function written as an operator (`a + b` calling
 * `operator+(float3, float3)`): its children are a, the callee, b. */
int cp_call_is_infix(const cp_node *call);
cp_node *cp_call_arg(const cp_node *call, int nargs, int i);
/* A character of an identifier: a letter, a digit or '_'. */
int cp_ident_char(char ch);
/* Offsets in the file of a cursor's location (its name) and of its extent's ends, at the
 * expansion site where a macro wrote it. */
unsigned cp_cursor_offset(CXCursor c);
unsigned cp_extent_begin(CXCursor c);
unsigned cp_extent_end(CXCursor c);
/* The fields of the struct type `t` in declaration order, at most `max` of them into `out`;
 * how many (0 for any other type). */
unsigned cp_record_fields(CXType t, CXCursor *out, unsigned max);
/* The element of the initializer list `list` that initialises the struct's i-th field
 * (`{a, b}`); NULL past its end, or where designators (`.x = a`) say otherwise. */
const cp_node *cp_init_element(const char *text, const cp_node *list, unsigned i);

/* ---- expressions written by macros (macro.c) -------------------------------------- */

/* The text of the macro node `n` (an expression inside a macro expansion) with its
 * children's texts `kid`, printed from the AST; NULL where a child's text is NULL or n's
 * kind is not printed. */
const char *cp_macro_print(cp_arena *a, const cp_node *n, const char *const *kid);
/* The same with every child printed too: n's expansion as written out; NULL if any part
 * is not printed. */
const char *cp_macro_text(cp_arena *a, const cp_node *n);
/* Whether `n` is the outermost node of its expansion (its parent is not in one). */
int cp_macro_root(const cp_node *n);
/* Whether the outermost node `r` is its whole expansion: none of its parent's own tokens
 * (an operator, a parenthesis, a sibling) comes from the same macro, so writing r's text
 * over the macro's use keeps the parent intact. */
int cp_macro_whole(const char *text, const cp_node *r);

/* ---- a conversion run ------------------------------------------------------------- */

typedef struct cp_unit cp_unit;

/* Where a file-scope pointer or a pointer field is declared (there may be several: an
 * extern declaration in each file, a field seen by each translation unit). */
typedef struct {
  cp_unit *unit;
  CXCursor decl;
} cp_site;


typedef struct {
  const char *name;
  unsigned offset; /* of the name in the pragma, for diagnostics */
} cp_clause_name;

/* One `#pragma cp composite` and its clauses. */
typedef struct {
  unsigned offset, end; /* the pragma line */
  cp_scope scope;          /* the clause's, or --scope when the pragma names none */
  cp_accum accum;          /* the clause's, or --accumulate when the pragma names none */
  int accum_given;         /* accumulate() was written in the pragma */
  int fixed_bits;          /* accumulate(fixed(N)): N fractional bits; -1 for none given,
                              the runtime's CP_FIXED_FRAC_BITS (32 unless the build sets it) */
  cp_algo tier;            /* accuracy(low|mid|high): CP_ALGO_FAST, _MID, _ACCURATE; 0 if none */
  unsigned tier_offset;    /* of the clause, for diagnostics */
  cp_clause_name *pair, *nopair, *keep;
  unsigned n_pair, n_nopair, n_keep;
} cp_pragma;

/* What happens to one variable or parameter of a converted function. */
typedef enum {
  CP_VAR_FLOAT,     /* stays float */
  CP_VAR_COMPOSITE, /* becomes cp_float / cp_floatN */
  CP_VAR_READONLY,  /* float buffer read only: stays float, read as exact composites */
  CP_VAR_PAIRED,    /* float buffer with a `name_err` companion */
  CP_VAR_UNPAIRED,  /* float buffer written but nopair(): stores the recombined value */
  CP_VAR_OUTPTR,    /* float * parameter that receives a converted local's address */
  CP_VAR_ACCUM      /* an accumulator carried as accumulate() says: cp_fixed, cp_kahan, double */
} cp_var_role;

typedef struct cp_var_s {
  CXCursor decl;
  const char *name;
  int width; /* 1 float, 2..4 floatN */
  cp_var_role role;
  int is_param;
  int is_ref;     /* a float & parameter of a device function (function.c retypes it) */
  int bound;      /* a local bound to a float & that stays float (1), to a cp_float & or
                     cp_float * (2), to both: refused once (3) (analyse.c) */
  int group; /* pairing group of a buffer parameter (union-find index) */
  cp_accum accum; /* CP_VAR_ACCUM: how it is carried */
  const char *usr; /* file-scope pointers and fields: their identity across files */
  cp_site *sites;
  unsigned n_sites;
  int dbl;        /* a double (not float) variable or buffer */
  int is_field;   /* a pointer field of a struct (host code keeps buffers there) */
  int external;   /* named with --pair: its companion exists elsewhere, trust the user */
  int allocated;  /* host: an allocation of it was seen */
  int is_symbol;  /* a __device__/__constant__ float symbol (run->structs): NAME_err beside it */
  int is_record;  /* a struct local with float members (members.c): paired, it gets a
                     companion local NAME_err of its type holding the members' error halves */
} cp_var;

/* Every runtime name the rewriter emits, for one base type: cp_float for kernels written
 * in float, cp_double (double-double) for kernels written in double. */
typedef struct {
  const char *type;      /* cp_float, cp_double; vectors append the width */
  const char *scalar;    /* float, double */
  const char *fn;        /* prefix of operations: cp_add / cp_dd_add */
  const char *cf, *fc, *ff; /* mixed forms: pair-scalar, scalar-pair, scalar-scalar */
  const char *from_scalar, *from_int, *to_scalar; /* exact conversions, recombination */
  const char *make, *pair_vec, *store, *store_vec, *add_to;
  const char *atomic;     /* atomicAdd whose old value is not used (warp-aggregated) */
  const char *atomic_old; /* one that returns the old value (cas.c) */
  const char *hi, *lo;   /* field names of the pair */
  const char *one;       /* the literal 1 in the base type */
  const char *recombine; /* host: cp_recombine, cp_recombine_double */
} cp_prec;

extern const cp_prec cp_prec_float, cp_prec_double;

typedef struct cp_func {
  CXCursor cursor;
  const char *name;
  const char *usr;       /* identity across the run's translation units */
  cp_unit *unit;
  int is_kernel;
  int dbl;               /* written in double: converted to cp_double */
  const char *tier_fn;   /* the prefix of its arithmetic's runtime names where its accuracy
                            tier is not its output's CP_ALGO (cp_low_, cp_mid_, cp_high_),
                            else NULL: the generic names (driver/convert.c) */
  const cp_prec *prec;
  int is_host;             /* host code that launches converted kernels (host.c) */
  const cp_pragma *pragma; /* NULL when converted through --all or host code */
  cp_node *body;
  cp_var *vars;
  unsigned n_vars, cap_vars;
  unsigned *var_slots;     /* 2 * cap_vars: index + 1 of vars by clang_hashCursor(decl),
                              open addressing, so that cp_var_of takes constant time */
  int returns_width; /* width of a float return type, 0 if none */
  unsigned applied[CP_RULE_COUNT]; /* rules applied while converting it, for --stats */
  int auto_conv;           /* not annotated: converted because converted code calls it */
  const char *twin;        /* auto_conv, also called from float code: the converted copy's
                              name (NAME_cp), written after the float original; an instance:
                              its copy's name (NAME_cp_ARGS); else NULL */
  cp_edit_list *twin_edits; /* a twin's: the edits its copy is written from */
  int instance;            /* an instance of an annotated function template with a type
                              parameter: converted as a copy that is not a template, the
                              parameters written out (annotate.c finds them, function.c) */
  signed char *plain_view; /* per parameter: a struct that every launch fills with plain
                              floats (instances.c): 1 yes, 0 no, -1 not asked yet */
} cp_func;

/* One file of a run: an input with its translation unit, or a header that gets
 * companion declarations (no translation unit of its own; its text comes from one). */
struct cp_unit {
  cp_options opt; /* opt.input is its path, opt.input_text its bytes */
  cp_parse p;
  int parsed;
  cp_macros macros;
  cp_edit_list edits;
  int is_header;
  int scanned; /* a header unit: its pragmas and functions were looked for */
  int has_funcs; /* a header unit: it defines converted functions (it includes cp.cuh) */
};

/* The run's tables. There is no current unit: a stage is handed the unit it works on
 * (a function's is f->unit), and a text, a parse, a macro list or an edit list is always
 * some unit's own. */
typedef struct {
  const cp_options *settings; /* the run's settings (scope, accumulate, modes...): the
                                 first input's options, which every input shares but for
                                 its path and text (those are each unit's u->opt) */
  cp_result *r;
  cp_unit **units;
  unsigned n_units, n_inputs, cap_units;
  cp_func *funcs;
  unsigned n_funcs, cap_funcs;
  unsigned *func_slots; /* hash index of funcs by cursor: i + 1, 0 empty (cp_func_of) */
  struct cp_retyped *retyped; /* hash set of the type words retyped (function.c) */
  unsigned n_retyped, cap_retyped;
  const char *pos_text; /* the last place cp_diag_at counted lines to, in this text */
  unsigned pos_offset, pos_line, pos_col;
  cp_func structs; /* float/double pointer fields of structs and file-scope pointers */
  int *group_parent; /* union-find over buffer parameters */
  int *group_paired;
  unsigned n_groups;
  int wants_device;        /* a converted function has a branch only the device
                              compilation takes: convert again as it sees the file */
  cp_algo algo;            /* the family the outputs select (CP_ALGO): --algo/--accuracy, or
                              the fast family where a pragma asks for accuracy(low) in a
                              run whose family keeps pairs normalized (driver/convert.c) */
  struct cp_store *stores; /* scope(accumulators): plain stores that pair their buffer */
  unsigned n_stores, cap_stores; /* only if they store a composite value */
} cp_run;

/* `buffer[...] = rhs` in a function converted with scope(accumulators). */
typedef struct cp_store {
  cp_func *f;
  int group;
  const cp_node *rhs;
} cp_store;

/* ---- converted values (value.c, expr.c) --------------------------------------------- */

typedef enum {
  CP_V_OTHER,      /* not a float value (int, bool, pointer, void...) */
  CP_V_PLAIN,      /* a float / floatN value computed in float */
  CP_V_COMPOSITE,  /* a cp_float / cp_floatN value */
  CP_V_PAIRED,     /* an element of a paired buffer: `text` and its companion `twin` */
  CP_V_PAIRED_ADDR, /* &element of a paired buffer: `text` and `twin` are addresses */
  CP_V_ACCUM        /* an accumulator variable (`var` says how it is carried) */
} cp_vkind;

/* CP_FROM_FIXED: a composite read from a fixed-point accumulator (or shuffled as one);
 * `src` is the exact cp_fixed expression, which a fixed-point sum takes instead. */
typedef enum { CP_FROM_FLOAT, CP_FROM_INT, CP_FROM_DOUBLE, CP_FROM_FIXED } cp_from;

typedef struct cp_val {
  const char *text; /* the converted text */
  cp_vkind kind;
  int width;        /* 1 float, 2..4 floatN */
  cp_from from;     /* CP_V_PLAIN made by an implicit int/double -> float conversion */
  const char *src;  /* ...whose int/double operand text is this */
  const char *twin; /* CP_V_PAIRED(_ADDR): the companion element (address) */
  int changed;      /* text differs from the source */
  cp_rule rule;     /* the rule that changed it (or a changed child) */
  const struct cp_var_s *var; /* CP_V_ACCUM: the accumulator */
  int vol;          /* CP_V_COMPOSITE: an element of a volatile cp_float * (read and written
                       through cp_load_volatile, cp_store_volatile) */
  const char *cpx;  /* a double value of a function converted from float that the conversion
                       holds as a composite (rule double-arith): that composite's text; `text`
                       is then its double, cp_to_double(cpx) */
} cp_val;

typedef struct {
  cp_run *run;
  cp_func *f;
  int promote_all; /* scope(all): float arithmetic on plain values turns composite too */
} cp_rw;

/* The converted value of an expression node (memoized on the node). */
const cp_val *cp_rewrite(cp_rw *c, cp_node *n);
/* value.c: the value an lvalue `v` holds, as a read gives it: an accumulator (CP_V_ACCUM, which a
 * reference argument leaves an lvalue) read as its exact composite or double; else `v`. */
const cp_val *cp_rvalue(cp_rw *c, const cp_val *v);
/* value.c: the read of accumulator `k` (CP_V_ACCUM) that cp_rvalue gives. */
cp_val *cp_accum_read(cp_rw *c, const cp_val *k);
/* The text of `v` as a composite of width v->width, and as a plain float(N). */
const char *cp_promote(cp_rw *c, const cp_val *v);
/* Why a composite is demoted, for --profile's `drop` site there (docs/profile.md): passed to
 * a call with no composite version (`call` names it), stored into memory that is not
 * paired, or any other conversion. `at` is the operand (a call's argument, a conversion's
 * operand) or the store's target, whose variable names the site; NULL: no site. */
typedef enum { CP_DROP_CONVERT, CP_DROP_CALL, CP_DROP_STORE } cp_drop;
const char *cp_demote(cp_rw *c, const cp_val *v, const cp_node *at, cp_drop why, const char *call);
/* --profile (value.c): `value` wrapped as the `store` site of a store into the paired buffer or
 * field `target` designates (an element, or its address for an atomic); as the `var` site of
 * a value given to the composite local `v` (NULL: the one `at` is rooted at, if any).
 * `value` itself without --profile. */
const char *cp_prof_store(cp_rw *c, const cp_node *target, const char *value);
const char *cp_prof_var(cp_rw *c, const cp_node *at, const cp_var *v, const char *value);
/* value.c: why a composite stored into the float lvalue `lhs` drops its error term: stored
 * into memory (an element, a field, a symbol) or converted into a float variable. */
cp_drop cp_drop_into(const cp_node *lhs);
/* The store of a composite `value` into a paired element, both halves (cp_store, cp_store_float3);
 * `target` is the element's node (for --profile's site). */
const char *cp_store_text(cp_rw *c, const cp_node *target, const cp_val *elem, const char *value);
/* The source text of a node. */
const char *cp_src(cp_rw *c, const cp_node *n);
/* The source of `n` with changed children spliced in (over[i], when given, replaces
 * child i); `*changed` tells whether anything was. */
const char *cp_splice(cp_rw *c, const cp_node *n, const char *const *over, int *changed);
cp_val *cp_new_val(cp_rw *c, const char *text, cp_vkind kind, int width);
/* A node whose own form is unchanged (spliced text, kind by type) / changed by `rule`. */
/* value.c: the suffix of comparison operator `op` (lt, le, gt, ge, eq, ne), or NULL. */
const char *cp_compare_name(const char *op);
/* double.c: `a && b` or `a || b` of two comparisons, one of them composite, whose operands
 * are variables, fields of struct values and constants: both evaluated (`&`, `|`), so
 * that no branch separates them; NULL where that does not hold. */
cp_val *cp_joined_compare(cp_rw *c, cp_node *n);
cp_val *cp_pass(cp_rw *c, const cp_node *n);
cp_val *cp_made(cp_rw *c, const char *text, cp_vkind kind, int width, cp_rule rule);
/* cp_NAME(a, b), using the one-float-operand forms for plain operands. */
const char *cp_arith(cp_rw *c, const char *name, const cp_val *a, const cp_val *b);
const char *cp_op_fn(const cp_rw *c, const char *op);
int cp_node_width(const cp_rw *c, const cp_node *n);
int cp_is_composite(const cp_val *v);
int cp_passes_as_float(const cp_val *v);
/* value.c: whether v is `(float)d`, a float made from a double: in a converted function the
 * exact split of d. */
int cp_is_split(const cp_rw *c, const cp_val *v);
/* rules.c: the CUDA names of rules.def's CP_ATOMIC, CP_SHUFFLE and CP_GROUP_SHUFFLE rows */
int cp_atomic_sign(const char *name); /* 1 atomicAdd, -1 atomicSub, else 0 */
int cp_is_warp_shuffle(const char *name);
int cp_is_group_shuffle(const char *method);
/* double.c: `(double)(float)d` and its implicit form: the double value of the split of d,
 * or NULL. */
cp_val *cp_double_of_split(cp_rw *c, const cp_val *k);
int cp_used_as_value(cp_rw *c, const cp_node *n);
/* The first part of `n` that has an effect besides its value (an assignment, ++/--, a call
 * that is not pure), so that evaluating `n` twice could differ from once; NULL if none. */
const cp_node *cp_side_effect(cp_rw *c, const cp_node *n);
const char *cp_wsuffix(int width);
void cp_rule_error(cp_rw *c, const cp_node *n, cp_rule rule, const char *msg);
cp_val *cp_assignment(cp_rw *c, const cp_node *n, const cp_node *lhs, const cp_node *rhs,
                      const char *op);
/* Rule double-arith (double.c): whether t is double (or long double); whether double
 * arithmetic at n converts (n is of type double, in a function converted from float); an
 * operand of such arithmetic as composite arithmetic takes it, exactly (NULL where it
 * cannot); the double value held as the composite x (text cp_to_double(x), cpx x). */
int cp_is_double(CXType t);
int cp_double_rule(const cp_rw *c, const cp_node *n);
const cp_val *cp_double_operand(cp_rw *c, const cp_node *k);
cp_val *cp_double_of(cp_rw *c, const char *x);
cp_val *cp_composite_val(cp_rw *c, const char *text);
cp_val *cp_double_arith(cp_rw *c, cp_node *n, const char *name);
cp_val *cp_double_compound(cp_rw *c, const cp_node *n, const cp_node *lhs, const cp_node *rhs,
                           const char *name);
cp_val *cp_compare_of(cp_rw *c, const char *cmp, const cp_val *a, const cp_val *b);
cp_val *cp_double_compare(cp_rw *c, cp_node *n, const char *cmp);
/* call.c */
cp_val *cp_lvalue(cp_rw *c, cp_node *n);
cp_val *cp_call(cp_rw *c, cp_node *n);
/* Whether call n is sincosf, sincos or __sincosf with both pointers the addresses of
 * composite locals: it maps to the composite sincos, which takes them (call.c). */
int cp_sincos_maps(cp_rw *c, const cp_node *n);
cp_val *cp_cast(cp_rw *c, cp_node *n);
/* value.c: an integer literal's text whose value a float holds exactly (|v| <= 2^24). */
int cp_int_literal_fits(const char *literal);
/* The companion text of an expression rooted at paired buffer `root`. */
const char *cp_twin(cp_rw *c, const cp_node *n, const cp_node *root);

/* ---- the stages, in layer order (see the list above) -------------------------------- */

/* diag.c: the line and column (from 1) of a byte offset of unit u's text. */
void cp_position(cp_run *run, const cp_unit *u, unsigned offset, unsigned *line, unsigned *col);

/* diag.c: a diagnostic of rule `rule` at a byte offset of unit u's text: the message, then
 * " [rule-name]", and the rule counted once (--stats). Every refusal and warning of a rule
 * goes through it. */
void cp_rule_diag(cp_run *run, const cp_unit *u, cp_severity sev, unsigned offset, cp_rule rule,
                  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* diag.c: a diagnostic at a byte offset of unit u's text. */
void cp_diag_at(cp_run *run, const cp_unit *u, cp_severity sev, unsigned offset,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* tree.c: whether a tree built by cp_tree_build went past CP_TREE_DEPTH; if so, a located
 * error [unsupported-depth], once per place. */
int cp_tree_refused(cp_run *run, const cp_unit *u, const cp_node *root);

/* diag.c: a diagnostic at a cursor of translation unit `tu`, in whichever file it is (an
 * input or a header, editable or not). */
void cp_diag_cursor(cp_run *run, cp_severity sev, CXTranslationUnit tu, CXCursor c,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* diag.c: the name diagnostics and outputs give `file` of translation unit `tu`, in the
 * run's arena: clang's, without a leading ./, but for a header the input's PCH holds
 * (`-include md.h`), which clang names by the absolute path the PCH recorded, the name a
 * plain parse gives it (as written), so that the cache changes no name. */
const char *cp_file_name(cp_run *run, CXTranslationUnit tu, CXFile file);

/* run.c: the tables. A new, empty unit of the run. */
cp_unit *cp_unit_new(cp_run *run);
/* The unit of a file the run can edit (an input, or, with edit_headers, a header, made
 * on first use from `tu`); NULL if it cannot edit that file. */
cp_unit *cp_unit_for_file(cp_run *run, CXTranslationUnit tu, CXFile file);
/* Whether a cursor lies in unit u's file (its main file, or the header a header unit
 * stands for). */
int cp_in_unit(const cp_unit *u, CXCursor c);
/* A cursor's USR, in the run's arena. */
const char *cp_usr(cp_run *run, CXCursor c);
/* Appends a function for `fn` to the run's table, in unit u, indexed. */
cp_func *cp_func_add(cp_run *run, cp_unit *u, CXCursor fn);
/* The converted function a declaration (or call target) names; NULL if none. */
cp_func *cp_func_of(cp_run *run, CXCursor decl);
cp_var *cp_var_of(cp_func *f, CXCursor decl);
/* A new variable of `f` for `decl`, zeroed but for its decl, and indexed for cp_var_of. */
cp_var *cp_var_add(cp_run *run, cp_func *f, CXCursor decl);
/* run.c: adds an edit that is itself one application of `rule` (a declaration, a signature, a
 * host statement), counted in result->applied. Expression edits are counted where the
 * expression is rewritten (cp_made) and use cp_edit_add directly. */
void cp_apply_edit(cp_run *run, cp_edit_list *edits, size_t offset, size_t length, const char *text,
                   cp_rule rule);
/* run.c: the insertion of `text` at `offset` as cp_apply_edit, unless the list has that very
 * insertion already (a header's code reached from several inputs, a statement seen twice):
 * whether it was added. */
int cp_apply_insert_once(cp_run *run, cp_edit_list *edits, size_t offset, const char *text,
                         cp_rule rule);
/* run.c: the edit list a converted function's edits go to: its unit's, or, for a function
 * converted as a copy written after its original (a twin, an instance), the copy's own. */
cp_edit_list *cp_func_edits(cp_func *f);

/* profile.c: --profile's sites (docs/profile.md). `s` as a quoted JSON string. */
const char *cp_json_quote(cp_arena *a, const char *s);
/* profile.c: a site of kind `kind` at a byte offset of unit u's text, in `function`, naming
 * `name`, with `extra` (more JSON members, or NULL) after the common ones: the text that
 * stands for `TABLE, N` in its wrapper until cp_prof_resolve numbers it; NULL without
 * --profile. */
const char *cp_prof_site(cp_run *run, const cp_unit *u, unsigned offset, const char *function,
                         const char *kind, const char *name, const char *extra);
/* profile.c: `cp_prof(SITE, expr)` for such a site; `expr` itself without --profile. */
const char *cp_prof_value(cp_run *run, const cp_unit *u, unsigned offset, const char *function,
                          const char *kind, const char *name, const char *extra,
                          const char *expr);
/* profile.c: every site in u's edits numbered (in output order, one index per distinct
 * site) and its text made `TABLE, N`; returns the table that declares them
 * (CP_PROFILE_TABLE, lines ending in `nl`), or NULL without --profile or sites. */
const char *cp_prof_resolve(cp_run *run, cp_unit *u, const char *nl);
/* profile.c: whether edit `e` is such a table (lines.c puts no #line inside it). */
int cp_prof_is_table(const cp_edit *e);

/* annotate.c: 2 for a __global__ function, 1 for __device__, 0 otherwise. */
int cp_cuda_kind(CXCursor fn);
/* annotate.c: finds the pragmas of input u and the functions they mark (plus, with --all,
 * every kernel and the device functions converted kernels call). */
void cp_find_functions(cp_run *run, cp_unit *u);
/* helper.c: the unannotated __device__ functions of input u that converted
 * functions call (transitively), with a float parameter or result: converted too, with
 * the scope and accumulate() of their first converted caller (after cp_find_functions of
 * every unit). */
void cp_find_helpers(cp_run *run, cp_unit *u);
/* annotate.c: the host functions of input u that launch converted kernels, call
 * such host functions or use file-scope pointers and pointer fields (after every unit's
 * cp_find_functions, since a launch may be in another file than its kernel). */
void cp_find_host_functions(cp_run *run, cp_unit *u);

/* accum.c: scope(accumulators): which float locals of `f` turn composite. */
void cp_find_accumulators(cp_run *run, cp_func *f);
/* accum.c: scope(accumulators), with the pairing groups as they stand: the float locals
 * of `f` that copy a paired element as it is (xi = x[i], a __shared__ tile of it) turn
 * composite, so that every read of one element within the function gives one value;
 * whether any did (a store of one may pair another buffer). */
int cp_read_pairs_once(cp_run *run, cp_func *f);
/* accum.c: --suggest: the places of `f` (result->funcs[index]) where float loses most,
 * added to result->hotspots. */
void cp_find_hotspots(cp_run *run, cp_func *f, size_t index);
/* accum.c: accumulate(fixed|kahan|double): the scalar accumulators of `f` become
 * CP_VAR_ACCUM, carried as the clause says. */
void cp_mark_carried(cp_run *run, cp_func *f);
/* variables.c: whether a clause's names (keep, pair, nopair) hold `name`. */
int cp_names_contain(const cp_clause_name *names, unsigned n, const char *name);
/* variables.c: whether f's nopair() names the buffer v: a parameter by its name, a struct
 * field by its path from a parameter (nopair(p.epot)). */
int cp_nopair_named(cp_run *run, cp_func *f, const cp_var *v);
/* analyse.c: the role of every variable and parameter of every converted function. */
void cp_analyse(cp_run *run);
/* analyse.c: whether a converted function (not a kernel, not host code, in scope(all))
 * takes and returns composites. */
int cp_composite_signature(const cp_func *f);
/* analyse.c: whether converting `f` changes its parameters or result (so that callers
 * must change too). */
int cp_signature_changes(const cp_func *f);
/* analyse.c: whether call n of converted function f goes to its callee's float original:
 * it passes keep() locals of f (by address, or bound to a reference) to every parameter
 * that converts, and composites only to parameters that take values (recombined there). */
int cp_kept_call(cp_run *run, cp_func *f, const cp_node *n);
/* variables.c: the buffer a host pointer expression designates (&p, (void **)&p, p + k,
 * s->pos, &s.pos): a pointer variable of `f` or a pointer field; NULL if neither. By
 * cursors alone, so that it works inside macro arguments. */
cp_var *cp_host_buffer(cp_run *run, cp_func *f, const cp_node *n);
/* analyse.c: whether `call` swaps two pointers (std::swap(d_in, d_out)): a copy each way,
 * which joins their pairing groups; host.c swaps the companions too. */
int cp_pointer_swap(const cp_node *call);
/* analyse.c: the representative of pairing group g (groups joined by launches and calls). */
int cp_group_root(cp_run *run, int g);

/* variables.c: the struct field buffer (run->structs) a device expression indexes or
 * designates: s.x[i], s->x, sim.atoms.r.x[i] (cp_field_root); NULL if none. */
cp_var *cp_field_buffer(cp_run *run, const cp_node *n);
/* variables.c: the device symbol a cursor names (run->structs, by USR); NULL if none. */
cp_var *cp_symbol_of(cp_run *run, CXCursor decl);
/* analyse.c: the pointer field `field` as a buffer (run->structs); NULL if it is none. */
cp_var *cp_field_var(cp_run *run, CXCursor field);
/* analyse.c: whether field `field` gains a companion field in the converted struct (it is
 * paired and its struct has no NAME_err declared by hand): host/fields.c adds it after the
 * field's declaration, so a positional initializer list must give it a value there. */
int cp_field_gains_companion(cp_run *run, CXCursor field);
/* writes.c: the places (every one, or the first `max` when max > 0; an array from `a` in
 * `*out`) where `body` (whose text is `text`) may write through `var`, a pointer or array
 * variable or field (or a scalar one: stores into it):
 * a store into an element, ++/--, a call taking it through a pointer that is not to
 * const, a copy of the pointer that is not followed. Returns how many. */
unsigned cp_find_writes(cp_arena *a, const char *text, const cp_node *body, CXCursor var,
                        unsigned max, const cp_node ***out);
/* writes.c: the first write through parameter `i` of the function `fn`, whose definition
 * is looked up (by USR) in the run's inputs; `*visible` says whether it was found there.
 * NULL when it only reads or is not visible. */
const cp_node *cp_param_write(cp_run *run, CXCursor fn, int i, int *visible);
/* writes.c: whether the function `fn` (its definition in one of the run's inputs) reads
 * through its pointer parameter `i`: uses it other than as a plain store's target
 * (`x[i] = v`). --profile's launch sites list the paired parameters a kernel reads. */
int cp_param_reads(cp_run *run, CXCursor fn, int i);
/* writes.c: the first place where the function `fn` (its definition in one of the run's
 * inputs) writes through the pointer field `field` of any struct (param < 0), or of its
 * struct parameter number `param` (a store through another base it cannot tell apart
 * counts too); NULL if none or not visible. */
const cp_node *cp_field_write(cp_run *run, CXCursor fn, CXCursor field, int param);
/* writes.c: the first store of such a write (cp_field_write) that copies into `field`, with
 * `=`, a value read from a paired field: s.x[j] = s.x[i], directly, through a float local
 * that holds one, or through a warp shuffle of it; NULL if none. */
const cp_node *cp_field_copy(cp_run *run, CXCursor fn, CXCursor field, int param);
/* writes.c: whether the call has no effect but its result (a library function of
 * rules.def's CP_MATH or CP_PURE rows, or a function of the user's code that stores only
 * into its own locals and calls only such functions), so that evaluating it twice equals
 * evaluating it once. */
int cp_call_is_pure(const cp_node *call);

/* expr.c: the type an accumulator is declared with, and a value converted into it. */
const char *cp_accum_type(cp_accum m);
const char *cp_accum_in(cp_rw *c, const cp_var *v, const cp_val *x);
/* value.c: `fn(arg)`, a fixed-point conversion of c's function's accumulators: with the
 * fractional bits accumulate(fixed(N)) gives, its explicit form `fn_bits(arg, N)`. */
const char *cp_fixed_call(cp_rw *c, const char *fn, const char *arg);
/* host.c: companions of paired buffers in host code: declarations, allocations, copies,
 * frees, launch arguments. */
void cp_convert_host(cp_run *run, cp_func *f);
/* instances.c: whether struct parameter `i` of kernel `g` is a plain view: g only reads
 * elements through its fields, and every launch passes a local struct of the launching host
 * function that no other converted function sees, whose fields hold plain floats (a
 * received message carved into a view of the state's own struct type). g then reads those
 * fields as floats, without their companions, which the view does not have. */
int cp_plain_view_param(cp_run *run, cp_func *g, int i);
/* fields.c: companion fields next to paired pointer fields. */
void cp_convert_fields(cp_run *run);
/* symbol.c: `NAME_err` declared beside every declaration of a paired device symbol. */
void cp_convert_symbols(cp_run *run);
/* cas.c: if `f` is a float atomic add written as an atomicCAS loop on the bits of a paired
 * buffer, replaces its body with the composite atomic and returns 1; else 0. */
int cp_convert_cas_atomic(cp_run *run, cp_func *f);
/* twin.c: the template's parameters (T, N) and what an instance gives them (float, 4). */
typedef struct {
  const char *name[CP_MAX_TEMPLATE_ARGS], *value[CP_MAX_TEMPLATE_ARGS];
  unsigned n;
} cp_instance_args;
void cp_instance_args_of(cp_run *run, CXCursor inst, cp_instance_args *a);
/* Marks the helpers and annotated device functions that get a converted copy beside their
 * float original (f->twin), until nothing changes. */
void cp_find_twins(cp_run *run);
/* Writes function f's converted copy (the edits in `list`) after its original. */
void cp_emit_twin(cp_run *run, cp_func *f, cp_edit_list *list);
/* The notes on a converted template instance and on a helper converted with its callers
 * (`changed`: whether converting it edited it). */
void cp_note_instance(cp_run *run, cp_func *f);
void cp_note_helper(cp_run *run, cp_func *f, int changed);
/* function.c: edits for declarations, signatures and bodies of converted functions. */
void cp_convert_functions(cp_run *run);

/* dropped.c: after conversion: every store of a converted function into a paired buffer
 * must write its companion (else an error), and a composite value stored into float
 * storage without one (a __device__ symbol) warns that the error term is dropped. */
void cp_check_dropped(cp_run *run);

/* verify.c: after the edits are applied: each converted translation unit (with the
 * converted headers) parsed again; a clang error there is an internal error (rule verify)
 * at the input line it came from. Skipped with opt->no_verify or after errors. */
void cp_verify_outputs(cp_run *run);

/* lines.c: --line-directives: `#line N "path"` markers, added to `list` (and into the text
 * of its edits), wherever the output's lines would stop matching the input's. */
void cp_add_line_directives(cp_arena *a, cp_edit_list *list, const char *input, size_t len,
                            const char *path, const char *nl);

/* links.c: what one input shares with the others of its run, for split.c: keys (64-bit
 * hashes) of what it declares (defs: its own declarations, its own file, the user headers
 * it includes) and of what it names (refs: defs and every declaration its code refers
 * to). Two inputs whose defs and refs meet can reach each other's code in the analysis;
 * two whose keys never meet cannot (a hash collision only joins them). */
typedef struct {
  uint64_t *defs, *refs; /* malloc'd, sorted */
  size_t n_defs, n_refs;
} cp_links;

void cp_unit_links(const cp_unit *u, cp_links *out);
void cp_links_free(cp_links *l);

/* pack.c: what split.c keeps of an input converted alone (its compact result `r`, its
 * links `l`; neither when !fits: the input does not fit a split run) as a malloc'd byte
 * string, for a caller's other process (cp_options.spread), and back: the result in arena
 * `a` (its input's path and text `opt`'s), the links malloc'd. cp_unpack_part returns 1,
 * 0 when the input did not fit, -1 when the bytes are not such a string. */
char *cp_pack_part(int fits, const cp_result *r, const cp_links *l, size_t *len);
int cp_unpack_part(cp_arena *a, const char *s, size_t len, const cp_options *opt,
                   cp_result **out, cp_links *l);

/* convert.c: one run over every input together (the tables hold all their translation
 * units); with `links`, each input's links (cp_unit_links) before its unit is closed. */
cp_result *cp_convert_joint(const cp_options *opts, int n, cp_links *links);
/* convert.c: whether a path names a header (by its extension, as nvcc and make tell them
 * apart). */
int cp_is_header_path(const char *path);

#endif
