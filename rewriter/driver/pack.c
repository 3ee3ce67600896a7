/*
 * pack.c: what split.c keeps of an input converted alone, as bytes and back.
 *
 * A caller that converts inputs in other processes (cp_options.spread: the tool's -j)
 * runs each input's conversion where it likes and hands back a byte string; that string
 * holds what the merged result needs of the input (split.c's compact result: its
 * diagnostics, statistics, dependencies, outputs with their edits) and its links. The
 * layout is this build's own (the two ends are one program, forked): native integers,
 * strings as a length (or ~0 for NULL) and their bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
  char *s;
  size_t n, cap;
} out_buf;

static void put(out_buf *b, const void *p, size_t n) {
  if (b->n + n > b->cap) {
    while (b->n + n > b->cap)
      b->cap = b->cap ? 2 * b->cap : 4096;
    if (!(b->s = realloc(b->s, b->cap)))
      abort();
  }
  memcpy(b->s + b->n, p, n);
  b->n += n;
}

static void put_n(out_buf *b, uint64_t v) { put(b, &v, sizeof v); }

static void put_bytes(out_buf *b, const char *s, size_t n) {
  put_n(b, s ? (uint64_t)n : ~(uint64_t)0);
  if (s)
    put(b, s, n);
}

static void put_str(out_buf *b, const char *s) { put_bytes(b, s, s ? strlen(s) : 0); }

static void put_edits(out_buf *b, const cp_edit_list *e) {
  put_n(b, e->count);
  for (size_t i = 0; i < e->count; i++) {
    put_n(b, e->items[i].offset);
    put_n(b, e->items[i].length);
    put_str(b, e->items[i].text);
    put_n(b, (uint64_t)e->items[i].rule);
  }
  put(b, e->per_rule, sizeof e->per_rule);
}

char *cp_pack_part(int fits, const cp_result *r, const cp_links *l, size_t *len) {
  out_buf b = {0};
  put_n(&b, (uint64_t)fits);
  if (fits) {
    put_n(&b, r->n_diags);
    for (size_t i = 0; i < r->n_diags; i++) {
      const cp_diag *d = &r->diags[i];
      put_n(&b, (uint64_t)d->severity);
      put_str(&b, d->file);
      put_n(&b, d->line);
      put_n(&b, d->col);
      put_str(&b, d->line_text);
      put_str(&b, d->message);
    }
    put(&b, r->applied, sizeof r->applied);
    put_n(&b, r->n_funcs);
    for (size_t i = 0; i < r->n_funcs; i++) {
      const cp_func_stat *f = &r->funcs[i];
      put(&b, f, sizeof *f); /* its numbers; its strings follow */
      put_str(&b, f->name);
      put_str(&b, f->file);
      put_str(&b, f->pragma);
    }
    put_n(&b, r->n_deps);
    for (size_t i = 0; i < r->n_deps; i++)
      put_str(&b, r->deps[i]);
    put_n(&b, r->n_files);
    for (size_t i = 0; i < r->n_files; i++) { /* files[0] is the input: its path and text
                                                 are the caller's */
      const cp_file_result *f = &r->files[i];
      put_n(&b, (uint64_t)f->is_header);
      if (f->is_header) {
        put_str(&b, f->path);
        put_bytes(&b, f->input_text, f->input_len);
      }
      put_edits(&b, &f->edits);
      put_bytes(&b, f->output, f->output_len);
    }
    put_n(&b, (uint64_t)r->pch_refused);
    put_n(&b, (uint64_t)r->output_pch_refused);
    put_n(&b, l->n_defs);
    put(&b, l->defs, l->n_defs * sizeof *l->defs);
    put_n(&b, l->n_refs);
    put(&b, l->refs, l->n_refs * sizeof *l->refs);
  }
  *len = b.n;
  return b.s;
}

/* ---- reading ------------------------------------------------------------------------ */

typedef struct {
  const char *s;
  size_t n, at;
  int bad;
  cp_arena *a;
} in_buf;

static int take(in_buf *b, void *p, size_t n) {
  if (b->bad || n > b->n - b->at) {
    b->bad = 1;
    memset(p, 0, n);
    return -1;
  }
  memcpy(p, b->s + b->at, n);
  b->at += n;
  return 0;
}

static uint64_t get_n(in_buf *b) {
  uint64_t v = 0;
  take(b, &v, sizeof v);
  return v;
}

/* A count of items of `size` bytes each, no more than the bytes left could hold. */
static size_t get_count(in_buf *b, size_t size) {
  uint64_t n = get_n(b);
  if (n > (b->n - b->at) / (size ? size : 1))
    b->bad = 1;
  return b->bad ? 0 : (size_t)n;
}

static const char *get_bytes(in_buf *b, size_t *len) {
  uint64_t n = get_n(b);
  if (len)
    *len = 0;
  if (n == ~(uint64_t)0 || b->bad)
    return NULL;
  if (n > b->n - b->at) {
    b->bad = 1;
    return NULL;
  }
  char *s = cp_arena_strndup(b->a, b->s + b->at, (size_t)n);
  b->at += (size_t)n;
  if (len)
    *len = (size_t)n;
  return s;
}

static const char *get_str(in_buf *b) { return get_bytes(b, NULL); }

static void get_edits(in_buf *b, cp_edit_list *e) {
  memset(e, 0, sizeof *e);
  e->count = e->capacity = get_count(b, 4 * sizeof(uint64_t));
  e->items = cp_arena_alloc(b->a, (e->count + 1) * sizeof *e->items);
  for (size_t i = 0; i < e->count; i++) {
    e->items[i].offset = (size_t)get_n(b);
    e->items[i].length = (size_t)get_n(b);
    e->items[i].text = get_str(b);
    e->items[i].rule = (cp_rule)get_n(b);
  }
  take(b, e->per_rule, sizeof e->per_rule);
}

static void get_files(in_buf *b, cp_result *r, const cp_options *opt) {
  r->n_files = get_count(b, 3 * sizeof(uint64_t));
  r->files = cp_arena_alloc(b->a, (r->n_files + 1) * sizeof *r->files);
  for (size_t i = 0; i < r->n_files; i++) {
    cp_file_result *f = &r->files[i];
    memset(f, 0, sizeof *f);
    f->is_header = (int)get_n(b);
    if (f->is_header) {
      f->path = get_str(b);
      f->input_text = get_bytes(b, &f->input_len);
    } else { /* as split.c's add_file keeps an input: the caller's path and text */
      f->path = opt->input;
      f->input_text = opt->input_text;
      f->input_len = opt->input_len;
    }
    get_edits(b, &f->edits);
    f->output = (char *)get_bytes(b, &f->output_len);
  }
}

int cp_unpack_part(cp_arena *a, const char *s, size_t len, const cp_options *opt,
                   cp_result **out, cp_links *l) {
  in_buf b = {s, len, 0, 0, a};
  *out = NULL;
  memset(l, 0, sizeof *l);
  if (!get_n(&b) || b.bad)
    return b.bad ? -1 : 0; /* the input does not fit a split run */
  cp_result *r = cp_arena_alloc(a, sizeof *r);
  memset(r, 0, sizeof *r);
  r->arena = a;
  size_t n = get_count(&b, 6 * sizeof(uint64_t));
  for (size_t i = 0; i < n && !b.bad; i++) {
    cp_severity sev = (cp_severity)get_n(&b);
    const char *file = get_str(&b);
    unsigned line = (unsigned)get_n(&b), col = (unsigned)get_n(&b);
    const char *text = get_str(&b), *msg = get_str(&b);
    cp_diag_add(r, sev, file, line, col, text, "%s", msg ? msg : "");
  }
  take(&b, r->applied, sizeof r->applied);
  r->n_funcs = get_count(&b, sizeof *r->funcs);
  r->funcs = cp_arena_alloc(a, (r->n_funcs + 1) * sizeof *r->funcs);
  for (size_t i = 0; i < r->n_funcs; i++) {
    take(&b, &r->funcs[i], sizeof r->funcs[i]);
    r->funcs[i].name = get_str(&b);
    r->funcs[i].file = get_str(&b);
    r->funcs[i].pragma = get_str(&b);
  }
  r->n_deps = get_count(&b, sizeof(uint64_t));
  r->deps = cp_arena_alloc(a, (r->n_deps + 1) * sizeof *r->deps);
  for (size_t i = 0; i < r->n_deps; i++)
    r->deps[i] = get_str(&b);
  get_files(&b, r, opt);
  r->pch_refused = (int)get_n(&b);
  r->output_pch_refused = (int)get_n(&b);
  l->n_defs = get_count(&b, sizeof *l->defs);
  l->defs = malloc((l->n_defs + 1) * sizeof *l->defs);
  take(&b, l->defs, l->n_defs * sizeof *l->defs);
  l->n_refs = get_count(&b, sizeof *l->refs);
  l->refs = malloc((l->n_refs + 1) * sizeof *l->refs);
  take(&b, l->refs, l->n_refs * sizeof *l->refs);
  if (!l->defs || !l->refs)
    abort();
  if (b.bad || b.at != b.n) {
    cp_links_free(l);
    return -1;
  }
  *out = r;
  return 1;
}
