/*
 * split.c: a run over many inputs that share nothing, one input at a time.
 *
 * A joint run (convert.c) keeps every input's translation unit open until the last
 * output is checked: the analysis follows a kernel from the file that launches it to the
 * one that defines it through their ASTs. A translation unit on top of the CUDA headers'
 * PCH holds about 20 MB, whatever the file's size, so a thousand small files needed
 * 20 GB. Most inputs of a large run reach no other input, and for those the joint run's
 * output is the output of the input converted alone. So, when the caller allows it
 * (opt->split), each input is converted alone first, its links (links.c) noted before
 * its unit is closed, and its result copied out (outputs, edits, diagnostics, the
 * statistics) while its translation unit, arena and tables are released. The inputs
 * linked to another (a kernel defined in one and launched from another, a shared user
 * header) are then converted again, together, each group as a joint run of its own.
 *
 * The merged result is the joint run's unless something one input's run decides holds
 * for the whole run; then the whole run is converted jointly, as without the split:
 *   - errors (the joint run stops each stage at the first unit with errors);
 *   - a run converted again in the device compilation's view, or one whose outputs select
 *     the fast family (a pragma's accuracy(low)): both are decided for every input;
 *   - diagnostics outside the group of the first input (the joint run reports them stage
 *     by stage across the inputs, the first input's sorted), or headers written by two
 *     groups (the joint run lists them in the order its stages reached them).
 *
 * The inputs alone share nothing, so a caller with other processes (cp_options.spread,
 * the tool's -j) may convert them there: each gives back its compact result and links
 * as bytes (pack.c), read here in the inputs' order, as if converted here.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int splittable(const cp_options *opts, int n) {
  if (n < 2 || !opts[0].split || opts[0].suggest || opts[0].device_parse || opts[0].host_view)
    return 0;
  for (int i = 0; i < n; i++)
    if (cp_is_header_path(opts[i].input))
      return 0; /* converted through its includers: check_header_inputs (convert.c) */
  return 1;
}

/* ---- groups: union-find over the inputs, joined where one's defs meet another's refs */

static int root(int *up, int i) {
  while (up[i] != i)
    i = up[i] = up[up[i]];
  return i;
}

static void join(int *up, int a, int b) {
  a = root(up, a);
  b = root(up, b);
  if (a != b)
    up[a > b ? a : b] = a < b ? a : b; /* the root is the group's first input */
}

static void group_inputs(const cp_links *l, int n, int *up) {
  size_t total = 0;
  for (int i = 0; i < n; i++)
    total += l[i].n_defs;
  size_t cap = 16;
  while (cap < 2 * total)
    cap *= 2;
  uint64_t *key = calloc(cap, sizeof *key);
  int *owner = calloc(cap, sizeof *owner);
  if (!key || !owner)
    abort();
  for (int i = 0; i < n; i++)
    up[i] = i;
  for (int i = 0; i < n; i++) /* each def key: the first input that declares it */
    for (size_t d = 0; d < l[i].n_defs; d++) {
      size_t h = (size_t)(l[i].defs[d] * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
      while (key[h] && key[h] != l[i].defs[d])
        h = (h + 1) & (cap - 1);
      if (key[h])
        join(up, i, owner[h]);
      else
        key[h] = l[i].defs[d], owner[h] = i;
    }
  for (int i = 0; i < n; i++)
    for (size_t k = 0; k < l[i].n_refs; k++) {
      size_t h = (size_t)(l[i].refs[k] * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
      while (key[h] && key[h] != l[i].refs[k])
        h = (h + 1) & (cap - 1);
      if (key[h])
        join(up, i, owner[h]);
    }
  free(key);
  free(owner);
}

/* ---- the merged result ------------------------------------------------------------ */

typedef struct {
  cp_result *r;
  size_t cap_files, cap_funcs, cap_deps;
  int groups_with_headers;
} merged;

static const char *dup(cp_arena *a, const char *s) { return s ? cp_arena_strdup(a, s) : NULL; }

static void copy_edits(cp_arena *a, cp_edit_list *to, const cp_edit_list *from) {
  *to = *from;
  to->items = cp_arena_alloc(a, (from->count + 1) * sizeof *to->items);
  to->capacity = from->count;
  for (size_t i = 0; i < from->count; i++) {
    to->items[i] = from->items[i];
    to->items[i].text = dup(a, from->items[i].text);
  }
}

/* Input i's own file result (its path is the input's), or a header's, into m. */
static void add_file(merged *m, const cp_file_result *f, const char *input_text) {
  cp_result *r = m->r;
  if (r->n_files == m->cap_files) {
    m->cap_files = m->cap_files ? 2 * m->cap_files : 16;
    r->files = cp_arena_grow(r->arena, r->files, r->n_files, m->cap_files, sizeof *r->files);
  }
  cp_file_result *to = &r->files[r->n_files++];
  *to = *f;
  to->path = f->is_header ? dup(r->arena, f->path) : f->path;
  to->input_text = input_text ? input_text : cp_arena_strndup(r->arena, f->input_text, f->input_len);
  copy_edits(r->arena, &to->edits, &f->edits);
  to->output = f->output ? cp_arena_strndup(r->arena, f->output, f->output_len) : NULL;
}

static void add_part(merged *m, const cp_result *p, const cp_options *opts, const int *inputs,
                     int n_in) {
  cp_result *r = m->r;
  for (size_t i = 0; i < p->n_diags; i++) {
    const cp_diag *d = &p->diags[i];
    cp_diag_add(r, d->severity, dup(r->arena, d->file), d->line, d->col,
                dup(r->arena, d->line_text), "%s", d->message);
  }
  for (int k = 0; k < CP_RULE_COUNT; k++)
    r->applied[k] += p->applied[k];
  for (size_t i = 0; i < p->n_funcs; i++) {
    if (r->n_funcs == m->cap_funcs) {
      m->cap_funcs = m->cap_funcs ? 2 * m->cap_funcs : 16;
      r->funcs = cp_arena_grow(r->arena, r->funcs, r->n_funcs, m->cap_funcs, sizeof *r->funcs);
    }
    cp_func_stat *f = &r->funcs[r->n_funcs++];
    *f = p->funcs[i];
    f->name = dup(r->arena, f->name);
    f->file = dup(r->arena, f->file);
    f->pragma = dup(r->arena, f->pragma);
  }
  for (size_t i = 0; i < p->n_deps; i++) { /* once each, in the order first included */
    size_t k = 0;
    while (k < r->n_deps && strcmp(r->deps[k], p->deps[i]) != 0)
      k++;
    if (k < r->n_deps)
      continue;
    if (r->n_deps == m->cap_deps) {
      m->cap_deps = m->cap_deps ? 2 * m->cap_deps : 16;
      r->deps = cp_arena_grow(r->arena, r->deps, r->n_deps, m->cap_deps, sizeof *r->deps);
    }
    r->deps[r->n_deps++] = dup(r->arena, p->deps[i]);
  }
  for (int k = 0; k < n_in; k++)
    add_file(m, &p->files[k], opts[inputs[k]].input_text);
  int headers = 0;
  for (size_t k = (size_t)n_in; k < p->n_files; k++, headers = 1)
    add_file(m, &p->files[k], NULL);
  m->groups_with_headers += headers;
  r->pch_refused |= p->pch_refused;
  r->output_pch_refused |= p->output_pch_refused;
}

/* The progress of a group's run, counted among all the run's inputs. */
typedef struct {
  const cp_options *opt;
  const int *inputs;
  unsigned n;
} progress_ctx;

static void relay(void *ctx, const char *stage, const char *file, unsigned i, unsigned n) {
  progress_ctx *p = ctx;
  (void)n;
  p->opt->progress(p->opt->progress_ctx, stage, file, (unsigned)p->inputs[i - 1] + 1, p->n);
}

/* A joint run of the inputs `inputs` (in the run's order); their links too when `links`. */
static cp_result *run_group(const cp_options *opts, int n, const int *inputs, int n_in,
                            cp_links *links) {
  cp_options *sub = malloc((size_t)n_in * sizeof *sub);
  if (!sub)
    abort();
  progress_ctx pc = {&opts[0], inputs, (unsigned)n};
  for (int k = 0; k < n_in; k++) {
    sub[k] = opts[inputs[k]];
    if (opts[0].progress) {
      sub[k].progress = relay;
      sub[k].progress_ctx = &pc;
    }
  }
  cp_result *r = cp_convert_joint(sub, n_in, links);
  free(sub);
  return r;
}

/* 1 when part p (of the group whose first input is `first`) can stand in the merged
 * result as the joint run would have it. */
static int part_fits(const cp_result *p, int first) {
  return p->n_errors == 0 && !p->device_view && !p->algo_lowered && (first == 0 || !p->n_diags);
}

static merged new_merged(cp_arena *arena) {
  merged m = {cp_arena_alloc(arena, sizeof *m.r), 0, 0, 0, 0};
  memset(m.r, 0, sizeof *m.r);
  m.r->arena = arena;
  return m;
}

/* The inputs converted alone so far (in the run's order), and whether they all fit. */
typedef struct {
  const cp_options *opts;
  int n, next, fits;
  cp_links *links;
  cp_result **alone;
  cp_arena *keep;
} alone_ctx;

/* Input i alone, its links noted in *l; NULL when it does not fit, else what the merged
 * result needs of it (compactly, in the arena `keep`: one arena each would cost a block
 * per input), its unit, tables and trees freed. */
static cp_result *convert_one(const cp_options *opts, int n, int i, cp_links *l, cp_arena *keep) {
  cp_result *p = run_group(opts, n, &i, 1, l), *kept = NULL;
  if (part_fits(p, i)) {
    merged c = new_merged(keep);
    add_part(&c, p, opts, &i, 1);
    kept = c.r;
  }
  cp_result_free(p);
  return kept;
}

/* cp_options.spread's task, in the caller's other process: input k alone, as convert_one,
 * packed (pack.c). */
static char *alone_task(void *ctx, unsigned k, size_t *len) {
  alone_ctx *s = ctx;
  cp_links l = {0};
  cp_arena *a = cp_arena_new();
  cp_result *kept = convert_one(s->opts, s->n, (int)k, &l, a);
  char *bytes = cp_pack_part(kept != NULL, kept, &l, len);
  cp_arena_free(a);
  cp_links_free(&l);
  return bytes;
}

/* ... and its bytes back in this process, in the order of k; an input that does not fit
 * stops the run as convert_one's does; bytes not read (never seen) leave input k and the
 * rest to this process. */
static int alone_take(void *ctx, unsigned k, const char *bytes, size_t len) {
  alone_ctx *s = ctx;
  if ((int)k != s->next)
    return 1;
  int st = cp_unpack_part(s->keep, bytes, len, &s->opts[k], &s->alone[k], &s->links[k]);
  if (st < 0)
    return 1;
  s->fits = st;
  s->next = (int)k + 1;
  return !s->fits;
}

/* Every input alone, in the caller's processes when it has them (opts[0].spread), the
 * rest here; 0 when one does not fit, at the first such. */
static int convert_alone(const cp_options *opts, int n, cp_links *links, cp_result **alone,
                         cp_arena *keep) {
  alone_ctx s = {opts, n, 0, 1, links, alone, keep};
  if (opts[0].spread)
    opts[0].spread(opts[0].spread_ctx, (unsigned)n, alone_task, alone_take, &s);
  for (int i = s.next; i < n && s.fits; i++)
    s.fits = (alone[i] = convert_one(opts, n, i, &links[i], keep)) != NULL;
  return s.fits;
}

/* The groups into m, in the order of their first inputs: an input alone as it was
 * converted, linked inputs converted again together. 0 when one does not fit. */
static int merge_groups(merged *m, const cp_options *opts, int n, int *up,
                        cp_result **alone) {
  int *members = malloc((size_t)n * sizeof *members), *done = calloc((size_t)n, sizeof *done);
  if (!members || !done)
    abort();
  int fits = 1;
  for (int i = 0; i < n && fits; i++) {
    if (done[i])
      continue;
    int n_in = 0;
    for (int k = i; k < n; k++)
      if (root(up, k) == i)
        members[n_in++] = k;
    cp_result *p = alone[i];
    if (n_in > 1) {
      p = run_group(opts, n, members, n_in, NULL);
      fits = part_fits(p, i);
    }
    if (fits)
      add_part(m, p, opts, members, n_in);
    for (int k = 0; k < n_in; k++)
      done[members[k]] = 1;
    if (n_in > 1)
      cp_result_free(p);
  }
  free(members);
  free(done);
  return fits;
}

/* The merged files as a joint run lists them: the inputs in the run's order, then the
 * headers (one group's, in its order). */
static void order_files(merged *m, const cp_options *opts, int n) {
  cp_result *r = m->r;
  cp_file_result *files = cp_arena_alloc(r->arena, (r->n_files + 1) * sizeof *files);
  size_t k = 0;
  for (int i = 0; i < n; i++)
    for (size_t f = 0; f < r->n_files; f++)
      if (!r->files[f].is_header && r->files[f].path == opts[i].input) {
        files[k++] = r->files[f];
        break;
      }
  for (size_t f = 0; f < r->n_files; f++)
    if (r->files[f].is_header)
      files[k++] = r->files[f];
  r->files = files;
  r->edits = files[0].edits;
  r->output = files[0].output;
  r->output_len = files[0].output_len;
}

cp_result *cp_convert_files(const cp_options *opts, int n) {
  if (!splittable(opts, n))
    return cp_convert_joint(opts, n, NULL);
  cp_links *links = calloc((size_t)n, sizeof *links);
  cp_result **alone = calloc((size_t)n, sizeof *alone);
  int *up = malloc((size_t)n * sizeof *up);
  if (!links || !alone || !up)
    abort();
  merged m = new_merged(cp_arena_new());
  cp_arena *keep = cp_arena_new();
  int fits = convert_alone(opts, n, links, alone, keep);
  if (fits) {
    group_inputs(links, n, up);
    fits = merge_groups(&m, opts, n, up, alone);
  }
  for (int i = 0; i < n; i++)
    cp_links_free(&links[i]);
  cp_arena_free(keep);
  free(links);
  free(alone);
  free(up);
  if (!fits || m.groups_with_headers > 1) {
    cp_result_free(m.r);
    return cp_convert_joint(opts, n, NULL);
  }
  order_files(&m, opts, n);
  return m.r;
}

cp_result *cp_convert(const cp_options *opt) { return cp_convert_files(opt, 1); }
