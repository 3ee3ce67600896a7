/*
 * tool.h: the command line's own pieces (tool/): option parsing, printing diagnostics,
 * reading the input and writing the output. Only tool/ prints or touches files.
 */
#ifndef CPCONVERT_TOOL_H
#define CPCONVERT_TOOL_H

#include <stdio.h>

#include "rewriter.h"

enum { CP_EXIT_OK = 0, CP_EXIT_ERRORS = 1, CP_EXIT_USAGE = 2 };

#ifndef CPCONVERT_VERSION
#define CPCONVERT_VERSION "unknown"
#endif

/* The command line, as options.c parses it. */
typedef struct {
  const char *input, *output, *cuda_path;
  int no_cuda, dump_edits, list_rules, markdown, all, stats, diff, check, md;
  int line_directives, suggest, no_cache, no_verify, profile;
  int quiet, no_warnings; /* -q: no notes; -w: no warnings or notes */
  int verbose;            /* -v: progress and summary even when stderr is no terminal */
  int jobs;               /* -j N: worker processes (workers.c); 0: the default */
  int diag_format;        /* --diagnostics-format: a cp_diag_format */
  const char *diag_output; /* --diagnostics-output FILE: its document there, not on stderr */
  const char *mf, *stats_csv, *build_dir;
  const char *explain; /* --explain PROFILE: the error budget, no conversion */
  const char *use_profile; /* --use-profile PROFILE: its keep() candidates stay float */
  cp_algo algo;
  cp_backend backend;
  cp_scope scope;
  cp_accum accumulate;
  const char **clang_args; /* -I, -D, -U and what follows `--`, for every input */
  int n_clang_args;
  const char **pair_names;
  int n_pair_names;
  const char **inputs; /* every input; `input` is the first */
  int n_inputs;
  const char *o_dir;
  char header_options[4096];
  int header_left_out; /* options that did not fit in header_options */
} cli;

/* workers.c: cp_options.spread for -j N (*(int *)jobs processes; fewer than 2: none). */
void cp_spread(void *jobs, unsigned n, char *(*task)(void *ctx, unsigned k, size_t *len),
               int (*take)(void *ctx, unsigned k, const char *bytes, size_t len), void *ctx);
/* The default of -j: the CPUs this process may run on, at most CP_MAX_DEFAULT_JOBS. */
enum { CP_MAX_DEFAULT_JOBS = 8 };
int cp_default_jobs(void);

/* options.c */
extern const char *const cp_usage_text[]; /* NULL-terminated pieces */
/* argv with every @FILE replaced by the arguments FILE holds (response files, as gcc and
 * clang read them): *out, *n_out of them, NULL-terminated; free each and the array. -1,
 * or the exit status after a message (an unreadable FILE). */
int cp_expand_args(int argc, char **argv, int *n_out, char ***out);
/* Fills `c` from argv. Returns -1 to go on, or the exit status (--help, --version, a
 * usage error, which it has printed). */
int cp_parse_args(int argc, char **argv, cli *c);
/* Frees what cp_parse_args allocated in c. */
void cp_cli_free(cli *c);
/* The combinations of inputs and outputs that make sense: -1 if this one does, else
 * the exit status after a message. */
int cp_check_usage(const cli *c);

/* diag.c: -ferror-limit=N (0: none; default 20): in the text format the errors past the
 * first N are counted, not printed (SARIF and JSON hold them all); how many were held back. */
void cp_set_error_limit(unsigned n);
unsigned cp_errors_held_back(void);

/* report.c: what the tool prints on stdout besides diffs, and the progress of a run. */
/* Whether a run shows its progress: on a text stderr, with -v or a terminal, not -q. */
int cp_progress_wanted(const cli *c);
/* cp_options.progress: `[i/n] stage file` on stderr. */
void cp_progress(void *ctx, const char *stage, const char *file, unsigned i, unsigned n);
/* The closing line of a run: files converted and headers written, warnings, time. */
void cp_print_summary(FILE *out, const cp_result *r, double seconds);
/* --list-rules: one rule a line, or (--markdown) docs/rules.md. */
void cp_list_rules(int markdown);
/* --dump-edits: one line per edit, OFFSET+LENGTH RULE "TEXT" (C-escaped). */
void cp_dump_edits(const cp_edit_list *list);
/* --stats: per file and function, what was converted; then the rules of the run. */
void cp_print_stats(FILE *out, const cp_result *r);
/* --suggest: every kernel and device function with the places where float loses most
 * and the pragma line that converts them. */
void cp_print_suggestions(FILE *out, const cp_result *r);
/* --stats-csv: the same as CSV rows, with a header line. */
void cp_write_stats_csv(FILE *out, const cp_result *r);

/* diag.c: prints `file:line:col: severity: message`, the source line and a caret, unless
 * its severity is below the level cp_set_diag_level set (-q, -w); in the machine formats
 * it keeps a copy for cp_finish_diags instead. */
void cp_print_diag(FILE *out, const cp_diag *d);
/* --diagnostics-format: text (printed as they come), or SARIF 2.1.0 or JSON (one document
 * on stderr at the end of the run, cp_finish_diags). */
typedef enum { CP_DIAG_TEXT, CP_DIAG_SARIF, CP_DIAG_JSON } cp_diag_format;
void cp_set_diag_format(cp_diag_format f);
/* 1 when diagnostics print as text, so that other lines on stderr are welcome. */
int cp_diag_is_text(void);
/* --diagnostics-output FILE: the machine formats' document is written to FILE
 * (atomically) instead of stderr; NULL: stderr. */
void cp_set_diag_output(const char *path);
/* The machine formats: prints the document of every diagnostic kept, with the run's exit
 * status, or writes it to the --diagnostics-output FILE. Frees them (in every format).
 * Returns `status`, or CP_EXIT_ERRORS after a message when FILE could not be written. */
int cp_finish_diags(int status);
/* The -W options: what becomes of the warnings of `rule` (a cp_rule), or of every
 * warning (rule -1: -Werror is CP_W_ERROR, -Wno-error CP_W_NO_ERROR). A silenced warning
 * is not printed; one made an error prints as an error, and the run then fails
 * (cp_warnings_as_errors). Later options win. */
typedef enum { CP_W_OFF, CP_W_ON, CP_W_ERROR, CP_W_NO_ERROR } cp_warning_control;
void cp_set_warning(int rule, cp_warning_control w);
/* How many warnings were printed as errors so far. */
unsigned cp_warnings_as_errors(void);
/* The least severity printed (diagnostics and cp_tool_warning): CP_NOTE by default. */
void cp_set_diag_level(cp_severity least);
/* An error of the tool itself (no source location): `cpconvert: error: ...`. */
void cp_tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cp_tool_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cp_tool_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* compdb.c: -p BUILD_DIR. The parser flags BUILD_DIR/compile_commands.json gives `input`
 * (the -I, -D, -U, -isystem, -include, -std of its compile command, paths made absolute),
 * followed by `extra` (the command line's own). NULL after an error message: no
 * database, or no command for `input`. The caller frees the array (not the strings). */
const char **cp_compdb_flags(const char *build_dir, const char *input, const char *const *extra,
                             int n_extra, int *n);

/* json.c: a strict RFC 8259 reader. The cursor: the text [start, end), the reading
 * position s, and the first failure (what was expected, `error`, at `at`). */
typedef struct {
  const char *s, *end, *start;
  const char *error, *at;
} cp_json;
#define CP_JSON_DEPTH 64
void cp_json_init(cp_json *j, const char *text, size_t len);
/* Records what was expected at j->s, unless a failure is recorded already; returns 0. */
int cp_json_fail(cp_json *j, const char *what);
void cp_json_space(cp_json *j);
/* Skips white space; takes `c` if it comes next (1), else 0 (nothing recorded). */
int cp_json_take(cp_json *j, char c);
/* A string, decoded to UTF-8 (the caller frees), or NULL after cp_json_fail. */
char *cp_json_string(cp_json *j);
/* Any value, skipped, `depth` levels deep already: 1, or 0 after cp_json_fail. */
int cp_json_skip(cp_json *j, int depth);
/* The 1-based line and column (in bytes) of `at` in the text. */
void cp_json_where(const cp_json *j, const char *at, unsigned *line, unsigned *col);
/* The tree: a value, where it starts in the text (`offset`), and its contents. An object's
 * members are items[i] named keys[i], in the order written (names are unique). */
typedef enum {
  CP_JSON_NULL, CP_JSON_BOOL, CP_JSON_NUMBER, CP_JSON_STRING, CP_JSON_ARRAY, CP_JSON_OBJECT
} cp_json_type;
typedef struct cp_json_value {
  cp_json_type type;
  size_t offset;
  int boolean;
  double number;
  char *string;
  size_t n;
  struct cp_json_value *items;
  char **keys;
} cp_json_value;
/* The value at the cursor, `depth` levels deep already, or NULL after cp_json_fail. */
cp_json_value *cp_json_value_at(cp_json *j, int depth);
/* The whole text as one value (nothing but white space after it), or NULL after
 * cp_json_fail. Free with cp_json_free. */
cp_json_value *cp_json_parse(cp_json *j);
void cp_json_free(cp_json_value *v);
/* The member `key` of object `obj`, or NULL (also when obj is no object). */
const cp_json_value *cp_json_member(const cp_json_value *obj, const char *key);

/* One argument after `--` on the command line (`next` the one after it, or NULL): nvcc's
 * own options, which clang rejects, are dropped (code generation: -arch=sm_90, -gencode X,
 * -Xcompiler X, --extended-lambda, -rdc=true, ...), nvcc's spellings of parser flags are
 * mapped to clang's (--define-macro X is -D X, --include-path, --system-include,
 * --pre-include, --undefine-macro), a flag that would make the parser write a file
 * (-MD, -MF X, -Xclang -dependency-dot -Xclang X, ...) dropped, anything else is clang's
 * and kept. `after` is the argument after `next`. Returns how many arguments it read (1 to
 * 4); out[0..*n_out) (2 at most) is what the parser gets, pointers to static text or into
 * `a` and `next`. */
int cp_nvcc_arg(const char *a, const char *next, const char *after, const char **out,
                int *n_out);

/* nvcc_options.c: whether `a` (with `next`) is one of nvcc's own options (nvcc 12 and 13,
 * `nvcc --help`), not a parser flag: how many arguments it takes (0: not nvcc's, or a
 * parser flag compdb.c maps: -D, -U, -I, -isystem, -include, -std); *define: the flag that
 * gives the parser the macro nvcc defines for it (-D__CUDACC_EXTENDED_LAMBDA__=1 for
 * --extended-lambda), or NULL. */
int cp_nvcc_option(const char *a, const char *next, const char **define);

/* diff.c: the minimal unified diff of `old` and `neu`, as GNU `diff -u` writes it under
 * the header lines `--- OLD_LABEL` and `+++ NEW_LABEL` (nothing if the texts are equal). */
void cp_print_diff(FILE *out, const char *old_label, const char *new_label, const char *old,
                   size_t old_len, const char *neu, size_t new_len);

/* files.c */
/* Reads a whole regular file of at most `max` bytes; returns NULL and sets errno on
 * failure, to CP_ENOTREG for a pipe, device or socket (never waited on) and CP_ETOOBIG past
 * `max`. The caller frees. */
char *cp_read_file(const char *path, size_t max, size_t *len);
enum { CP_ENOTREG = 100001, CP_ETOOBIG = 100002 };
/* The limits of what cp_read_file reads: an input or output, a response or options file,
 * a record of the PCH cache. */
#define CP_MAX_SOURCE ((size_t)1 << 30)
#define CP_MAX_ARGS_FILE ((size_t)64 << 20)
#define CP_MAX_RECORD ((size_t)16 << 20)
/* strerror, and what CP_ENOTREG and CP_ETOOBIG mean. */
const char *cp_strerror(int err);
/* Records a file the run reads besides its inputs and headers (a response file,
 * compile_commands.json), with what it is for messages: cp_clash never lets a write
 * land on it. */
void cp_note_read(const char *role, const char *path);
/* The index of the first of `paths` that names the same existing file as an earlier one,
 * or -1. */
long cp_duplicate(const char *const *paths, size_t n);
/* 0 when `path` can be written as cp_write_files writes it (a regular file or a new one in
 * a writable directory, or a device or pipe), else -1 after an error that names `role`. */
int cp_check_writable(const char *role, const char *path);
/* `path` relative to the current directory (`../inc/k.h`; symbolic links resolved), or a
 * copy of it when it does not exist. The caller frees. */
char *cp_relative_to_cwd(const char *path);
/* 1 when both paths name the same existing file. */
int cp_same_file(const char *a, const char *b);
/* 1 when both paths name the same place: the same existing file, or the same name in the
 * same directory (for files that do not exist yet: `out.cu` and `./out.cu`). */
int cp_same_target(const char *a, const char *b);
/* A file the run writes or reads, with what it is for messages ("the output"). */
typedef struct {
  const char *role, *path;
} cp_named_file;
/* 1 after an error message when one of `writes` is one of `reads`, a file noted with
 * cp_note_read or another of `writes` (cp_same_target). */
int cp_clash(const cp_named_file *writes, size_t n_writes, const cp_named_file *reads,
             size_t n_reads);
/* -MD's file for -o OUTPUT: OUTPUT with its extension replaced by .d. The caller frees. */
char *cp_depfile_path(const char *output);
/* One file to write. */
typedef struct {
  const char *path, *data;
  size_t len;
} cp_output;
/* Writes every file or none: each to a temporary file beside it first, then all renamed
 * into place, so that each path holds its old contents or all of the new ones, and a run
 * that cannot write one replaces none. A symbolic link to a regular file stays, and the
 * file it names is replaced; a character device or a pipe (/dev/null, /dev/stdout on a
 * terminal) is written through, not replaced; a directory or another kind of file is an
 * error. A file that holds the new bytes already is not written (its time stays). If a
 * rename fails midway, the files renamed before it are put back. Returns 0, or -1 after a
 * message, with the temporary files removed. */
int cp_write_files(const cp_output *files, size_t n);
/* The CUDA installation to parse against: `given` if set (NULL if it holds no
 * include/cuda_runtime.h), else the first of $CUDA_PATH, $CUDA_HOME, the prefix of
 * `nvcc` on PATH and /usr/local/cuda that holds it; NULL if none does. The returned
 * string is static or from the environment. */
const char *cp_find_cuda(const char *given);
/* The resource directory of the libclang this tool is built with, as the build found it
 * (static); NULL if it is gone. */
const char *cp_find_clang_resources(void);

/* stack.c: cp_convert_files on a thread with a stack deep enough for deeply nested
 * expressions (clang and the rewriter recurse once per level). */
cp_result *cp_convert_deep(const cp_options *opts, int n);

/* cache.c: the precompiled-header cache. The path the PCH for `opt`'s command line has
 * in the cache directory (created if missing; the caller frees the path), or NULL when
 * there is no cache directory. */
char *cp_cache_path(const cp_options *opt);
/* Checks the PCH at `path` against the record written with it (size and checksum, and
 * the contents' hash of each user header it holds), so that clang never reads a damaged
 * or stale one; a PCH or record that is not the user's own regular file is not used: 1 when it is whole (*deps, allocated in `a` when
 * `a` is not NULL, are the user headers it holds, for cp_options.pch_deps), 0 when there
 * is none, -1 when it is damaged or has no record (cp_cache_build replaces it). */
int cp_cache_check(const char *path, cp_arena *a, const char ***deps, size_t *n_deps);
/* Builds the PCH for `opt` and renames it into place at `path` (replacing a damaged
 * one), with its record: 0, or -1 (nothing is left behind; the run then parses without
 * it). Only one process builds at a time: with `wait` the others wait for it (20 s at
 * most, less when the builder is stopped), without they return -1 at once. */
int cp_cache_build(const cp_options *opt, const char *path, int wait);
/* 1 when a PCH could be built at `path` now: its lock file can be created (the cache is
 * writable) and no other process holds it (none is building that PCH). */
int cp_cache_can_build(const char *path);
/* Starts this program again, detached and in the background, to build the PCHs that the
 * command line `argv` (response files expanded) needs (see CP_PCH_BUILDER_ARG), or the one
 * given, `given_argv`, when `argv` is too long to pass on; does not wait for it. */
void cp_cache_build_later(int argc, char **argv, int given_argc, char **given_argv);
/* The first argument that makes cpconvert such a builder: it then only builds the
 * missing PCHs for the arguments that follow, prints nothing and writes no output. */
#define CP_PCH_BUILDER_ARG "--internal-pch-builder"
/* Called first in a builder: lowers its priority. */
void cp_cache_builder_start(void);
/* Removes a cached PCH that clang refused, so that the next run builds it again (unless
 * another process is building it now). */
void cp_cache_forget(const char *pch);

#endif
