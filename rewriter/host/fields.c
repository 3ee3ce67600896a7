/*
 * fields.c: companions of paired pointer fields and file-scope pointers, at their
 * declarations.
 *
 * A struct field or file-scope pointer that a converted kernel's buffer is paired with
 * gets its companion beside every declaration the run can edit (a header included by
 * several inputs gets it once); a declaration in a file the run does not write is an error
 * that says what to add there. A paired field that a converted function reaches through a
 * holder whose buffer no host code of the run allocates (paths, below) is an error too.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "state.h"

/* Whether the struct of `field` already has a field called `name` (added by hand). */
static int struct_has_field(CXCursor field, const char *name) {
  CXCursor rec = clang_getCursorSemanticParent(field);
  return clang_Type_getOffsetOf(clang_getCursorType(rec), name) >= 0;
}

/* A diagnostic at a declaration site, in whichever file it is (an input or a header). */
static void site_error(cp_run *run, const cp_site *site, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void site_error(cp_run *run, const cp_site *site, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cp_diag_cursor(run, CP_ERROR, site->unit->p.tu, site->decl, "%s [%s]", msg,
                 cp_rule_name(CP_RULE_HOST_PAIR));
}

/* Whether `field` is the first field of its struct that gains a companion (the note on
 * the struct's new layout is said once). */
static int first_paired_field(cp_run *run, CXCursor field) {
  CXCursor fields[64];
  unsigned n = cp_record_fields(clang_getCursorType(clang_getCursorSemanticParent(field)),
                                fields, 64);
  for (unsigned i = 0; i < n; i++) {
    const cp_var *f = cp_field_var(run, fields[i]);
    if (f && f->role == CP_VAR_PAIRED && !f->external)
      return clang_equalCursors(fields[i], field);
  }
  return 0;
}

/* The companion declared at one site: the next line after the declaration, in its unit. */
static void declare_at_site(cp_run *run, const cp_var *v, const cp_site *site, const char *type,
                            const char *err) {
  CXFile file;
  unsigned b, end;
  CXSourceRange ext = clang_getCursorExtent(site->decl);
  clang_getExpansionLocation(clang_getRangeStart(ext), &file, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &end);
  cp_unit *u = cp_unit_for_file(run, site->unit->p.tu, file);
  const char *sep = type[strlen(type) - 1] == '*' ? "" : " ";
  int is_extern = !v->is_field && clang_Cursor_getStorageClass(site->decl) == CX_SC_Extern;
  if (!u) {
    site_error(run, site, "%s '%s' is paired, but it is declared outside the converted file: "
               "add '%s%s%s%s;' after it here, then convert again (or convert with --o-dir, "
               "which writes this file converted, or name it with --pair)", v->is_field ? "field" : "pointer",
               v->name, is_extern ? "extern " : "", type, sep, err);
    return;
  }
  host h;
  cp_host_start(&h, run, u, &run->structs);
  const char *t = text(&h);
  unsigned semi = end;
  while (semi < u->opt.input_len && t[semi] != ';')
    semi++;
  unsigned at = cp_host_line_insert_point(&h, semi < u->opt.input_len ? semi + 1 : end);
  const char *decl = cp_host_added_text(
      &h, at, b, cp_arena_printf(run->r->arena, "%s%s%s%s%s;", is_extern ? "extern " : "", type,
                                 sep, err, v->is_field || is_extern ? ""
                                           : strchr(err, '[') ? " = {}" : " = nullptr"));
  if (!cp_apply_insert_once(run, &u->edits, at, decl, CP_RULE_HOST_PAIR))
    return; /* a header seen from several inputs */
  if (u->is_header && v->is_field && first_paired_field(run, site->decl))
    cp_diag_cursor(run, CP_NOTE, site->unit->p.tu, site->decl,
                   "the struct of field '%s' gains companion fields ('%s', ...) in the "
                   "converted '%s': its sizeof and layout change, so every file that uses it, "
                   "converted or not, must be built from the converted header (one built from "
                   "the original would read the struct at other offsets) [%s]", v->name, err,
                   u->opt.input, cp_rule_name(CP_RULE_HOST_PAIR));
}

/* Whether the struct type `t` declares the field of USR `field`, or holds by value a struct
 * that does (SimGpu holding AtomsGpu holding NeighborListGpu holding vec_t lastR), to a
 * depth of 4. By USR: the call may be in another of the run's units than the field. */
static int holds_field(cp_run *run, CXType t, const char *field, int depth) {
  CXCursor fields[64];
  t = clang_getCanonicalType(t);
  unsigned n = t.kind == CXType_Record && depth < 4 ? cp_record_fields(t, fields, 64) : 0;
  for (unsigned i = 0; i < n; i++)
    if (strcmp(cp_usr(run, fields[i]), field) == 0 ||
        holds_field(run, clang_getCursorType(fields[i]), field, depth + 1))
      return 1;
  return 0;
}

/* "file:line:col" of a cursor, with the file's name as the user wrote it. */
static const char *place_of(cp_run *run, CXCursor c) {
  CXString file;
  unsigned line, col;
  clang_getPresumedLocation(clang_getCursorLocation(c), &file, &line, &col);
  const char *r = cp_arena_printf(run->r->arena, "%s:%u:%u", clang_getCString(file), line, col);
  clang_disposeString(file);
  return r;
}

/* A call in `n` (host code of the run) of a function whose body is in none of the run's
 * inputs, given a pointer to a struct that holds `field` (`initNeighborListGpu(gpu,
 * &gpu->atoms.neighborList, ...)`, defined in a file not converted): where the field's
 * buffer is most likely allocated. NULL if none. `field` is a pointer field, or (for a
 * path, below) the field that holds its struct (NeighborListGpu::lastR). */
static const cp_node *outside_allocator(cp_run *run, const cp_node *n, CXCursor field) {
  CXCursor fn = n->kind == CXCursor_CallExpr ? cp_callee(n->cur) : clang_getNullCursor();
  int nargs = clang_Cursor_isNull(fn) ? 0 : cp_num_args(n->cur);
  int visible = 1;
  if (nargs > 0 && clang_getCursorKind(fn) == CXCursor_FunctionDecl && cp_cuda_kind(fn) == 0 &&
      !clang_Location_isInSystemHeader(clang_getCursorLocation(fn)))
    cp_param_write(run, fn, 0, &visible);
  for (int i = 0; i < nargs && !visible; i++) {
    CXType t = clang_getCanonicalType(clang_getCursorType(cp_arg(n->cur, (unsigned)i)));
    for (int k = 0; k < 2 && t.kind == CXType_Pointer; k++)
      t = clang_getCanonicalType(clang_getPointeeType(t));
    if (holds_field(run, t, cp_usr(run, field), 0))
      return n;
  }
  for (unsigned i = 0; i < n->nkids; i++) {
    const cp_node *c = outside_allocator(run, n->kids[i], field);
    if (c)
      return c;
  }
  return NULL;
}

/* For the errors on a paired field no converted file allocates (for `field`, its own; for a
 * path, the field that holds its struct): where its buffer comes from, if a host function
 * of the run hands its struct to a function defined elsewhere ("'init', which 'main' calls
 * at F:L:C with the struct that holds it, declared at F:L:C"); NULL if none. */
static const char *outside_call(cp_run *run, CXCursor field) {
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    const cp_node *call = f->is_host && f->body ? outside_allocator(run, f->body, field) : NULL;
    if (!call)
      continue;
    CXCursor fn = cp_callee(call->cur);
    return cp_arena_printf(run->r->arena,
                           "'%s', which '%s' calls at %s with the struct that holds it, declared "
                           "at %s and defined in none of the files converted in this run",
                           cp_cursor_spelling(run->r->arena, fn), f->name,
                           place_of(run, call->cur), place_of(run, fn));
  }
  return NULL;
}

/* For the error on a paired field that no converted file allocates: where its buffer comes
 * from, if a host function of the run hands its struct to a function defined elsewhere. */
static const char *allocated_where(cp_run *run, CXCursor field) {
  const char *call = outside_call(run, field);
  return call ? cp_arena_printf(run->r->arena, "; its buffer most likely comes from %s: convert "
                                "the file that defines it in the same run, or", call)
              : ":";
}

/* ---- paths: a paired field reached through an instance no converted file allocates ----
 * A field pairs for its struct type, but its buffer, and its companion, belong to each
 * instance: `atoms.r.x` allocated in the run says nothing of `nbl.lastR.x`, a vec_t that
 * another struct holds and a file not in the run allocates (CoMD-CUDA's neighbour list).
 * A path is a paired field with the field that holds its struct (Nbl::lastR -> vec_t::x),
 * as a converted function reaches it through its struct parameter (`sim.nbl.lastR.x[i]`).
 * The run's host code covers a path where it allocates or assigns the field through that
 * holder (`&n->lastR.x`, `n->lastR.x = p`), and every path of the field where it does so
 * through anything else (`&v->x` in a helper handed `&n->lastR`, an initializer list of the
 * struct): a place it cannot tell apart. The whole holder used (`n->lastR = atoms.r`,
 * `&n->lastR` passed on) covers every field of the path too. A path a converted function
 * reaches that nothing covers, while the field is allocated elsewhere, is an error where
 * it is written (a warning where it is only read). */

#define MAX_PATHS 64

/* By USR: the run's translation units each have their own cursors. */
typedef struct {
  const char *rec;    /* the struct that declares the field (vec_t) */
  const char *field;  /* the field (vec_t::x); NULL: every field of rec */
  const char *holder; /* the field holding the struct (Nbl::lastR); NULL: any holder */
} path;

typedef struct {
  cp_run *run;
  path cover[MAX_PATHS];
  unsigned n;
  const char *text; /* of the function being read; NULL in a header (operators from the AST) */
  int full;         /* more covered paths than MAX_PATHS: take every path as covered */
} paths;

static CXCursor canonical(CXCursor c) {
  return clang_Cursor_isNull(c) ? c : clang_getCanonicalCursor(c);
}

/* A declaration's USR, NULL for a null cursor. */
static const char *usr_of(cp_run *run, CXCursor c) {
  return clang_Cursor_isNull(c) ? NULL : cp_usr(run, canonical(c));
}

/* Whether two declarations, of any of the run's units, are one. */
static int same(cp_run *run, CXCursor a, CXCursor b) {
  const char *x = usr_of(run, a), *y = usr_of(run, b);
  return x && y && *x && strcmp(x, y) == 0;
}

/* The struct a field is declared in. */
static CXCursor record_of(CXCursor field) {
  return canonical(clang_getCursorSemanticParent(field));
}

/* The struct type of a field that is a struct (Nbl::lastR: vec_t), else a null cursor. */
static CXCursor record_type(CXCursor field) {
  CXType t = clang_getCanonicalType(clang_getCursorType(field));
  return t.kind == CXType_Record ? canonical(clang_getTypeDeclaration(t)) : clang_getNullCursor();
}

/* The field holding the struct a member access `m` reads from (`lastR` of n->lastR.x), or a
 * null cursor where its base is no field (a variable, a parameter, `this`). */
static CXCursor holder_of(const cp_node *m) {
  const cp_node *b = m->nkids ? cp_node_strip(m->kids[0]) : NULL;
  return b && b->kind == CXCursor_MemberRefExpr ? clang_getCursorReferenced(b->cur)
                                                : clang_getNullCursor();
}

/* `n` with the parentheses and casts around it. */
static const cp_node *outer(const cp_node *n) {
  while (n->parent && (n->parent->kind == CXCursor_ParenExpr ||
                       n->parent->kind == CXCursor_UnexposedExpr ||
                       n->parent->kind == CXCursor_CStyleCastExpr))
    n = n->parent;
  return n;
}

/* Whether the member access `m` is made on a struct variable itself (`vec_t r; r.x = buf`,
 * a local, a by-value parameter or a global): an instance of its own, which no holder's
 * field is (a pointer or a reference could be one). */
static int own_instance(const cp_node *m) {
  const cp_node *b = m->nkids ? cp_node_strip(m->kids[0]) : NULL;
  if (!b || b->kind != CXCursor_DeclRefExpr)
    return 0;
  CXType t = clang_getCanonicalType(clang_getCursorType(clang_getCursorReferenced(b->cur)));
  return t.kind == CXType_Record;
}

/* Whether struct `rec` declares a paired field (one of the run's, not named with --pair). */
static int has_paired_field(cp_run *run, CXCursor rec) {
  CXCursor fields[64];
  unsigned n = clang_Cursor_isNull(rec) ? 0 : cp_record_fields(clang_getCursorType(rec), fields, 64);
  for (unsigned i = 0; i < n; i++) {
    const cp_var *v = cp_field_var(run, fields[i]);
    if (is_paired(v) && !v->external)
      return 1;
  }
  return 0;
}

static void add_cover(paths *p, CXCursor rec, CXCursor field, CXCursor holder) {
  if (p->n == MAX_PATHS) {
    p->full = 1;
    return;
  }
  p->cover[p->n++] = (path){usr_of(p->run, rec), usr_of(p->run, field), usr_of(p->run, holder)};
}

/* Whether the use `u` (a member access with its parentheses and casts) gives the field a
 * value: its address taken, or assigned. */
static int sets(paths *p, const cp_node *u) {
  const cp_node *parent = u->parent, *lhs, *rhs;
  char op[4];
  if (!parent)
    return 0;
  if (parent->kind == CXCursor_UnaryOperator)
    return strcmp(cp_node_operator(p->text, parent, op), "&") == 0;
  return cp_node_assignment(p->text, parent, &lhs, &rhs, op) && outer(cp_node_strip(lhs)) == u;
}

/* The paths host code `n` covers. */
static void covered_in(paths *p, const cp_node *n) {
  if (n->kind == CXCursor_MemberRefExpr) {
    CXCursor f = clang_getCursorReferenced(n->cur);
    const cp_var *v = cp_field_var(p->run, f);
    const cp_node *u = outer(n), *parent = u->parent;
    if (is_paired(v) && sets(p, u) && !own_instance(n)) /* &n->lastR.x, n->lastR.x = q, &v->x */
      add_cover(p, record_of(f), f, holder_of(n));
    CXCursor rec = record_type(f);
    if (has_paired_field(p->run, rec) &&
        !(parent && parent->kind == CXCursor_MemberRefExpr && parent->nkids &&
          cp_node_strip(parent->kids[0]) == n)) /* the whole holder, not a field of it */
      add_cover(p, rec, clang_getNullCursor(), f);
  } else if (n->kind == CXCursor_InitListExpr) { /* vec_t v = {a, b, c}: any holder */
    CXType t = clang_getCanonicalType(clang_getCursorType(n->cur));
    CXCursor rec = t.kind == CXType_Record ? clang_getTypeDeclaration(t) : clang_getNullCursor();
    if (has_paired_field(p->run, canonical(rec)))
      add_cover(p, rec, clang_getNullCursor(), clang_getNullCursor());
  }
  for (unsigned i = 0; i < n->nkids; i++)
    covered_in(p, n->kids[i]);
}

typedef struct {
  paths *p;
  cp_unit *u;
} cover_walk;

/* Every host function defined in the run's inputs and their headers (not only the ones that
 * convert: an allocating helper of the run counts too). */
static enum CXChildVisitResult host_definitions(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  cover_walk *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl ||
      k == CXCursor_StructDecl || k == CXCursor_ClassDecl)
    return CXChildVisit_Recurse;
  if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
       k == CXCursor_Constructor) &&
      clang_isCursorDefinition(c) && cp_cuda_kind(c) == 0) {
    cp_node *tree = cp_tree_build(w->p->run->r->arena, c, &w->u->macros);
    cp_tree_refused(w->p->run, w->u, tree);
    w->p->text = clang_Location_isFromMainFile(clang_getCursorLocation(c)) ? w->u->opt.input_text : NULL;
    if (tree)
      covered_in(w->p, tree);
  }
  return CXChildVisit_Continue;
}

/* The name of a field from its USR (c:@S@Nbl@FI@lastR: lastR). */
static const char *holder_name(const char *usr) {
  const char *at = strrchr(usr, '@');
  return at ? at + 1 : usr;
}

static int covered(const paths *p, CXCursor field, CXCursor holder) {
  const char *rec = usr_of(p->run, record_of(field)), *f = usr_of(p->run, field),
             *h = usr_of(p->run, holder);
  for (unsigned i = 0; i < p->n; i++) {
    const path *c = &p->cover[i];
    if (c->rec && strcmp(c->rec, rec) == 0 && (!c->field || strcmp(c->field, f) == 0) &&
        (!c->holder || strcmp(c->holder, h) == 0))
      return 1;
  }
  return p->full;
}

/* A path a converted function reaches: where first, and whether it writes through it. */
typedef struct {
  CXCursor field, holder;
  const cp_var *v;
  const cp_func *f;
  const cp_node *at;
  int writes;
} reach;

typedef struct {
  cp_run *run;
  const cp_func *f;
  reach r[MAX_PATHS];
  unsigned n;
} reaches;

/* Whether `n` holds an access to `field` through `holder`; the access in *at. */
static int holds_access(cp_run *run, const cp_node *n, CXCursor field, CXCursor holder,
                        const cp_node **at) {
  if (n->kind == CXCursor_MemberRefExpr && same(run, clang_getCursorReferenced(n->cur), field) &&
      same(run, holder_of(n), holder)) {
    *at = n;
    return 1;
  }
  for (unsigned i = 0; i < n->nkids; i++)
    if (holds_access(run, n->kids[i], field, holder, at))
      return 1;
  return 0;
}

/* The paths that converted function f's body `n` reaches through a holder field. */
static void reached_in(reaches *rs, const cp_node *n) {
  if (n->kind == CXCursor_MemberRefExpr) {
    CXCursor field = clang_getCursorReferenced(n->cur), holder = holder_of(n);
    const cp_var *v = cp_field_var(rs->run, field);
    unsigned k = 0;
    while (k < rs->n && !(same(rs->run, rs->r[k].field, field) && same(rs->run, rs->r[k].holder, holder)))
      k++;
    if (is_paired(v) && !v->external && v->allocated && !clang_Cursor_isNull(holder) &&
        k == rs->n && rs->n < MAX_PATHS) {
      reach *r = &rs->r[rs->n++];
      *r = (reach){field, holder, v, rs->f, n, 0};
      const cp_node **w = NULL; /* the first write through this path, if any */
      unsigned nw = cp_find_writes(rs->run->r->arena, rs->f->unit->opt.input_text, rs->f->body,
                                   field, 0, &w);
      for (unsigned i = 0; i < nw && !r->writes; i++)
        r->writes = holds_access(rs->run, w[i], field, holder, &r->at);
    } else if (k < rs->n && !rs->r[k].writes && rs->r[k].f != rs->f) {
      /* another function's access: does this one write it? */
      const cp_node **w = NULL;
      unsigned nw = cp_find_writes(rs->run->r->arena, rs->f->unit->opt.input_text, rs->f->body,
                                   field, 0, &w);
      for (unsigned i = 0; i < nw && !rs->r[k].writes; i++)
        if (holds_access(rs->run, w[i], field, holder, &rs->r[k].at)) {
          rs->r[k].writes = 1;
          rs->r[k].f = rs->f;
        }
    }
  }
  for (unsigned i = 0; i < n->nkids; i++)
    reached_in(rs, n->kids[i]);
}

/* The error (a write) or warning (a read) on each path that converted functions reach and
 * no host code of the run covers, while the field is allocated through another path. */
static void check_paths(cp_run *run) {
  reaches *rs = cp_arena_alloc(run->r->arena, sizeof *rs);
  memset(rs, 0, sizeof *rs);
  rs->run = run;
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    if (!f->is_host && f->body) {
      rs->f = f;
      reached_in(rs, f->body);
    }
  }
  if (!rs->n)
    return;
  paths *p = cp_arena_alloc(run->r->arena, sizeof *p);
  memset(p, 0, sizeof *p);
  p->run = run;
  for (unsigned u = 0; u < run->n_inputs; u++) {
    if (!run->units[u]->parsed)
      continue;
    cover_walk w = {p, run->units[u]};
    clang_visitChildren(clang_getTranslationUnitCursor(run->units[u]->p.tu), host_definitions, &w);
  }
  for (unsigned i = 0; i < rs->n; i++) {
    reach *r = &rs->r[i];
    if (covered(p, r->field, r->holder))
      continue;
    cp_arena *a = run->r->arena;
    const char *hold = cp_cursor_spelling(a, r->holder), *name = r->v->name;
    const char *other = "";
    for (unsigned k = 0; k < p->n && !*other; k++) /* a path of the field the run does allocate */
      if (p->cover[k].field && strcmp(p->cover[k].field, usr_of(run, r->field)) == 0 &&
          p->cover[k].holder)
        other = cp_arena_printf(a, " ('%s.%s')", holder_name(p->cover[k].holder), name);
    const char *call = outside_call(run, r->holder);
    const char *where =
        call ? cp_arena_printf(a, "; its buffer most likely comes from %s: convert "
                               "the file that defines it in the same run, or allocate '%s" CP_ERR_SUFFIX
                               "' beside '%s' there (same size, zeroed)", call, name, name)
             : cp_arena_printf(a, ": allocate '%s.%s" CP_ERR_SUFFIX "' beside '%s.%s' where it is "
                               "allocated (same size, zeroed), in a file converted in this run",
                               hold, name, hold, name);
    cp_diag_cursor(run, r->writes ? CP_ERROR : CP_WARNING, r->f->unit->p.tu, r->at->cur,
                   "'%s.%s' is paired through its struct (a converted kernel %s it here), and the "
                   "converted files allocate '%s' of other '%s's%s, but no allocation of "
                   "'%s.%s' is in them: its companion '%s.%s" CP_ERR_SUFFIX "' is allocated "
                   "nowhere in the converted files%s%s [%s]",
                   hold, name, r->writes ? "writes" : "reads", name,
                   cp_cursor_spelling(a, record_of(r->field)), other, hold, name, hold, name,
                   r->writes ? ", and the kernel would write it through an unallocated pointer"
                             : ", and the kernel would read its error terms from an unallocated "
                               "pointer",
                   where, cp_rule_name(CP_RULE_HOST_PAIR));
  }
}

/* Paired pointer fields and file-scope pointers get their companion at every declaration
 * site the run can edit: a companion field on the next line of the struct (if the struct
 * has no field NAME_err yet, added by hand), a companion pointer beside the definition
 * (`= nullptr`) and beside each extern declaration (`extern`). A site in a file the run
 * does not write is an error that says what to add there. A pointer defined in no
 * converted file needs --pair; names given with --pair are trusted and left alone. */
void cp_convert_fields(cp_run *run) {
  cp_func *s = &run->structs;
  for (unsigned i = 0; i < s->n_vars; i++) {
    cp_var *v = &s->vars[i];
    /* symbols: symbol.c; an external (--pair) pointer's companion is declared elsewhere, but
     * a field's is declared in its struct, which is here */
    if (!is_paired(v) || (v->external && !v->is_field) || !v->n_sites || v->is_symbol)
      continue;
    const char *err = cp_arena_printf(run->r->arena, "%s" CP_ERR_SUFFIX, v->name);
    int defined = v->is_field;
    for (unsigned k = 0; k < v->n_sites; k++)
      defined |= clang_Cursor_getStorageClass(v->sites[k].decl) != CX_SC_Extern;
    if (!defined) {
      site_error(run, &v->sites[0], "'%s' is paired but defined outside the converted files: "
                 "define '%s' there (same type, allocated and zeroed with it) and convert with "
                 "--pair %s", v->name, err, v->name);
      continue;
    }
    if (!v->is_field || !struct_has_field(v->decl, err)) {
      CXType vt = clang_getCursorType(v->decl);
      int array = !v->is_field && cp_host_pointer_array(v->decl); /* float4 *dPos_err[2] = {}; */
      CXString t = clang_getTypeSpelling(array ? clang_getArrayElementType(vt) : vt);
      const char *type = cp_arena_strdup(run->r->arena, clang_getCString(t));
      clang_disposeString(t);
      const char *name = array ? cp_arena_printf(run->r->arena, "%s[%lld]", err, clang_getArraySize(vt))
                               : err;
      for (unsigned k = 0; k < v->n_sites; k++)
        declare_at_site(run, v, &v->sites[k], type, name);
    }
    if (!v->allocated && !v->external)
      site_error(run, &v->sites[0],
                 "%s '%s' is paired (a converted kernel writes its buffer) but no cudaMalloc of "
                 "it is in the converted files%s allocate '%s' the same size, zeroed, and copy "
                 "it with it, then name it with --pair", v->is_field ? "field" : "pointer",
                 v->name, v->is_field ? allocated_where(run, v->decl) : ":", err);
  }
  check_paths(run);
}
