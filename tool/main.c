/*
 * main.c: the cpconvert command line.
 *
 * Reads the options, reads the input once, hands both to the rewriter, prints what it
 * found, and writes the output atomically when the run had no error. Exit status: 0
 * converted, 1 errors (in the input or with files), 2 usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

#ifndef CPCONVERT_VERSION
#define CPCONVERT_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: cpconvert INPUT.cu -o OUTPUT.cu [options] [-- compiler flags]\n"
    "\n"
    "Converts the CUDA functions annotated with `#pragma cp composite` from float to\n"
    "composite precision (value + error pairs) and writes the result to OUTPUT.cu.\n"
    "\n"
    "Options:\n"
    "  -o FILE               write the output to FILE (atomically; never over the input)\n"
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

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, cli *c) {
  c->clang_args = calloc(2 * (size_t)argc + 1, sizeof *c->clang_args);
  c->pair_names = calloc((size_t)argc + 1, sizeof *c->pair_names);
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
    } else if (strcmp(a, "--list-rules") == 0) {
      c->list_rules = 1;
    } else if (strncmp(a, "--pair", 6) == 0 && (a[6] == '=' || !a[6])) {
      if (!(v = option_value(argc, argv, &i, a[6] ? a + 7 : NULL)) || !*v)
        return usage_error("%s needs a name", "--pair");
      c->pair_names[c->n_pair_names++] = v;
      append_header_option(c, "--pair ", v);
    } else if (strcmp(a, "--diff") == 0) {
      c->diff = 1;
    } else if (strcmp(a, "--check") == 0) {
      c->check = 1;
    } else if (strcmp(a, "-MD") == 0) {
      c->md = 1;
    } else if (strcmp(a, "-MF") == 0) {
      if (!(v = option_value(argc, argv, &i, NULL)))
        return usage_error("%s needs a file name", "-MF");
      c->mf = v;
      c->md = 1;
    } else if (strcmp(a, "--stats") == 0) {
      c->stats = 1;
    } else if (strcmp(a, "--dump-edits") == 0) {
      c->dump_edits = 1;
    } else if (strcmp(a, "--all") == 0) {
      c->all = 1;
      append_header_option(c, "--all", "");
    } else if (strcmp(a, "-nocudainc") == 0) {
      c->no_cuda = 1;
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
    } else if (c->input) {
      return usage_error("more than one input file ('%s')", a);
    } else {
      c->input = a;
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
  for (int k = 0; k < CP_RULE_COUNT; k++)
    if (r->applied[k] || r->edits.per_rule[k])
      printf("  %-20s %8u %8u\n", cp_rule_name((cp_rule)k), r->applied[k], r->edits.per_rule[k]);
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

/* --check: 0 when the output on disk is what this run would write. */
static int check_output(const cli *c, const cp_result *r) {
  size_t len = 0;
  char *old = cp_read_file(c->output, &len);
  int fresh = old && len == r->output_len && memcmp(old, r->output, len) == 0;
  free(old);
  if (!fresh)
    fprintf(stderr, "cpconvert: '%s' is %s; convert '%s' again\n", c->output,
            old ? "out of date" : "missing", c->input);
  return fresh ? CP_EXIT_OK : CP_EXIT_ERRORS;
}

static int run(cli *c) {
  size_t len = 0;
  char *text = cp_read_file(c->input, &len);
  if (!text) {
    cp_tool_error("cannot read '%s': %s", c->input, strerror(errno));
    return CP_EXIT_ERRORS;
  }
  char algo_opt[32];
  snprintf(algo_opt, sizeof algo_opt, "--algo %s",
           c->algo == CP_ALGO_PAPER ? "paper" : c->algo == CP_ALGO_FAST ? "fast" : "accurate");
  char header[sizeof c->header_options + sizeof algo_opt];
  snprintf(header, sizeof header, "%s%s", algo_opt, c->header_options);
  const char *cuda = c->no_cuda ? NULL : cp_find_cuda(c->cuda_path);
  if (c->cuda_path && !c->no_cuda && !cuda) {
    cp_tool_error("--cuda-path '%s' holds no include/cuda_runtime.h", c->cuda_path);
    free(text);
    return CP_EXIT_ERRORS;
  }
  cp_options opt = {
      .input = c->input, .input_text = text, .input_len = len,
      .clang_args = c->clang_args, .n_clang_args = c->n_clang_args,
      .cuda_path = cuda,
      .algo = c->algo, .all = c->all, .header_options = header,
      .pair_names = c->pair_names, .n_pair_names = c->n_pair_names, .version = CPCONVERT_VERSION,
  };
  cp_result *r = cp_convert(&opt);
  for (size_t i = 0; i < r->n_diags; i++)
    cp_print_diag(stderr, &r->diags[i]);
  int status = CP_EXIT_OK;
  if (r->n_errors || !r->output) {
    fprintf(stderr, "%u error%s generated; no output written.\n", r->n_errors,
            r->n_errors == 1 ? "" : "s");
    status = CP_EXIT_ERRORS;
  } else if (c->dump_edits) {
    dump_edits(&r->edits);
  } else if (c->diff) {
    cp_print_diff(stdout, c->input, c->output ? c->output : c->input, text, len, &r->edits);
  } else if (c->check) {
    status = check_output(c, r);
  } else {
    if (c->stats)
      print_stats(c->input, r);
    char err[4096 + 256];
    if (cp_write_atomic(c->output, r->output, r->output_len, err, sizeof err) != 0) {
      cp_tool_error("%s", err);
      status = CP_EXIT_ERRORS;
    } else if (c->md && write_depfile(c, r) != 0) {
      status = CP_EXIT_ERRORS;
    }
  }
  cp_result_free(r);
  free(text);
  return status;
}

int main(int argc, char **argv) {
  cli c = {.algo = CP_ALGO_ACCURATE};
  int status = parse_args(argc, argv, &c);
  if (status < 0 && c.list_rules) {
    list_rules();
    status = CP_EXIT_OK;
  }
  if (status < 0) {
    if (!c.input)
      status = usage_error("%s", "no input file");
    else if (!c.output && !c.dump_edits && !c.diff)
      status = usage_error("no output file; give -o FILE (or --diff, --dump-edits)%s", "");
    else if (c.check && !c.output)
      status = usage_error("%s needs -o FILE, the output to check", "--check");
    else if (c.output && cp_same_file(c.input, c.output))
      status = usage_error("the output '%s' is the input file; choose another output", c.output);
    else
      status = run(&c);
  }
  free(c.clang_args);
  free(c.pair_names);
  return status;
}
