/*
 * main.c: the cpconvert command line.
 *
 * Reads the options, reads the input once, hands both to the rewriter, prints what it
 * found, and writes the output atomically when the run had no error. Exit status: 0
 * converted, 1 errors (in the input or with files), 2 usage.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "explain.h"

static void put_make_path(FILE *f, const char *p) {
  for (; *p; p++) {
    if (*p == ' ' || *p == '#')
      fputc('\\', f);
    else if (*p == '$')
      fputc('$', f);
    fputc(*p, f);
  }
}

/* One rule: `TARGET: FIRST`, then the run's other inputs and every user header any input
 * included. Each output depends on all of them, not only on its own input: the run shares
 * one analysis (a kernel defined in one input and launched in another, a buffer paired
 * across files), so a change in any of them can change every output. */
static void put_rule(FILE *f, const char *target, const char *first, const cli *c,
                     const cp_result *r) {
  put_make_path(f, target);
  fputs(": ", f);
  put_make_path(f, first);
  for (int i = 0; i < c->n_inputs; i++)
    if (strcmp(c->inputs[i], first) != 0) {
      fputs(" \\\n ", f);
      put_make_path(f, c->inputs[i]);
    }
  for (size_t i = 0; i < r->n_deps; i++)
    if (strcmp(r->deps[i], first) != 0) {
      fputs(" \\\n ", f);
      put_make_path(f, r->deps[i]);
    }
  fputc('\n', f);
}

/* An empty rule per header, so that make does not stop when a header is deleted. */
static void put_header_rules(FILE *f, const cp_result *r) {
  for (size_t i = 0; i < r->n_deps; i++) {
    fputc('\n', f);
    put_make_path(f, r->deps[i]);
    fputs(":\n", f);
  }
}

/* The rules of outputs [first, last) (paths[i] built from r->files[i]), as one text. */
static char *rules_text(const cli *c, const cp_result *r, char **paths, size_t first,
                        size_t last, size_t *len) {
  char *text = NULL;
  FILE *f = open_memstream(&text, len);
  if (!f)
    return NULL;
  for (size_t i = first; i < last; i++)
    put_rule(f, paths[i], c->o_dir ? r->files[i].path : c->input, c, r);
  put_header_rules(f, r);
  fclose(f);
  return text;
}

/* Everything a run writes, collected first, so that all of it is written or none
 * (cp_write_files) and none of it lands on a file the run reads or on another of its
 * files. `owned` holds what is freed after writing. */
typedef struct {
  cp_output *out;
  cp_named_file *named;
  char **owned;
  size_t n, n_owned;
} write_plan;

static void plan_add(write_plan *p, const char *role, char *path, char *data, size_t len,
                     int owns_data) {
  p->out[p->n] = (cp_output){path, data, len};
  p->named[p->n++] = (cp_named_file){role, path};
  p->owned[p->n_owned++] = path;
  if (owns_data)
    p->owned[p->n_owned++] = data;
}

/* -MD: with -o, OUTPUT's stem with .d (or the -MF FILE), as a compiler names it; with
 * --o-dir, OUTPUT.d beside each output (OUTPUT.d, not the stem, since a converted header
 * k.h and an input k.cu may share the directory), or one rule per output in the -MF FILE. */
static void plan_depfiles(write_plan *p, const cli *c, const cp_result *r, char **paths) {
  size_t len = 0;
  char *text;
  if (c->mf || !c->o_dir) {
    text = rules_text(c, r, paths, 0, c->o_dir ? r->n_files : 1, &len);
    plan_add(p, c->mf ? "-MF" : "the dependency file",
             c->mf ? strdup(c->mf) : cp_depfile_path(c->output), text, len, 1);
    return;
  }
  for (size_t i = 0; i < r->n_files; i++) {
    size_t n = strlen(paths[i]) + 3;
    char *path = malloc(n);
    snprintf(path, n, "%s.d", paths[i]);
    text = rules_text(c, r, paths, i, i + 1, &len);
    plan_add(p, "the dependency file", path, text, len, 1);
  }
}

/* The directory whose layout --o-dir reproduces: the deepest one holding every file of
 * the run (with `src/main.cu src/move.cu` and the header src/inc/atom.h, src/: the
 * outputs are out/main.cu, out/move.cu, out/inc/atom.h, and the includes still find each
 * other). NULL if a path cannot be resolved. */
static char *find_layout_base(const cp_result *r) {
  char *base = NULL;
  for (size_t i = 0; i < r->n_files; i++) {
    char *real = realpath(r->files[i].path, NULL);
    if (!real) {
      free(base);
      return NULL;
    }
    *strrchr(real, '/') = '\0'; /* its directory ("" for the root) */
    if (!base) {
      base = real;
      continue;
    }
    size_t k = 0, keep = 0; /* the longest common prefix that ends a path component */
    while (base[k] && base[k] == real[k]) {
      k++;
      if (base[k] == '/' || base[k] == '\0')
        keep = (real[k] == '/' || real[k] == '\0') ? k : keep;
    }
    base[keep] = '\0';
    free(real);
  }
  return base;
}

/* layout_base, found once per result: output_path asks for it once per file. */
static char *layout_base(const cp_result *r) {
  static const cp_result *of;
  static char *base;
  if (of != r || !base) {
    free(base);
    base = find_layout_base(r);
    of = r;
  }
  return base ? strdup(base) : NULL;
}

/* Where a file of the run is written: -o FILE for the one input, or under --o-dir at its
 * place relative to layout_base(). */
static char *output_path(const cli *c, const cp_result *r, const cp_file_result *f) {
  if (!c->o_dir)
    return strdup(c->output);
  char *base = layout_base(r), *real = realpath(f->path, NULL);
  if (!base || !real) {
    cp_tool_error("cannot resolve the path of '%s': %s", f->path, strerror(errno));
    free(base);
    free(real);
    return NULL;
  }
  const char *name = real + strlen(base) + 1;
  int dir = (int)strlen(c->o_dir); /* out/ and out name one file out/k.cu, as make sees it */
  while (dir > 1 && c->o_dir[dir - 1] == '/')
    dir--;
  size_t n = (size_t)dir + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%.*s/%s", dir, c->o_dir, name);
  free(base);
  free(real);
  return p;
}

/* mkdir -p of the directory part of `path`. */
static int make_parents(const char *path) {
  char *p = strdup(path);
  for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      cp_tool_error("cannot create directory '%s': %s", p, strerror(errno));
      free(p);
      return -1;
    }
    *s = '/';
  }
  free(p);
  return 0;
}

/* A path as git labels it in a diff: `a/` or `b/` before it, without its leading `./`
 * or `/` (as `git diff --no-index` writes an absolute path). The caller frees. */
static char *git_label(const char *side, const char *path) {
  while (path[0] == '.' && path[1] == '/')
    path += 2;
  while (path[0] == '/')
    path++;
  size_t n = strlen(side) + strlen(path) + 1;
  char *label = malloc(n);
  snprintf(label, n, "%s%s", side, path);
  return label;
}

static void print_git_diff(const char *old_path, const char *new_path, const char *old,
                           size_t old_len, const char *neu, size_t new_len) {
  char *a = git_label("a/", old_path), *b = git_label("b/", new_path);
  cp_print_diff(stdout, a, b, old, old_len, neu, new_len);
  free(a);
  free(b);
}

/* --check: 0 when every output on disk is what this run would write. Each one that is
 * not is named on stderr, and (with `show`) what differs is printed on stdout: the diff
 * from the file on disk to what would be written. */
static int check_outputs(const cli *c, const cp_result *r, int show) {
  int status = CP_EXIT_OK;
  for (size_t i = 0; i < r->n_files; i++) {
    const cp_file_result *f = &r->files[i];
    char *path = output_path(c, r, f);
    if (!path)
      return CP_EXIT_ERRORS;
    size_t len = 0;
    char *old = cp_read_file(path, CP_MAX_SOURCE, &len);
    if (!old || len != f->output_len || memcmp(old, f->output, len) != 0) {
      const char *what = old ? "out of date" : "missing";
      if (!cp_diag_is_text())
        cp_tool_error("'%s' is %s", path, what);
      else if (f->is_header) /* written by the run of the sources that include it */
        fprintf(stderr, "cpconvert: '%s' is %s; run this conversion of %s%s again without "
                "--check\n", path, what, c->inputs[0], c->n_inputs > 1 ? " and the others" : "");
      else
        fprintf(stderr, "cpconvert: '%s' is %s; convert '%s' again\n", path, what, f->path);
      if (old && show)
        print_git_diff(path, path, old, len, f->output, f->output_len);
      status = CP_EXIT_ERRORS;
    }
    free(old);
    free(path);
  }
  return status;
}

/* The files the run read: its inputs and every header they include, none of which it
 * may write over (an input named k.d with -o k.cu -MD, -MF naming an input). */
static cp_named_file *files_read(const cli *c, const cp_result *r, size_t *n) {
  cp_named_file *reads = calloc((size_t)c->n_inputs + r->n_deps + r->n_files + 1, sizeof *reads);
  *n = 0;
  for (int i = 0; i < c->n_inputs; i++)
    reads[(*n)++] = (cp_named_file){"the input", c->inputs[i]};
  for (size_t i = 0; i < r->n_files; i++)
    if (r->files[i].is_header)
      reads[(*n)++] = (cp_named_file){"the header", r->files[i].path};
  for (size_t i = 0; i < r->n_deps; i++)
    reads[(*n)++] = (cp_named_file){"the header", r->deps[i]};
  return reads;
}

/* --stats-csv: the CSV text. */
static char *stats_csv_text(const cp_result *r, size_t *len) {
  char *text = NULL;
  FILE *f = open_memstream(&text, len);
  if (!f)
    return NULL;
  cp_write_stats_csv(f, r);
  fclose(f);
  return text;
}

/* The files of a run without errors: its outputs (with `outputs`; not for --diff,
 * --dump-edits, --check), their dependency files (-MD) and the --stats-csv file. */
static int plan_files(write_plan *p, const cli *c, const cp_result *r, int outputs) {
  char **paths = calloc(r->n_files + 1, sizeof *paths);
  int ok = 1;
  for (size_t i = 0; outputs && i < r->n_files && ok; i++)
    ok = (paths[i] = output_path(c, r, &r->files[i])) != NULL;
  for (size_t i = 0; outputs && ok && i < r->n_files; i++)
    plan_add(p, "the output", strdup(paths[i]), r->files[i].output, r->files[i].output_len, 0);
  if (outputs && ok && c->md)
    plan_depfiles(p, c, r, paths);
  size_t len = 0;
  char *csv = ok && c->stats_csv ? stats_csv_text(r, &len) : NULL;
  if (csv)
    plan_add(p, "--stats-csv", strdup(c->stats_csv), csv, len, 1);
  for (size_t i = 0; i < r->n_files; i++)
    free(paths[i]);
  free(paths);
  return ok ? 0 : -1;
}

/* Writes what a run without errors writes (plan_files), all of it or nothing: every
 * path is checked against the files the run read and against the others first. */
static int write_files(const cli *c, const cp_result *r, int outputs) {
  size_t cap = 2 * r->n_files + 4, n_reads = 0;
  write_plan p = {calloc(cap, sizeof *p.out), calloc(cap, sizeof *p.named),
                  calloc(2 * cap, sizeof *p.owned), 0, 0};
  cp_named_file *reads = files_read(c, r, &n_reads);
  int ok = plan_files(&p, c, r, outputs) == 0 && !cp_clash(p.named, p.n, reads, n_reads);
  for (size_t i = 0; ok && c->o_dir && i < p.n; i++) /* DIR and its subdirectories */
    ok = (strcmp(p.named[i].role, "the output") != 0 &&
          strcmp(p.named[i].role, "the dependency file") != 0) || make_parents(p.out[i].path) == 0;
  ok = ok && cp_write_files(p.out, p.n) == 0;
  for (size_t i = 0; i < p.n_owned; i++)
    free(p.owned[i]);
  free(p.owned);
  free(p.named);
  free(p.out);
  free(reads);
  return ok ? CP_EXIT_OK : CP_EXIT_ERRORS;
}

/* What the run does with a result without errors. */
static int deliver(const cli *c, const cp_result *r) {
  for (size_t i = 0; i < r->n_files; i++) {
    const cp_file_result *f = &r->files[i];
    if (c->dump_edits) {
      if (r->n_files > 1)
        printf("# %s\n", f->path);
      cp_dump_edits(&f->edits);
    } else if (c->diff) { /* labels relative to the current directory, as git's */
      char *from = cp_relative_to_cwd(f->path);
      char *path = c->o_dir || c->output ? output_path(c, r, f) : strdup(from);
      print_git_diff(from, path ? path : from, f->input_text, f->input_len, f->output,
                     f->output_len);
      free(path);
      free(from);
    }
  }
  int outputs = !c->dump_edits && !c->diff && !c->check;
  if (c->check && check_outputs(c, r, !c->dump_edits && !c->diff) != CP_EXIT_OK)
    return CP_EXIT_ERRORS; /* with --diff or --dump-edits too: they print, --check decides */
  if (outputs && c->stats)
    cp_print_stats(stdout, r);
  return write_files(c, r, outputs);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Converts (or, with --suggest, analyses), prints the diagnostics, and delivers what a
 * run without errors produced. */
static int convert(const cli *c, const cp_options *opts) {
  double start = now();
  cp_result *r = cp_convert_deep(opts, c->n_inputs);
  int status;
  for (int i = 0; i < c->n_inputs; i++) {
    if (r->pch_refused)
      cp_cache_forget(opts[i].pch);
    if (r->output_pch_refused)
      cp_cache_forget(opts[i].output_pch);
  }
  for (size_t i = 0; i < r->n_diags; i++)
    cp_print_diag(stderr, &r->diags[i]);
  size_t n_read = 0;
  cp_named_file *read = c->diag_output ? files_read(c, r, &n_read) : NULL;
  cp_named_file doc = {"--diagnostics-output", c->diag_output};
  if (read && cp_clash(&doc, 1, read, n_read)) {
    cp_set_diag_output(NULL); /* never over a header: the document goes to stderr */
    r->n_errors++;
  }
  free(read);
  unsigned n_errors = r->n_errors + cp_warnings_as_errors(); /* -Werror */
  if (c->suggest && !n_errors) {
    cp_print_suggestions(stdout, r);
    status = CP_EXIT_OK;
  } else if (n_errors || !r->output) {
    if (cp_errors_held_back() && cp_diag_is_text())
      fprintf(stderr, "cpconvert: fatal error: too many errors emitted, %u more not shown "
                      "(-ferror-limit=N to change the limit, 0 for none)\n",
              cp_errors_held_back());
    if (cp_diag_is_text())
      fprintf(stderr, "%u error%s generated; no output written.\n", n_errors,
              n_errors == 1 ? "" : "s");
    status = CP_EXIT_ERRORS;
  } else {
    status = deliver(c, r);
    if (status == CP_EXIT_OK && cp_progress_wanted(c) && (c->n_inputs > 1 || c->verbose))
      cp_print_summary(stderr, r, now() - start);
  }
  cp_result_free(r);
  return status;
}

/* The parser flags of input `i`: from compile_commands.json with -p, then the command
 * line's own. NULL after an error. */
static const char **input_flags(const cli *c, int i, int *n) {
  if (!c->build_dir) {
    *n = c->n_clang_args;
    return c->clang_args;
  }
  return cp_compdb_flags(c->build_dir, c->inputs[i], c->clang_args, c->n_clang_args, n);
}

/* This run's command line, for a background builder, and whether this run is one
 * (CP_PCH_BUILDER_ARG). */
static int g_argc, g_pch_builder, g_given_argc;
static char **g_argv, **g_given_argv;

/* 1 when another input of the run needs the same PCH as input `i`. */
static int shared_pch(char **paths, int n, int i) {
  for (int j = 0; j < n; j++)
    if (j != i && paths[j] && strcmp(paths[j], paths[i]) == 0)
      return 1;
  return 0;
}

/* Builds the PCH at `path` now, when that saves the user time (docs/design.md,
 * "Conversion time"): when several inputs of the run share it, the build pays back
 * from the second file on; a single input converts faster with a plain parse, and
 * leaves the build to the background (*later). CPCONVERT_CACHE_SYNC=1 always builds now,
 * for scripts and tests whose next run must find the PCH. A builder builds, and gives
 * up when another process is already building that PCH. */
static void build_missing(const cp_options *opt, char **paths, int n, int i, int *later) {
  const char *sync = getenv("CPCONVERT_CACHE_SYNC");
  if (g_pch_builder)
    cp_cache_build(opt, paths[i], 0);
  else if ((sync && strcmp(sync, "1") == 0) || shared_pch(paths, n, i))
    cp_cache_build(opt, paths[i], 1);
  else if (cp_cache_can_build(paths[i]))
    *later = 1; /* else another process is building it, or the cache is read-only */
}

/* 1 when the input's own flags load a precompiled header (-include-pch): clang takes
 * one, so the cache's would take its place. */
static int own_pch(const cp_options *o) {
  for (int i = 0; i < o->n_clang_args; i++)
    if (strncmp(o->clang_args[i], "-include-pch", 12) == 0)
      return 1;
  return 0;
}

/* Gives input i the PCH at paths[i] (for its outputs with `output`) when it passes its
 * check, building a missing or damaged one first where that pays (build_missing). An
 * earlier input with the same PCH has checked it already. The headers the PCH holds go
 * with it (cp_options.pch_deps), allocated in `a`. */
static void give_pch(cp_options *opts, int output, char **paths, int n, int i, cp_arena *a,
                     int *later) {
  cp_options o = opts[i];
  const char **deps = NULL;
  size_t n_deps = 0;
  o.pch_output = output;
  int j = 0;
  while (j < i && !(paths[j] && strcmp(paths[j], paths[i]) == 0))
    j++;
  const char *had = j < i ? (output ? opts[j].output_pch : opts[j].pch) : NULL;
  int st = j < i ? (had ? 1 : 0) : cp_cache_check(paths[i], a, &deps, &n_deps);
  if (j == i && st != 1) {
    build_missing(&o, paths, n, i, later);
    st = cp_cache_check(paths[i], a, &deps, &n_deps);
  }
  if (st != 1)
    return;
  if (output) {
    opts[i].output_pch = strdup(paths[i]);
  } else {
    opts[i].pch = strdup(paths[i]);
    opts[i].pch_deps = j < i ? opts[j].pch_deps : deps;
    opts[i].n_pch_deps = j < i ? opts[j].n_pch_deps : n_deps;
  }
}

/* Gives each input the cached PCHs for its flags, when there are (the file then parses
 * on top of one, and its output, parsed again by verify.c, on top of the other, which
 * holds the runtime too); a missing or damaged one is built now or later
 * (build_missing). Inputs with the same flags share them. Without a usable cache an
 * input simply parses without one. Returns 1 when a background build should follow the
 * conversion. */
static int use_cache(const cli *c, cp_options *opts, cp_arena *a) {
  int n = c->n_inputs, later = 0;
  char **paths = calloc((size_t)n, sizeof *paths);
  for (int output = 0; output <= !c->no_verify; output++) {
    for (int i = 0; i < n; i++) { /* the built-in prelude parses in ~0.01 s: never cached */
      cp_options o = opts[i];
      o.pch_output = output;
      paths[i] = o.cuda_path && !own_pch(&o) ? cp_cache_path(&o) : NULL;
    }
    for (int i = 0; i < n; i++)
      if (paths[i])
        give_pch(opts, output, paths, n, i, a, &later);
    for (int i = 0; i < n; i++)
      free(paths[i]);
  }
  free(paths);
  return later;
}

/* The options input i's output names in its first line: the command line's, then each -D
 * and -U that -p took from the build's compile command (the first n_db of its flags),
 * which shaped its parse as much. The caller frees. */
static char *input_header(const char *header, const char **flags, int n_db) {
  size_t len = strlen(header) + 1;
  for (int k = 0; k < n_db; k++)
    len += strlen(flags[k]) + 32;
  char *h = malloc(len);
  size_t n = (size_t)snprintf(h, len, "%s", header);
  for (int k = 0; k + 1 < n_db; k++)
    if (strcmp(flags[k], "-D") == 0 || strcmp(flags[k], "-U") == 0) {
      size_t v = strlen(flags[k + 1]); /* a long value by its start, as options.c shows it */
      n += (size_t)(v > 256 ? snprintf(h + n, len - n, " %s%.64s... (%zu bytes)", flags[k],
                                       flags[k + 1], v)
                            : snprintf(h + n, len - n, " %s%s", flags[k], flags[k + 1]));
      k++;
    }
  return h;
}

/* --use-profile: the local variables the profile's budget keeps in float (var sites that
 * never carried an error term, or whose error reaches no output; explain.c), as keep
 * hints; 0, or -1 after a located error. The strings are copies: the budget is freed. */
static int profile_hints(const char *path, cp_keep_hint **out, size_t *n) {
  cp_budget b;
  if (cp_budget_read(path, &b) != 0) {
    cp_budget_free(&b); /* what was read before the error */
    return -1;
  }
  *out = calloc(b.keep.n + 1, sizeof **out);
  for (size_t i = 0; i < b.keep.n; i++) {
    const cp_site *s = b.keep.at[i].site;
    if (s->kind == CP_SITE_VAR && *s->function && *s->name)
      (*out)[(*n)++] = (cp_keep_hint){strdup(s->function), strdup(s->name)};
  }
  cp_budget_free(&b);
  return 0;
}

static int run(cli *c) {
  char **texts = calloc((size_t)c->n_inputs, sizeof *texts);
  const char ***flags = calloc((size_t)c->n_inputs, sizeof *flags);
  char **headers = calloc((size_t)c->n_inputs, sizeof *headers);
  cp_options *opts = calloc((size_t)c->n_inputs, sizeof *opts);
  char header[sizeof c->header_options + 96], more[64] = "";
  if (c->header_left_out)
    snprintf(more, sizeof more, " and %d more option%s not shown here", c->header_left_out,
             c->header_left_out == 1 ? "" : "s");
  snprintf(header, sizeof header, "--algo %s%s%s",
           c->algo == CP_ALGO_PAPER  ? "paper"
           : c->algo == CP_ALGO_FAST ? "fast"
           : c->algo == CP_ALGO_MID  ? "mid"
                                     : "accurate",
           c->header_options, more);
  const char *cuda = c->no_cuda ? NULL : cp_find_cuda(c->cuda_path);
  int status = CP_EXIT_OK;
  size_t n_hints = 0;
  cp_keep_hint *hints = NULL;
  if (c->use_profile && profile_hints(c->use_profile, &hints, &n_hints) != 0)
    status = CP_EXIT_ERRORS;
  if (c->cuda_path && !c->no_cuda && !cuda) {
    cp_tool_error("--cuda-path '%s' holds no include/cuda_runtime.h", c->cuda_path);
    status = CP_EXIT_ERRORS;
  }
  for (int i = 0; i < c->n_inputs && status == CP_EXIT_OK; i++) {
    size_t len = 0;
    int n_flags = 0;
    if (g_pch_builder) /* needs the flags only: the input may be gone by now */
      texts[i] = strdup("");
    else if (!(texts[i] = cp_read_file(c->inputs[i], CP_MAX_SOURCE, &len))) {
      cp_tool_error("cannot read '%s': %s", c->inputs[i], cp_strerror(errno));
      status = CP_EXIT_ERRORS;
    }
    if (status == CP_EXIT_OK && !(flags[i] = input_flags(c, i, &n_flags)))
      status = CP_EXIT_ERRORS; /* a builder too: its PCH is the one these flags need */
    headers[i] = input_header(header, flags[i], c->build_dir ? n_flags - c->n_clang_args : 0);
    opts[i] = (cp_options){
        .input = c->inputs[i], .input_text = texts[i], .input_len = len,
        .clang_args = flags[i], .n_clang_args = n_flags, .cuda_path = cuda,
        .clang_resources = cuda ? cp_find_clang_resources() : NULL, .algo = c->algo,
        .backend = c->backend,
        .all = c->all, .scope = c->scope, .accumulate = c->accumulate,
        .line_directives = c->line_directives || c->profile, .suggest = c->suggest, .header_options = headers[i],
        .pair_names = c->pair_names, .n_pair_names = c->n_pair_names,
        .edit_headers = c->o_dir || (c->diff && !c->output), .version = CPCONVERT_VERSION,
        .no_verify = c->no_verify, .profile = c->profile,
        .keep_hints = hints, .n_keep_hints = n_hints, .split = !c->stats_csv,
        .progress = cp_progress_wanted(c) ? cp_progress : NULL,
        .spread = c->jobs > 1 ? cp_spread : NULL, .spread_ctx = &c->jobs,
    };
  }
  if (!c->jobs)
    c->jobs = cp_default_jobs();
  cp_arena *pch_arena = cp_arena_new();
  int later = status == CP_EXIT_OK && !c->no_cache && use_cache(c, opts, pch_arena);
  if (status == CP_EXIT_OK && !g_pch_builder)
    status = convert(c, opts);
  if (later) /* after the output is written and the status decided */
    cp_cache_build_later(g_argc, g_argv, g_given_argc, g_given_argv);
  for (int i = 0; i < c->n_inputs; i++) {
    free(texts[i]);
    free((char *)opts[i].pch);
    free((char *)opts[i].output_pch);
    if (flags[i] != c->clang_args)
      free((void *)flags[i]);
    free(headers[i]);
  }
  free(headers);
  cp_arena_free(pch_arena);
  free(texts);
  free(flags);
  free(opts);
  for (size_t i = 0; i < n_hints; i++)
    free((char *)hints[i].function), free((char *)hints[i].var);
  free(hints);
  return status;
}

int main(int argc, char **argv) {
  static char errbuf[1 << 16]; /* whole lines, not a write per byte, on standard error */
  setvbuf(stderr, errbuf, _IOLBF, sizeof errbuf);
  /* A write past the file size limit (`ulimit -f`) fails with EFBIG and a message that
   * names the file, instead of SIGXFSZ ending the run mid-write with its temporary file
   * left behind (files.c removes it). The PCH builder inherits this; its child fails alone. */
  signal(SIGXFSZ, SIG_IGN);
  cli c = {.algo = CP_ALGO_ACCURATE};
  int builder = argc > 1 && strcmp(argv[1], CP_PCH_BUILDER_ARG) == 0;
  if (builder) {
    g_pch_builder = 1;
    cp_cache_builder_start();
    argv[1] = argv[0];
    argc--;
    argv++;
  }
  char **args = NULL;
  int n = 0, status = cp_expand_args(argc, argv, &n, &args);
  g_argc = n; /* a background builder gets the arguments as read: a response file may be gone */
  g_argv = args;
  g_given_argc = argc;
  g_given_argv = argv;
  if (status < 0)
    status = cp_parse_args(n, args, &c);
  cp_set_diag_level(c.no_warnings ? CP_ERROR : c.quiet ? CP_WARNING : CP_NOTE);
  if (status < 0 && c.list_rules) {
    cp_list_rules(c.markdown);
    status = CP_EXIT_OK;
  }
  if (status < 0 && (status = cp_check_usage(&c)) < 0) {
    if (c.diag_output && cp_check_writable("--diagnostics-output", c.diag_output) != 0)
      status = CP_EXIT_ERRORS; /* the document, with this error, goes to stderr */
    else {
      cp_set_diag_output(c.diag_output);
      status = c.explain ? cp_explain(c.explain, c.output, c.diag_format == CP_DIAG_JSON)
                         : run(&c);
    }
  }
  status = cp_finish_diags(status);
  cp_cli_free(&c);
  for (int i = 0; i < n; i++)
    free(args[i]);
  free(args);
  return status;
}
