/*
 * main.c: the cpconvert command line.
 *
 * Reads the options, reads the input once, hands both to the rewriter, prints what it
 * found, and writes the output atomically when the run had no error. Exit status: 0
 * converted, 1 errors (in the input or with files), 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool.h"

#ifndef CPCONVERT_VERSION
#define CPCONVERT_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: cpconvert INPUT.cu -o OUTPUT.cu [options] [-- compiler flags]\n"
    "       cpconvert INPUT.cu... --o-dir DIR [options] [-- compiler flags]\n"
    "\n"
    "Converts the CUDA functions annotated with `#pragma cp composite` from float to\n"
    "composite precision (value + error pairs) and writes the result to OUTPUT.cu.\n"
    "Several files convert together in one run (a kernel defined in one and launched in\n"
    "another, a buffer allocated in one and passed in another) into DIR, with the\n"
    "headers that gain companion declarations.\n"
    "\n"
    "Options:\n"
    "  -o FILE               write the output to FILE (atomically; never over the input)\n"
    "  --o-dir DIR           write the outputs to DIR: inputs by their name, headers that\n"
    "                        gain companion declarations by their relative path\n"
    "  -I DIR                add DIR to the include search path of the parser\n"
    "  -D NAME[=VALUE]       define a macro for the parser (also named in the output header)\n"
    "  --cuda-path DIR       CUDA installation to parse against (default: $CUDA_PATH,\n"
    "                        $CUDA_HOME, the one holding nvcc on PATH, /usr/local/cuda)\n"
    "  -nocudainc            parse against the built-in CUDA prelude, not installed headers\n"
    "  --pair NAME           a host pointer (variable or struct field) whose NAME_err\n"
    "                        companion is owned elsewhere: pass it, do not declare it\n"
    "                        (repeat for several)\n"
    "  --all                 convert every kernel, annotated or not, and the __device__\n"
    "                        functions they call\n"
    "  --algo ALGO           composite algorithms the output uses: accurate (default),\n"
    "                        paper (the Saponaro/Taufer formulas) or fast\n"
    "  --diff                print a unified diff of the input and the output instead of\n"
    "                        writing it (nothing changes on disk)\n"
    "  --check               exit 1 if OUTPUT is missing or differs from what would be\n"
    "                        written now (nothing changes on disk)\n"
    "  -MD                   also write a make dependency file (OUTPUT with .d); -MF FILE\n"
    "                        names it\n"
    "  --dump-edits          print the edits, one per line, instead of writing the output\n"
    "  --stats               print what was converted: functions, paired buffers, rules\n"
    "  --list-rules          print the rewrite rules and exit\n"
    "  --version             print the version and exit\n"
    "  --help                print this help and exit\n"
    "  -- FLAGS              pass the remaining flags to the parser (clang) unchanged\n"
    "\n"
    "Exit status: 0 converted, 1 errors in the input or with files, 2 usage errors.\n";

typedef struct {
  const char *input, *output, *cuda_path;
  int no_cuda, dump_edits, list_rules, all, stats, diff, check, md;
  const char *mf;
  cp_algo algo;
  const char **clang_args;
  int n_clang_args;
  const char **pair_names;
  int n_pair_names;
  const char **inputs; /* every input; `input` is the first */
  int n_inputs;
  const char *o_dir;
  char header_options[4096];
} cli;

static int usage_error(const char *fmt, const char *arg) {
  fputs("cpconvert: error: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'cpconvert --help' for more information.\n", stderr);
  return CP_EXIT_USAGE;
}

static int parse_algo(const char *s, cp_algo *algo) {
  if (strcmp(s, "accurate") == 0)
    *algo = CP_ALGO_ACCURATE;
  else if (strcmp(s, "paper") == 0)
    *algo = CP_ALGO_PAPER;
  else if (strcmp(s, "fast") == 0)
    *algo = CP_ALGO_FAST;
  else
    return -1;
  return 0;
}

/* An option's value: attached (`-Ifoo`, `--algo=x`) or the next argument. */
static const char *option_value(int argc, char **argv, int *i, const char *attached) {
  if (attached && *attached)
    return attached;
  if (*i + 1 < argc)
    return argv[++*i];
  return NULL;
}

static void append_header_option(cli *c, const char *flag, const char *value) {
  size_t n = strlen(c->header_options);
  snprintf(c->header_options + n, sizeof c->header_options - n, " %s%s", flag, value);
}

/* The options without a value: each sets one field of the cli. */
static int *flag_of(cli *c, const char *a) {
  static const struct {
    const char *name;
    size_t field;
  } flags[] = {
      {"--list-rules", offsetof(cli, list_rules)}, {"--diff", offsetof(cli, diff)},
      {"--check", offsetof(cli, check)},           {"-MD", offsetof(cli, md)},
      {"--stats", offsetof(cli, stats)},           {"--dump-edits", offsetof(cli, dump_edits)},
      {"-nocudainc", offsetof(cli, no_cuda)},      {"--all", offsetof(cli, all)},
  };
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (strcmp(a, flags[i].name) == 0)
      return (int *)((char *)c + flags[i].field);
  return NULL;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, cli *c) {
  c->clang_args = calloc(2 * (size_t)argc + 1, sizeof *c->clang_args);
  c->pair_names = calloc((size_t)argc + 1, sizeof *c->pair_names);
  c->inputs = calloc((size_t)argc + 1, sizeof *c->inputs);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (strcmp(a, "--") == 0) {
      while (++i < argc)
        c->clang_args[c->n_clang_args++] = argv[i];
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return CP_EXIT_OK;
    } else if (strcmp(a, "--version") == 0) {
      printf("cpconvert %s\n", CPCONVERT_VERSION);
      return CP_EXIT_OK;
    } else if (flag_of(c, a)) {
      *flag_of(c, a) = 1;
      if (strcmp(a, "--all") == 0)
        append_header_option(c, "--all", "");
    } else if (strncmp(a, "--pair", 6) == 0 && (a[6] == '=' || !a[6])) {
      if (!(v = option_value(argc, argv, &i, a[6] ? a + 7 : NULL)) || !*v)
        return usage_error("%s needs a name", "--pair");
      c->pair_names[c->n_pair_names++] = v;
      append_header_option(c, "--pair ", v);
    } else if (strncmp(a, "--o-dir", 7) == 0 && (a[7] == '=' || !a[7])) {
      if (!(v = option_value(argc, argv, &i, a[7] ? a + 8 : NULL)) || !*v)
        return usage_error("%s needs a directory", "--o-dir");
      c->o_dir = v;
    } else if (strcmp(a, "-MF") == 0) {
      if (!(v = option_value(argc, argv, &i, NULL)))
        return usage_error("%s needs a file name", "-MF");
      c->mf = v;
      c->md = 1;
    } else if (strncmp(a, "-o", 2) == 0) {
      if (!(v = option_value(argc, argv, &i, a + 2)))
        return usage_error("%s needs a file name", "-o");
      c->output = v;
    } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0) {
      if (!(v = option_value(argc, argv, &i, a + 2)))
        return usage_error("%s needs a value", a);
      c->clang_args[c->n_clang_args++] = a[1] == 'I' ? "-I" : "-D";
      c->clang_args[c->n_clang_args++] = v;
      if (a[1] == 'D')
        append_header_option(c, "-D", v);
    } else if (strncmp(a, "--cuda-path", 11) == 0 && (a[11] == '=' || !a[11])) {
      if (!(v = option_value(argc, argv, &i, a[11] ? a + 12 : NULL)))
        return usage_error("%s needs a directory", "--cuda-path");
      c->cuda_path = v;
    } else if (strncmp(a, "--algo", 6) == 0 && (a[6] == '=' || !a[6])) {
      if (!(v = option_value(argc, argv, &i, a[6] ? a + 7 : NULL)))
        return usage_error("%s needs paper, accurate or fast", "--algo");
      if (parse_algo(v, &c->algo) != 0)
        return usage_error("unknown --algo '%s' (expected paper, accurate or fast)", v);
    } else if (a[0] == '-' && a[1]) {
      return usage_error("unknown option '%s'", a);
    } else {
      if (!c->input)
        c->input = a;
      c->inputs[c->n_inputs++] = a;
    }
  }
  return -1;
}

static void list_rules(void) {
  for (int r = 0; r < CP_RULE_COUNT; r++)
    printf("%-16s %s\n", cp_rule_name((cp_rule)r), cp_rule_summary((cp_rule)r));
}

/* One line per edit: OFFSET+LENGTH RULE "TEXT" with the text C-escaped. */
static void dump_edits(const cp_edit_list *list) {
  for (size_t i = 0; i < list->count; i++) {
    const cp_edit *e = &list->items[i];
    printf("%zu+%zu %s \"", e->offset, e->length, cp_rule_name(e->rule));
    for (const char *s = e->text; *s; s++) {
      if (*s == '\n')
        fputs("\\n", stdout);
      else if (*s == '\r')
        fputs("\\r", stdout);
      else if (*s == '"' || *s == '\\')
        printf("\\%c", *s);
      else
        putchar(*s);
    }
    puts("\"");
  }
}

/* --stats: the converted functions with their companions, then every rule that was
 * applied (or refused) and how often. */
static void print_stats(const char *input, const cp_result *r) {
  static const char *const kinds[] = {"__device__", "__global__", "host"};
  printf("%s: %zu function%s converted\n", input, r->n_funcs, r->n_funcs == 1 ? "" : "s");
  for (size_t i = 0; i < r->n_funcs; i++)
    printf("  %-10s %-24s %u paired buffer%s\n", kinds[r->funcs[i].kind], r->funcs[i].name,
           r->funcs[i].paired, r->funcs[i].paired == 1 ? "" : "s");
  printf("  %-20s %8s %8s\n", "rule", "applied", "edits");
  for (int k = 0; k < CP_RULE_COUNT; k++) {
    unsigned edits = 0;
    for (size_t i = 0; i < r->n_files; i++)
      edits += r->files[i].edits.per_rule[k];
    if (r->applied[k] || edits)
      printf("  %-20s %8u %8u\n", cp_rule_name((cp_rule)k), r->applied[k], edits);
  }
  printf("  %u warning%s\n", r->n_warnings, r->n_warnings == 1 ? "" : "s");
}

/* A path as make reads it: spaces escaped, $ doubled. */
static void put_make_path(FILE *f, const char *p) {
  for (; *p; p++) {
    if (*p == ' ' || *p == '#')
      fputc('\\', f);
    else if (*p == '$')
      fputc('$', f);
    fputc(*p, f);
  }
}

/* -MD: `OUTPUT: INPUT HEADERS...`, and an empty rule per header so that make does not stop
 * when a header is deleted. Written atomically like the output. */
static int write_depfile(const cli *c, const cp_result *r) {
  char path[4096];
  if (c->mf) {
    snprintf(path, sizeof path, "%s", c->mf);
  } else {
    const char *slash = strrchr(c->output, '/'), *dot = strrchr(c->output, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - c->output) : strlen(c->output);
    snprintf(path, sizeof path, "%.*s.d", (int)stem, c->output);
  }
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return -1;
  put_make_path(f, c->output);
  fputs(":", f);
  fputs(" ", f);
  put_make_path(f, c->input);
  for (size_t i = 0; i < r->n_deps; i++) {
    fputs(" \\\n ", f);
    put_make_path(f, r->deps[i]);
  }
  fputc('\n', f);
  for (size_t i = 0; i < r->n_deps; i++) {
    fputc('\n', f);
    put_make_path(f, r->deps[i]);
    fputs(":\n", f);
  }
  fclose(f);
  char err[4096 + 256];
  int rc = cp_write_atomic(path, text, len, err, sizeof err);
  if (rc != 0)
    cp_tool_error("%s", err);
  free(text);
  return rc;
}

/* Where a file of the run is written: -o FILE for the one input, or under --o-dir: the
 * inputs by their base name, headers by their path relative to the working directory.
 * NULL (with a message) for a header that would land outside the directory. */
static char *output_path(const cli *c, const cp_file_result *f) {
  if (!c->o_dir)
    return strdup(c->output);
  const char *name = f->path;
  if (!f->is_header) {
    const char *slash = strrchr(name, '/');
    name = slash ? slash + 1 : name;
  } else if (name[0] == '/' || strncmp(name, "../", 3) == 0 || strstr(name, "/../")) {
    cp_tool_error("header '%s' needs companions but lies outside the working directory, so it "
                  "has no place under '%s': add them by hand (see the error it reports without "
                  "--o-dir)", name, c->o_dir);
    return NULL;
  }
  size_t n = strlen(c->o_dir) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", c->o_dir, name);
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

/* --check: 0 when every output on disk is what this run would write. */
static int check_outputs(const cli *c, const cp_result *r) {
  int status = CP_EXIT_OK;
  for (size_t i = 0; i < r->n_files; i++) {
    const cp_file_result *f = &r->files[i];
    char *path = output_path(c, f);
    if (!path)
      return CP_EXIT_ERRORS;
    size_t len = 0;
    char *old = cp_read_file(path, &len);
    if (!old || len != f->output_len || memcmp(old, f->output, len) != 0) {
      fprintf(stderr, "cpconvert: '%s' is %s; convert '%s' again\n", path,
              old ? "out of date" : "missing", f->path);
      status = CP_EXIT_ERRORS;
    }
    free(old);
    free(path);
  }
  return status;
}

/* Writes every output (after a run without errors), each atomically; every path is
 * checked before the first is written. */
static int write_outputs(const cli *c, const cp_result *r) {
  char **paths = calloc(r->n_files + 1, sizeof *paths);
  int status = CP_EXIT_OK;
  for (size_t i = 0; i < r->n_files && status == CP_EXIT_OK; i++) {
    if (!(paths[i] = output_path(c, &r->files[i])))
      status = CP_EXIT_ERRORS;
    else if (c->o_dir && cp_same_file(r->files[i].path, paths[i])) {
      cp_tool_error("'%s' would be written over its input", paths[i]);
      status = CP_EXIT_ERRORS;
    }
  }
  for (size_t i = 0; i < r->n_files && status == CP_EXIT_OK; i++) {
    char err[4096 + 256];
    if (c->o_dir && make_parents(paths[i]) != 0)
      status = CP_EXIT_ERRORS;
    else if (cp_write_atomic(paths[i], r->files[i].output, r->files[i].output_len, err,
                             sizeof err) != 0) {
      cp_tool_error("%s", err);
      status = CP_EXIT_ERRORS;
    }
  }
  for (size_t i = 0; i < r->n_files; i++)
    free(paths[i]);
  free(paths);
  if (status == CP_EXIT_OK && c->md && write_depfile(c, r) != 0)
    status = CP_EXIT_ERRORS;
  return status;
}

/* What the run does with a result without errors. */
static int deliver(const cli *c, const cp_result *r) {
  for (size_t i = 0; i < r->n_files; i++) {
    const cp_file_result *f = &r->files[i];
    if (c->dump_edits) {
      if (r->n_files > 1)
        printf("# %s\n", f->path);
      dump_edits(&f->edits);
    } else if (c->diff) {
      char *path = c->o_dir || c->output ? output_path(c, f) : strdup(f->path);
      cp_print_diff(stdout, f->path, path ? path : f->path, f->input_text, f->input_len,
                    &f->edits);
      free(path);
    }
  }
  if (c->dump_edits || c->diff)
    return CP_EXIT_OK;
  if (c->check)
    return check_outputs(c, r);
  if (c->stats)
    print_stats(c->input, r);
  return write_outputs(c, r);
}

static int run(cli *c) {
  char **texts = calloc((size_t)c->n_inputs, sizeof *texts);
  cp_options *opts = calloc((size_t)c->n_inputs, sizeof *opts);
  char algo_opt[32];
  snprintf(algo_opt, sizeof algo_opt, "--algo %s",
           c->algo == CP_ALGO_PAPER ? "paper" : c->algo == CP_ALGO_FAST ? "fast" : "accurate");
  char header[sizeof c->header_options + sizeof algo_opt];
  snprintf(header, sizeof header, "%s%s", algo_opt, c->header_options);
  const char *cuda = c->no_cuda ? NULL : cp_find_cuda(c->cuda_path);
  int status = CP_EXIT_OK;
  if (c->cuda_path && !c->no_cuda && !cuda) {
    cp_tool_error("--cuda-path '%s' holds no include/cuda_runtime.h", c->cuda_path);
    status = CP_EXIT_ERRORS;
  }
  for (int i = 0; i < c->n_inputs && status == CP_EXIT_OK; i++) {
    size_t len = 0;
    if (!(texts[i] = cp_read_file(c->inputs[i], &len))) {
      cp_tool_error("cannot read '%s': %s", c->inputs[i], strerror(errno));
      status = CP_EXIT_ERRORS;
      break;
    }
    opts[i] = (cp_options){
        .input = c->inputs[i], .input_text = texts[i], .input_len = len,
        .clang_args = c->clang_args, .n_clang_args = c->n_clang_args, .cuda_path = cuda,
        .algo = c->algo, .all = c->all, .header_options = header, .pair_names = c->pair_names,
        .n_pair_names = c->n_pair_names, .edit_headers = c->o_dir != NULL,
        .version = CPCONVERT_VERSION,
    };
  }
  if (status == CP_EXIT_OK) {
    cp_result *r = cp_convert_deep(opts, c->n_inputs);
    for (size_t i = 0; i < r->n_diags; i++)
      cp_print_diag(stderr, &r->diags[i]);
    if (r->n_errors || !r->output) {
      fprintf(stderr, "%u error%s generated; no output written.\n", r->n_errors,
              r->n_errors == 1 ? "" : "s");
      status = CP_EXIT_ERRORS;
    } else {
      status = deliver(c, r);
    }
    cp_result_free(r);
  }
  for (int i = 0; i < c->n_inputs; i++)
    free(texts[i]);
  free(texts);
  free(opts);
  return status;
}

/* The combinations of inputs and outputs that make sense; -1 if this one does. */
static int check_usage(const cli *c) {
  if (!c->n_inputs)
    return usage_error("%s", "no input file");
  if (c->output && c->o_dir)
    return usage_error("%s", "give -o FILE or --o-dir DIR, not both");
  if (c->n_inputs > 1 && c->output)
    return usage_error("%s", "-o takes one input; give --o-dir DIR for several");
  if (!c->output && !c->o_dir && !c->dump_edits && !c->diff)
    return usage_error("no output file; give -o FILE or --o-dir DIR (or --diff, --dump-edits)%s",
                       "");
  if (c->check && !c->output && !c->o_dir)
    return usage_error("%s needs -o FILE or --o-dir DIR, the output to check", "--check");
  if (c->md && !c->output)
    return usage_error("%s needs -o FILE", "-MD");
  for (int i = 0; i < c->n_inputs; i++) {
    if (c->output && cp_same_file(c->inputs[i], c->output))
      return usage_error("the output '%s' is the input file; choose another output", c->output);
    for (int k = 0; k < i && c->o_dir; k++) {
      const char *a = strrchr(c->inputs[i], '/'), *b = strrchr(c->inputs[k], '/');
      if (strcmp(a ? a + 1 : c->inputs[i], b ? b + 1 : c->inputs[k]) == 0)
        return usage_error("two inputs named '%s' would have the same output", a ? a + 1 : c->inputs[i]);
    }
  }
  return -1;
}

int main(int argc, char **argv) {
  cli c = {.algo = CP_ALGO_ACCURATE};
  int status = parse_args(argc, argv, &c);
  if (status < 0 && c.list_rules) {
    list_rules();
    status = CP_EXIT_OK;
  }
  if (status < 0 && (status = check_usage(&c)) < 0)
    status = run(&c);
  free(c.clang_args);
  free(c.pair_names);
  free(c.inputs);
  return status;
}
