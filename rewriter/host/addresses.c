/*
 * addresses.c: arrays of the addresses of device pointers.
 *
 * A common C idiom allocates a struct's device buffers through an array of their
 * addresses, `float **fields[3] = {&p.px, &p.py, &p.m};` then `for (f = 0; f < 3; ++f)
 * cudaMalloc((void **)fields[f], bytes);`. Where an element is paired, a companion array
 * is declared after it, with the companions' addresses and nullptr for the elements that
 * are not paired (`float **fields_err[3] = {&p.px_err, &p.py_err, nullptr};`), and each
 * allocation or free through the array is followed by the same for the companion where
 * there is one (`if (fields_err[f]) { cudaMalloc((void **)fields_err[f], bytes);
 * cudaMemset(*fields_err[f], 0, bytes); }`). Any other call through such an array (a copy,
 * a memset) is refused, located: it would move values without their errors.
 *
 * Arrays of device pointers themselves, `float *bufs[6]` or `float4 *dPos[2]` (local or at
 * file scope), are buffers of the analysis (analyse/variables.c): one buffer for all the
 * elements, paired as a whole when a converted kernel writes through any element. Its
 * companion is an array of the same shape (`float *bufs_err[6] = {};`, host.c and fields.c
 * declare it with cp_host_array_decl), and everything host.c does for a paired pointer it
 * does for an element, with the element's index written again (`cudaMalloc(&bufs_err[i],
 * ...)`, `dPos_err[1 - cur]` after `dPos[1 - cur]` in a launch): host.c refuses an index
 * with side effects. Elements that reach no paired pointer get a companion too, which costs
 * memory and nothing else.
 */
#include <string.h>

#include "state.h"

/* The addresses `list` holds: the buffer of each `&x` element (NULL for anything else);
 * how many of them are paired. */
static int paired_elements(host *h, const cp_node *list, cp_var **out, unsigned max) {
  int paired = 0;
  for (unsigned i = 0; i < list->nkids && i < max; i++) {
    const cp_node *e = cp_node_strip(list->kids[i]);
    char op[4];
    out[i] = e->kind == CXCursor_UnaryOperator && e->nkids == 1 &&
                     strcmp(cp_node_operator(text(h), e, op), "&") == 0
                 ? cp_host_root(h, e->kids[0])
                 : NULL;
    paired += is_paired(out[i]);
  }
  return paired;
}

/* The initializer list of a local array of pointers to pointers (`float **a[N] = {...}`),
 * or NULL. */
static const cp_node *address_list(const cp_node *decl) {
  CXType t = clang_getCanonicalType(clang_getCursorType(decl->cur));
  if (t.kind != CXType_ConstantArray || decl->nkids == 0)
    return NULL;
  CXType e = clang_getCanonicalType(clang_getArrayElementType(t));
  if (e.kind != CXType_Pointer ||
      clang_getCanonicalType(clang_getPointeeType(e)).kind != CXType_Pointer)
    return NULL;
  const cp_node *l = decl->kids[decl->nkids - 1];
  return l->kind == CXCursor_InitListExpr ? l : NULL;
}

enum { MAX_ADDRESSES = 64 };

/* `float **fields[3] = {&p.px, &p.py, &p.m};` with a paired element: the companion array. */
static void declare(host *h, const cp_node *decl) {
  const cp_node *list = address_list(decl), *s = cp_host_statement_of(decl);
  cp_var *el[MAX_ADDRESSES];
  if (!list || !s || decl->macro || !paired_elements(h, list, el, MAX_ADDRESSES))
    return;
  const char *name = spelling_of(h, decl->cur), *out = "";
  unsigned at = s->begin, end = cp_host_statement_end(h, s);
  for (unsigned i = 0; i < list->nkids && i < MAX_ADDRESSES; i++) {
    const cp_node *e = list->kids[i];
    const char *elem = cp_arena_strndup(arena(h), text(h) + e->begin, e->end - e->begin);
    out = cp_arena_printf(arena(h), "%s%.*s%s", out, (int)(e->begin - at), text(h) + at,
                          is_paired(el[i]) ? to_companion(h, elem, el[i]->name) : "nullptr");
    at = e->end;
  }
  out = cp_arena_printf(arena(h), "%s%.*s", out, (int)(end - at), text(h) + at);
  cp_host_insert_after(h, s, cp_host_replace_word(h, out, name, err_of(h, name)),
                       CP_RULE_HOST_PAIR);
}

/* The array variable that `arr[k]` names, through casts, `&` and `*`; a null cursor for
 * anything else. */
static CXCursor element_array(const cp_node *n) {
  n = cp_node_strip(n);
  while ((n->kind == CXCursor_CStyleCastExpr || n->kind == CXCursor_UnaryOperator) && n->nkids)
    n = cp_node_strip(n->kids[n->nkids - 1]);
  const cp_node *base = n->kind == CXCursor_ArraySubscriptExpr && n->nkids == 2
                            ? cp_node_strip(n->kids[0]) : NULL;
  return base && base->kind == CXCursor_DeclRefExpr ? clang_getCursorReferenced(base->cur)
                                                    : clang_getNullCursor();
}

/* The array of addresses an argument reaches through (`fields[f]`, `(void **)fields[f]`,
 * `*fields[f]`), with a paired element; its declaration's list in *list. */
static CXCursor array_of(host *h, const cp_node *arg, const cp_node **list, cp_var **el) {
  CXCursor arr = element_array(arg);
  const cp_node *decl = clang_Cursor_isNull(arr) ? NULL : cp_host_decl_of(h->f->body, arr);
  for (unsigned i = 0; decl && i < decl->nkids; i++)
    if (clang_equalCursors(decl->kids[i]->cur, arr) &&
        (*list = address_list(decl->kids[i])) &&
        paired_elements(h, *list, el, MAX_ADDRESSES))
      return arr;
  return clang_getNullCursor();
}

/* ---- arrays of device pointers ---- */

int cp_host_pointer_array(CXCursor var) {
  CXType t = clang_getCanonicalType(clang_getCursorType(var));
  if (t.kind != CXType_ConstantArray)
    return 0;
  CXType e = clang_getCanonicalType(clang_getArrayElementType(t));
  return e.kind == CXType_Pointer &&
         clang_getCanonicalType(clang_getPointeeType(e)).kind != CXType_Pointer;
}

const char *cp_host_array_decl(host *h, CXCursor var, const char *init) {
  CXType t = clang_getCursorType(var);
  CXString e = clang_getTypeSpelling(clang_getArrayElementType(t));
  const char *type = clang_getCString(e);
  size_t n = strlen(type);
  const char *decl = cp_arena_printf(arena(h), "%s%s%s[%lld]%s%s;", type,
                                     n && type[n - 1] == '*' ? "" : " ",
                                     err_of(h, spelling_of(h, var)), clang_getArraySize(t),
                                     init ? " = " : "", init ? init : "");
  clang_disposeString(e);
  return decl;
}

int cp_host_address_call(host *h, cp_node *call, const char *name) {
  if (call->kind == CXCursor_VarDecl) {
    declare(h, call);
    return 0;
  }
  int nargs = cp_num_args(call->cur);
  const cp_node *list = NULL;
  cp_var *el[MAX_ADDRESSES];
  CXCursor arr = nargs > 0 ? array_of(h, cp_call_arg(call, nargs, 0), &list, el)
                           : clang_getNullCursor();
  if (clang_Cursor_isNull(arr))
    return 0;
  const char *a = spelling_of(h, arr), *err = err_of(h, a);
  int alloc = strcmp(name, "cudaMalloc") == 0 || strcmp(name, "cudaMallocManaged") == 0;
  call_text ct;
  const cp_node *s = cp_host_statement_for(h, call, name, &ct);
  if (!s)
    return 1;
  if (!alloc && strcmp(name, "cudaFree") != 0) {
    cp_host_error(h, call, "'%s' reaches paired buffers through the array '%s', which cpconvert "
                  "follows only in cudaMalloc and cudaFree: write this call for each buffer",
                  name, a);
    return 1;
  }
  for (unsigned i = 0; alloc && list && i < list->nkids && i < MAX_ADDRESSES; i++)
    if (is_paired(el[i]))
      el[i]->allocated = 1;
  const char *stmt = cp_host_replace_word(h, cp_host_statement_text(h, s), a, err);
  const char *index = cp_host_trim(h, ct.arg[0], strlen(ct.arg[0]));
  const char *sub = strchr(index, '[');
  const char *at = sub ? cp_arena_printf(arena(h), "%s%s", err, sub) : err;
  const char *zero = alloc && ct.nargs >= 2
                         ? cp_arena_printf(arena(h), " cudaMemset(*%s, 0, %s);", at, ct.arg[1])
                         : "";
  cp_host_insert_after(h, s, cp_arena_printf(arena(h), "if (%s) { %s%s }", at, stmt, zero),
                       CP_RULE_HOST_PAIR);
  return 1;
}
