/*
 * rewriter.h: the one interface between the command line (tool/) and the converter
 * (rewriter/).
 *
 * The rewriter parses one CUDA file with libclang, analyses it and produces the
 * converted text. It never prints, never exits and never touches the file system
 * except to read the input through libclang: every finding is a cp_diag in the result,
 * every change an edit in one list that is applied once. The tool decides what to
 * print and what to write.
 *
 * Memory: every allocation of a run comes from one arena (cp_arena) owned by the
 * result and released by cp_result_free(); nothing is freed piecemeal.
 */
#ifndef CPCONVERT_REWRITER_H
#define CPCONVERT_REWRITER_H

#include <stddef.h>

/* ---- arena ---------------------------------------------------------------------- */

typedef struct cp_arena cp_arena;

cp_arena *cp_arena_new(void);
void *cp_arena_alloc(cp_arena *a, size_t size);
/* An array's new home: `cap` elements of `size` bytes, the first `n` copied from `old`. */
void *cp_arena_grow(cp_arena *a, const void *old, size_t n, size_t cap, size_t size);
char *cp_arena_strndup(cp_arena *a, const char *s, size_t n);
char *cp_arena_strdup(cp_arena *a, const char *s);
char *cp_arena_printf(cp_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cp_arena_free(cp_arena *a);

/* ---- rules ---------------------------------------------------------------------- */

/* One row per rewrite rule; the table lives in rules.def. */
typedef enum {
#define CP_RULE(id, name, summary) CP_RULE_##id,
#include "rules.def"
  CP_RULE_COUNT
} cp_rule;

const char *cp_rule_name(cp_rule r);
const char *cp_rule_summary(cp_rule r);

/* ---- diagnostics ---------------------------------------------------------------- */

/* "Did you mean": the entry of `names` (NULL-terminated; empty entries are skipped)
 * closest to the misspelt `s`, when it is close enough to be the one meant, else NULL. */
const char *cp_closest_name(const char *s, const char *const *names);

typedef enum { CP_NOTE, CP_WARNING, CP_ERROR } cp_severity;

typedef struct {
  cp_severity severity;
  const char *file;      /* as the user named it; NULL for diagnostics with no place */
  unsigned line, col;    /* 1-based; col counts bytes, like clang and gcc */
  const char *line_text; /* the source line, without its end-of-line; NULL if unknown */
  const char *message;
} cp_diag;

/* ---- edits ---------------------------------------------------------------------- */

/* Replace `length` bytes at `offset` of the input by `text`. */
typedef struct {
  size_t offset, length;
  const char *text;
  cp_rule rule;
} cp_edit;

typedef struct {
  cp_edit *items;
  size_t count, capacity;
  unsigned per_rule[CP_RULE_COUNT];
} cp_edit_list;

void cp_edit_add(cp_arena *a, cp_edit_list *list, size_t offset, size_t length,
                 const char *text, cp_rule rule);
/* Whether the edits from index `from` on change `text` (the input they edit): some rewrite
 * an expression with the text it had. */
int cp_edits_change(const cp_edit_list *list, size_t from, const char *text);

/* The edits in the order cp_edit_apply applies them (by offset; at one offset insertions
 * first, in the order they were added). */
const cp_edit **cp_edit_sorted(cp_arena *a, const cp_edit_list *list);

/* Applies every edit to `input` in one pass. Returns 0, or -1 when two edits overlap
 * or one reaches past the end (an internal error: `*why` says which). */
int cp_edit_apply(cp_arena *a, cp_edit_list *list, const char *input, size_t input_len,
                  char **output, size_t *output_len, const char **why);
/* The input offset that byte `out` of the applied list's output comes from: an unchanged
 * byte's own place, or where the edit whose text holds it was made. */
size_t cp_edit_origin(cp_arena *a, const cp_edit_list *list, size_t out);

/* ---- a conversion run ----------------------------------------------------------- */

typedef enum { CP_ALGO_PAPER = 1, CP_ALGO_ACCURATE = 2, CP_ALGO_FAST = 3, CP_ALGO_MID = 4 } cp_algo;
/* The pragma clauses scope() and accumulate(); cp_options holds the defaults. */
typedef enum { CP_SCOPE_ALL, CP_SCOPE_ACCUMULATORS } cp_scope;
typedef enum { CP_ACC_COMPOSITE, CP_ACC_FIXED, CP_ACC_KAHAN, CP_ACC_DOUBLE } cp_accum;
/* --backend: the runtime's CP_BACKEND written into the output (auto writes nothing). */
typedef enum { CP_BE_AUTO, CP_BE_FF, CP_BE_DP } cp_backend;

/* A variable of an annotated function that stays float (keep_hints below). */
typedef struct {
  const char *function, *var;
} cp_keep_hint;

typedef struct {
  const char *input;             /* path of the .cu file, as the user named it */
  const char *input_text;        /* its bytes, read once by the caller */
  size_t input_len;
  const char *const *clang_args; /* -I, -D and the flags given after `--` */
  int n_clang_args;
  const char *cuda_path;         /* CUDA installation to parse against; NULL: prelude */
  const char *clang_resources;   /* clang's resource directory, named to the driver with
                                    the CUDA headers (parse.c); NULL: libclang's guess */
  cp_algo algo;
  cp_backend backend;            /* --backend: ff or dp forced in the output; auto: per GPU */
  int all;                       /* --all: convert every kernel, annotated or not */
  cp_scope scope;                /* --scope: for pragmas without a scope() clause */
  cp_accum accumulate;           /* --accumulate: for pragmas without accumulate() */
  const char *const *pair_names; /* --pair: externally owned buffers whose _err exists */
  int n_pair_names;
  int edit_headers;              /* --o-dir: headers needing companions are written too */
  int line_directives;           /* --line-directives: #line markers map to the input */
  int suggest;                   /* --suggest: analyse every kernel, find hotspots, convert
                                    nothing */
  const char *pch;               /* a precompiled header from cp_pch_build for this command
                                    line, or NULL; one clang refuses is not used */
  const char *output_pch;        /* the same for parsing the outputs again (verify.c): built
                                    with pch_output, the runtime headers included */
  int pch_output;                /* cp_pch_build, cp_pch_identity: the PCH for outputs */
  const char *const *pch_deps;   /* the user headers `pch` holds, as cp_pch_build reported
                                    them: listed in result->deps when the parse used it */
  size_t n_pch_deps;
  int device_parse;              /* parse as CUDA's device compilation (__CUDA_ARCH__ set):
                                    set by the rewriter itself, see convert.c */
  int host_view;                 /* the host compilation's view of such a run, whose edits
                                    fill its host-only branches (convert.c): no retry in
                                    device mode, no verify */
  const unsigned *carried;       /* host view: offsets in `input` of the declarations of
                                    the locals the device view carries as accumulate()
                                    says (convert.c), which this view carries too */
  size_t n_carried;
  const char *header_options;    /* the options echoed in the output's header comment */
  int no_verify;                 /* --no-verify: do not parse the output again (verify.c) */
  int profile;                   /* --profile: the output records its sites (profile.c) */
  /* Called (when set) as each input is parsed and each output checked, so that the tool
   * can show a long run's progress: stage "parse" or "check", the file, its index (from
   * 1) among n. The rewriter itself prints nothing. */
  void (*progress)(void *ctx, const char *stage, const char *file, unsigned i, unsigned n);
  void *progress_ctx;
  const char *version;
  /* --use-profile: variables a profiled run showed never carrying an error term, each to
   * stay float as if keep() named it in its function's pragma; a function or variable the
   * run does not find is a warning (the source changed since the profile). */
  const cp_keep_hint *keep_hints;
  size_t n_keep_hints;
  /* Inputs that share nothing (driver/split.c) may be converted one after another, each
   * translation unit released before the next is parsed; set by a caller that does not
   * need result->funcs in the joint run's order (the tool's --stats-csv does). */
  int split;
  /* Set by a caller that can run work in other processes (the tool's -j N): split.c hands
   * it the inputs it converts alone, which share nothing, as n tasks. It calls task(ctx, k,
   * &len), which returns a malloc'd byte string, for each k < n, in whichever processes
   * and order it likes, and take(ctx, k, bytes, len) in this process with each task's
   * bytes in the order of k, until take returns non-zero. What it does not take (a worker
   * lost, take's stop), split.c converts itself. */
  void (*spread)(void *spread_ctx, unsigned n, char *(*task)(void *ctx, unsigned k, size_t *len),
                 int (*take)(void *ctx, unsigned k, const char *bytes, size_t len), void *ctx);
  void *spread_ctx;
} cp_options;

/* What a run converted, for --stats. */
typedef struct {
  const char *name;
  int kind; /* 0 __device__, 1 __global__, 2 host */
  unsigned paired; /* buffer parameters and host pointers given a companion */
  const char *file; /* the input that defines it */
  unsigned line;    /* of its name */
  unsigned applied[CP_RULE_COUNT]; /* applications of each rule inside it (float-call:
                                      calls left in float) */
  unsigned col;
  const char *pragma; /* its `#pragma cp composite ...` line; NULL if not annotated */
} cp_func_stat;

/* --suggest: a place where single precision loses most. */
typedef enum {
  CP_HOT_LOOP_SUM, /* a float local summed into across the iterations of a loop */
  CP_HOT_TREE,     /* a shared-memory reduction tree */
  CP_HOT_ATOMIC,   /* a float atomicAdd */
  CP_HOT_CHAIN,    /* a long chain of dependent float additions in one expression */
  CP_HOT_UPDATE    /* a buffer element summed into in place, so across launches */
} cp_hotspot_kind;

typedef struct {
  size_t func;          /* index into result->funcs */
  cp_hotspot_kind kind;
  unsigned line, col;   /* in result->funcs[func].file */
  const char *reason;
  int accumulators;     /* scope(accumulators) converts it; else scope(all) is needed */
} cp_hotspot;

/* One output of a run: an input converted, or a header given companion declarations. */
typedef struct {
  const char *path;       /* the input's path, or the header's as the parser found it */
  const char *input_text; /* what it was */
  size_t input_len;
  cp_edit_list edits;
  char *output;           /* what it becomes (NULL when the run had errors) */
  size_t output_len;
  int is_header;
} cp_file_result;

typedef struct {
  cp_arena *arena;
  cp_diag *diags;
  size_t n_diags, cap_diags;
  unsigned n_errors, n_warnings;
  cp_edit_list edits;
  unsigned applied[CP_RULE_COUNT]; /* how often each rule was applied (or refused) */
  cp_func_stat *funcs;             /* the converted functions, in source order */
  size_t n_funcs;
  cp_hotspot *hotspots;            /* --suggest: in source order per function */
  size_t n_hotspots, cap_hotspots;
  const char **deps;               /* files the inputs include, outside system headers,
                                      once each in the order first included */
  size_t n_deps;
  cp_file_result *files;           /* every output: the inputs in order, then headers */
  size_t n_files;
  char *output; /* the converted text, NULL when there were errors */
  size_t output_len;
  int pch_refused; /* opt->pch was given and clang could not use it */
  int output_pch_refused; /* the same for opt->output_pch */
  int algo_lowered; /* the outputs select the fast family (a pragma's accuracy(low)) */
  int device_view;  /* the run was converted again as the device compilation sees it */
} cp_result;

/* Converts one file. Always returns a result (free it with cp_result_free); the
 * conversion succeeded when result->n_errors == 0 and result->output != NULL. */
cp_result *cp_convert(const cp_options *opt);
/* Converts several files in one run, sharing one analysis: a kernel defined in one and
 * launched in another, a buffer allocated in one and passed in another, pair across
 * them. opts[i] describes input i (the same flags for all). result->files holds every
 * output; result->edits/output are those of the first input. */
cp_result *cp_convert_files(const cp_options *opts, int n);
/* Builds a precompiled header of what every file parsed with `opt`'s command line
 * includes (the CUDA headers or the prelude, and with opt->pch_output the runtime
 * configured as the outputs configure it; opt->input and opt->pch are not used) and
 * saves it to `path`: the one file the rewriter writes, since only libclang can
 * serialise its AST. 0 on success, with *deps (n_deps, allocated in `deps_arena`) the user
 * headers the PCH holds (a force-included `-include cfg.h`), which a parse on top of the
 * PCH does not see included; on failure `path` may hold a partial file, which the caller
 * removes. */
int cp_pch_build(const cp_options *opt, const char *path, cp_arena *deps_arena,
                 const char ***deps, size_t *n_deps);
/* Text naming everything in such a PCH that the parser decides: libclang's version, the
 * clang command line, the prelude. The caller hashes it into the cache key. */
const char *cp_pch_identity(cp_arena *a, const cp_options *opt);
/* Short names of the hotspot kinds (loop-sum, reduction-tree, atomic, chain,
 * buffer-update). */
const char *cp_hotspot_name(cp_hotspot_kind k);
void cp_result_free(cp_result *r);

/* Records a diagnostic in the result. `line_text` may be NULL. */
void cp_diag_add(cp_result *r, cp_severity sev, const char *file, unsigned line,
                 unsigned col, const char *line_text, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* The marker that starts every output's first line; an input that starts with it has
 * already been converted and is refused. */
#define CP_OUTPUT_MARKER "// Generated by cpconvert "

#endif
