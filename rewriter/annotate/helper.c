/*
 * helper.c: the unannotated helpers converted code calls.
 *
 * The pragma on __device__ helpers is optional: cp_find_helpers adds the unannotated
 * __device__ functions of the main file (or, with --o-dir, of the user's headers) that
 * converted functions call with a float interface, transitively (function.c decides
 * whether each converts in place or as a twin); an instance of a function template with a
 * type parameter converts as its copy, as an annotated template's do.
 */
#include <string.h>

#include "annotate.h"

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
    if (!cp_is_function_definition(c))
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
  pr->fixed_bits = caller->pragma->fixed_bits;
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
  if (cp_cuda_kind(inst) != 1 || cp_func_of(run, inst) || !cp_float_instance(inst) ||
      ctx->caller->unit != ctx->u || !same_view(run, ctx->u, inst))
    return;
  CXCursor fn = inst;
  cp_unit *u = helper_unit(run, ctx->u, &fn);
  if (!u)
    return;
  const char *name = cp_instance_name(run, inst);
  if (!name) {
    cp_unwritable_instance(run, ctx->u, call, inst);
    return;
  }
  cp_func *f = cp_add_func(run, u, inst, helper_pragma(run, ctx->caller));
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
  if (cp_per_instance(clang_getSpecializedCursorTemplate(inst))) {
    add_helper_instance(ctx, c, inst);
    return CXChildVisit_Recurse;
  }
  CXCursor callee = cp_callee_definition(c);
  cp_unit *u;
  if (clang_Cursor_isNull(callee) || !cp_is_function_definition(callee) ||
      cp_cuda_kind(callee) != 1 || cp_func_of(ctx->run, callee) || !has_float_interface(callee) ||
      !(u = helper_unit(ctx->run, ctx->u, &callee)))
    return CXChildVisit_Recurse;
  cp_func *f = cp_add_func(ctx->run, u, callee, NULL);
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
