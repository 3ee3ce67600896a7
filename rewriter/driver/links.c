/*
 * links.c: what one input of a run shares with the others (split.c).
 *
 * The analysis reaches from one input into another only through a declaration both
 * see: a kernel defined in one and launched from another, a host function, a file-scope
 * pointer or a struct field (matched by USR, tables/run.c), or a user header both include
 * (its unit and its edits are the run's). So each input is summed up, while its
 * translation unit is open, as keys: defs, the USRs of the declarations written in its
 * own file and its user headers, its file and those headers; refs, those and the USRs of
 * every declaration its code refers to, wherever declared (cudaMalloc's too: no input
 * defines it, so it joins nothing). Two inputs are linked when one's defs meet the other's refs.
 * Keys are 64-bit FNV-1a hashes: a collision can only link two inputs that need not be.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
  uint64_t *k;
  size_t n, cap;
} keys;

typedef struct {
  const cp_unit *u;
  keys defs, refs;
} links_walk;

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static void push(keys *s, uint64_t k) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    uint64_t *more = realloc(s->k, s->cap * sizeof *more);
    if (!more)
      abort(); /* as the arena does when memory runs out */
    s->k = more;
  }
  s->k[s->n++] = k;
}

/* The key of a declaration's USR; 0 (no key) when it has none. */
static uint64_t usr_key(CXCursor c) {
  CXString s = clang_getCursorUSR(c);
  const char *u = clang_getCString(s);
  uint64_t k = u && *u ? hash_bytes(14695981039346656037ull, u, strlen(u)) : 0;
  clang_disposeString(s);
  return k;
}

static uint64_t file_key(CXFile f) {
  CXFileUniqueID id;
  if (!f || clang_getFileUniqueID(f, &id) != 0)
    return 0;
  return hash_bytes(hash_bytes(14695981039346656037ull, "file", 4), id.data, sizeof id.data);
}

static void add_def(links_walk *w, uint64_t k) {
  if (k) {
    push(&w->defs, k);
    push(&w->refs, k);
  }
}

static enum CXChildVisitResult walk_code(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  links_walk *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (clang_isDeclaration(k) && k != CXCursor_Namespace) /* a namespace holds no state */
    add_def(w, usr_key(c));
  CXCursor ref = clang_getCursorReferenced(c);
  if (!clang_Cursor_isNull(ref) && !clang_equalCursors(ref, c)) {
    uint64_t key = usr_key(ref);
    if (key)
      push(&w->refs, key);
  }
  return CXChildVisit_Recurse;
}

/* The declarations of the input's file and of its user headers, with everything inside
 * them (a kernel defined in a header one input includes and another declares itself is
 * the first's to give); not those of system headers, which no input defines. */
static enum CXChildVisitResult walk_top(CXCursor c, CXCursor parent, CXClientData data) {
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  walk_code(c, parent, data);
  clang_visitChildren(c, walk_code, data);
  return CXChildVisit_Continue;
}

static void walk_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth,
                           CXClientData data) {
  (void)stack;
  links_walk *w = data;
  if (depth > 0 && !clang_Location_isInSystemHeader(clang_getLocation(w->u->p.tu, file, 1, 1)))
    add_def(w, file_key(file));
}

static int by_value(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void settle(keys *s, uint64_t **out, size_t *n) {
  qsort(s->k, s->n, sizeof *s->k, by_value);
  size_t k = 0;
  for (size_t i = 0; i < s->n; i++)
    if (k == 0 || s->k[k - 1] != s->k[i])
      s->k[k++] = s->k[i];
  *out = s->k;
  *n = k;
}

void cp_unit_links(const cp_unit *u, cp_links *out) {
  links_walk w = {u, {0}, {0}};
  add_def(&w, file_key(u->p.main_file));
  if (u->p.tu) {
    clang_getInclusions(u->p.tu, walk_inclusion, &w);
    clang_visitChildren(clang_getTranslationUnitCursor(u->p.tu), walk_top, &w);
  }
  settle(&w.defs, &out->defs, &out->n_defs);
  settle(&w.refs, &out->refs, &out->n_refs);
}

void cp_links_free(cp_links *l) {
  free(l->defs);
  free(l->refs);
  memset(l, 0, sizeof *l);
}
