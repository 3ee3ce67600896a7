/*
 * options.c: the command line's options: the --help text, parsing argv into a cli, and
 * the checks of which combinations make sense. Every usage error exits with status 2
 * before anything is read or written.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <clang-c/Index.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Two pieces, each under the 4095 characters C guarantees for a literal. */
const char *const cp_usage_text[] = {
    "usage: cpconvert INPUT.cu -o OUTPUT.cu [options] [-- compiler flags]\n"
    "       cpconvert INPUT.cu... --o-dir DIR [options] [-- compiler flags]\n"
    "       cpconvert --explain cp_profile.json [-o BUDGET.html]\n"
    "\n"
    "Converts the CUDA functions annotated with `#pragma cp composite` from float to\n"
    "composite precision (value + error pairs) and writes the result to OUTPUT.cu.\n"
    "Several files convert together in one run (a kernel defined in one and launched in\n"
    "another, a buffer allocated in one and passed in another) into DIR, with the\n"
    "headers that gain companion declarations.\n"
    "\n"
    "Options:\n"
    "  -o FILE               write the output to FILE (atomically; never over the input;\n"
    "                        a device or pipe such as /dev/null is written through)\n"
    "  --o-dir DIR           write the outputs to DIR, in the layout the inputs and the\n"
    "                        headers they change have below their deepest common directory\n"
    "                        (all of them or, when one cannot be written, none)\n"
    "  -p BUILD_DIR          take each input's -I, -D, -U, -isystem, -include and -std\n"
    "                        from BUILD_DIR/compile_commands.json (CMake, bear)\n"
    "  -I DIR                add DIR to the include search path of the parser\n"
    "  -D NAME[=VALUE]       define a macro for the parser (also named in the output header)\n"
    "  -U NAME               undefine a macro for the parser (also named in the output header)\n"
    "  --cuda-path DIR       CUDA installation to parse against (default: $CUDA_PATH,\n"
    "                        $CUDA_HOME, the one holding nvcc on PATH, /usr/local/cuda)\n"
    "  -nocudainc            parse against the built-in CUDA prelude, not installed headers\n"
    "  --pair NAME           a host pointer (variable or struct field) whose NAME_err\n"
    "                        companion is owned elsewhere: pass it, do not declare it\n"
    "                        (repeat for several)\n"
    "  --all                 convert every kernel, annotated or not, and the __device__\n"
    "                        functions they call\n"
    "  --algo ALGO           composite algorithms the output uses: accurate (default),\n"
    "                        paper (the Saponaro/Taufer formulas), fast or mid\n"
    "  --accuracy TIER       the same by accuracy tier: low (fast: no renormalization),\n"
    "                        mid (accurate with the sloppy pair + pair add) or high\n"
    "                        (accurate, the default); bounds in docs/runtime.md\n"
    "  --backend BACKEND     how the output computes: auto (default: native double on GPUs\n"
    "                        with fast FP64, float-float elsewhere, chosen per\n"
    "                        architecture at compile time), ff (float-float everywhere) or\n"
    "                        dp (native double everywhere)\n"
    "  --scope SCOPE         scope() of the pragmas that name none: all (default) or\n"
    "                        accumulators\n"
    "  --accumulate HOW      accumulate() of the pragmas that name none: composite\n"
    "                        (default), fixed, kahan or double\n"
    "  --diff                print a unified diff of the input and the output instead of\n"
    "                        writing it, labelled a/INPUT and b/OUTPUT as git does\n"
    "                        (nothing changes on disk; without -o, of the headers too)\n"
    "  --check               exit 1 if OUTPUT is missing or differs from what would be\n"
    "                        written now, and print the difference (nothing changes on\n"
    "                        disk; with --diff or --dump-edits, they print instead)\n"
    "  -MD                   also write a make dependency file: OUTPUT with .d (with\n"
    "                        --o-dir: OUTPUT.d beside each output)\n"
    "  -MF FILE              write the dependency file to FILE (implies -MD; with\n"
    "                        --o-dir: one rule per output)\n"
    "",
    "  --dump-edits          print the edits, one per line, instead of writing the output\n"
    "  --stats               print what was converted, per file and function: paired\n"
    "                        buffers, rules applied, calls left in float\n"
    "  --stats-csv FILE      write the same as CSV to FILE (file,function,kind,line,\n"
    "                        paired,rule,count)\n"
    "  --line-directives     add #line markers so that compiler errors and debuggers\n"
    "                        point at the input's lines\n"
    "  --profile             the output also records, when it runs, where error terms\n"
    "                        are made and dropped, into cp_profile.json (docs/profile.md)\n"
    "  --use-profile PROFILE the variables that profile shows never carrying an error\n"
    "                        term to an output stay float, as keep() would keep them\n"
    "  --suggest             list the kernels and the places where float loses most, with\n"
    "                        the pragma that converts them; writes nothing\n"
    "  --no-cache            parse the CUDA headers anew instead of using (or building)\n"
    "                        the precompiled header cached in $XDG_CACHE_HOME/cpconvert\n"
    "  --no-verify           write the output without parsing it again first (by default\n"
    "                        an output that would not compile is an internal error)\n"
    "  -q                    print no notes (what was converted where, as information)\n"
    "  -j N, --jobs N        convert the inputs that share nothing in N processes at once\n"
    "                        (default: the CPUs the run may use, at most 8; -j 1: one)\n"
    "  -v                    print a line per file as a run of several files goes, and a\n"
    "                        closing summary (the default where stderr is a terminal)\n"
    "  --diagnostics-format FORMAT\n"
    "                        text (default), sarif (SARIF 2.1.0) or json: the diagnostics\n"
    "                        as one document on stderr (usage errors stay text)\n"
    "  --diagnostics-output FILE\n"
    "                        write that document to FILE (atomically), not on stderr\n"
    "  -w                    print no warnings and no notes; errors are always printed\n"
    "  -Wno-RULE             print no warnings of RULE (the name in brackets at a\n"
    "                        diagnostic's end: float-call, host-pair, ...; -WRULE undoes)\n"
    "  -Werror=RULE          RULE's warnings are errors: exit 1, nothing written\n"
    "                        (-Wno-error=RULE undoes)\n"
    "  -Werror               every warning is an error (-Wno-error undoes)\n"
    "  -ferror-limit=N       print the first N errors (default 20, 0 for all); the count\n"
    "                        of the others follows them (-fmax-errors=N too)\n"
    "  @FILE                 read more arguments from FILE (separated by white space;\n"
    "                        quotes and backslashes as in a shell; @FILE nests)\n"
    "  --explain PROFILE     print the error budget of a profiled run (cp_profile.json):\n"
    "                        per output, where composite changed it most, where error\n"
    "                        enters that composite cannot remove and what would remove\n"
    "                        it, and the variables to keep(); no .cu input; with\n"
    "                        -o FILE.html a page with charts instead, with\n"
    "                        --diagnostics-format json one JSON document\n"
    "  --list-rules          print the rewrite rules and exit\n"
    "  --markdown            with --list-rules: print docs/rules.md\n"
    "  --version             print the version (and libclang's) and exit\n"
    "  --help                print this help and exit\n"
    "  -- FLAGS              pass the remaining flags to the parser (clang); nvcc's own\n"
    "                        (-arch, -gencode, -Xcompiler X, --extended-lambda, ...) are\n"
    "                        dropped and its spellings of -I, -D, -U, -isystem, -include\n"
    "                        mapped, so a compile command's flags can follow as they are\n"
    "\n"
    "Exit status: 0 converted, 1 errors in the input or with files, 2 usage errors.\n",
    NULL};


/* The tool's version, and the parser's: the libclang release decides which CUDA headers
 * parse and the wording of clang's own errors. */
static void print_version(void) {
  CXString v = clang_getClangVersion();
  printf("cpconvert %s\nlibclang: %s\n", CPCONVERT_VERSION, clang_getCString(v));
  clang_disposeString(v);
}

static int usage_error(const char *fmt, const char *arg) {
  char msg[512];
  snprintf(msg, sizeof msg, fmt, arg);
  cp_tool_error("%s", msg);
  if (cp_diag_is_text())
    fputs("Try 'cpconvert --help' for more information.\n", stderr);
  return CP_EXIT_USAGE;
}

static const char *const algo_names[] = {"", "paper", "accurate", "fast", "mid", NULL};
/* --accuracy names the families by tier, indexed like algo_names: low is fast, mid is mid,
 * high is accurate. */
static const char *const accuracy_names[] = {"", "", "high", "low", "mid", NULL};
static const char *const backend_names[] = {"auto", "ff", "dp", NULL};
static const char *const scope_names[] = {"all", "accumulators", NULL};
static const char *const accum_names[] = {"composite", "fixed", "kahan", "double", NULL};
static const char *const diag_format_names[] = {"text", "sarif", "json", NULL};

/* The index of `s` in `names`, or -1. */
static int choice(const char *s, const char *const *names) {
  for (int k = 0; names[k]; k++)
    if (*names[k] && strcmp(s, names[k]) == 0)
      return k;
  return -1;
}

/* An option's value: attached (`-Ifoo`, `--algo=x`) or the next argument. */
static const char *option_value(int argc, char **argv, int *i, const char *attached) {
  if (attached && *attached)
    return attached;
  if (*i + 1 < argc)
    return argv[++*i];
  return NULL;
}

/* Whether `a` is the long option `name` (`--name VALUE` or `--name=VALUE`); if so, `*v`
 * is its value, NULL when none follows. */
static int long_option(const char *a, const char *name, int argc, char **argv, int *i,
                       const char **v) {
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0 || (a[n] != '=' && a[n]))
    return 0;
  *v = option_value(argc, argv, i, a[n] ? a + n + 1 : NULL);
  return 1;
}

/* Names an option in the output's first line. A value over 256 bytes is shown by its
 * start and length; an option that no longer fits is counted (header_left_out), and the
 * line says how many were left out, never cut silently. */
static void append_header_option(cli *c, const char *flag, const char *value) {
  char item[320];
  size_t n = strlen(c->header_options), len = strlen(value);
  if (len > 256)
    snprintf(item, sizeof item, " %s%.64s... (%zu bytes)", flag, value, len);
  else
    snprintf(item, sizeof item, " %s%s", flag, value);
  if (!c->header_left_out && n + strlen(item) + 64 < sizeof c->header_options)
    memcpy(c->header_options + n, item, strlen(item) + 1);
  else
    c->header_left_out++;
}

/* The options without a value: each sets one field of the cli. */
static const struct {
  const char *name;
  size_t field;
} flags[] = {
    {"--list-rules", offsetof(cli, list_rules)}, {"--diff", offsetof(cli, diff)},
    {"--check", offsetof(cli, check)},           {"-MD", offsetof(cli, md)},
    {"--stats", offsetof(cli, stats)},           {"--dump-edits", offsetof(cli, dump_edits)},
    {"-nocudainc", offsetof(cli, no_cuda)},      {"--all", offsetof(cli, all)},
    {"--line-directives", offsetof(cli, line_directives)},
    {"--suggest", offsetof(cli, suggest)},       {"--markdown", offsetof(cli, markdown)},
    {"--no-cache", offsetof(cli, no_cache)},     {"--no-verify", offsetof(cli, no_verify)},
    {"-q", offsetof(cli, quiet)},                {"-w", offsetof(cli, no_warnings)},
    {"-v", offsetof(cli, verbose)},              {"--profile", offsetof(cli, profile)},
};

static int *flag_of(cli *c, const char *a) {
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (strcmp(a, flags[i].name) == 0)
      return (int *)((char *)c + flags[i].field);
  return NULL;
}

/* The options that take one of a few names, each setting one enum field of the cli. */
static const struct {
  const char *name, *expected;
  const char *const *names;
  size_t field;
  int in_header; /* named in the output's header line (--algo always is) */
} choice_options[] = {
    {"--algo", "paper, accurate, fast or mid", algo_names, offsetof(cli, algo), 0},
    {"--accuracy", "low, mid or high", accuracy_names, offsetof(cli, algo), 0},
    {"--backend", "auto, ff or dp", backend_names, offsetof(cli, backend), 1},
    {"--scope", "all or accumulators", scope_names, offsetof(cli, scope), 1},
    {"--accumulate", "composite, fixed, kahan or double", accum_names, offsetof(cli, accumulate),
     1},
    {"--diagnostics-format", "text, sarif or json", diag_format_names,
     offsetof(cli, diag_format), 0},
};

/* --algo, --accuracy, --backend, --scope, --accumulate. Returns 0 when `a` is none of them, -1 when it was
 * parsed, or the exit status. */
static int parse_choice_option(cli *c, const char *a, int argc, char **argv, int *i) {
  const char *v;
  for (size_t o = 0; o < sizeof choice_options / sizeof choice_options[0]; o++) {
    if (!long_option(a, choice_options[o].name, argc, argv, i, &v))
      continue;
    int k = v ? choice(v, choice_options[o].names) : -1;
    if (k < 0) {
      char msg[256];
      const char *near = v ? cp_closest_name(v, choice_options[o].names) : NULL;
      if (near)
        snprintf(msg, sizeof msg, "unknown %s '%s'; did you mean '%s'?", choice_options[o].name,
                 v, near);
      else if (v)
        snprintf(msg, sizeof msg, "unknown %s '%s' (expected %s)", choice_options[o].name, v,
                 choice_options[o].expected);
      else
        snprintf(msg, sizeof msg, "%s needs %s", choice_options[o].name,
                 choice_options[o].expected);
      return usage_error("%s", msg);
    }
    *(int *)((char *)c + choice_options[o].field) = k; /* the fields are enums */
    if (choice_options[o].field == offsetof(cli, diag_format)) /* the errors after it too */
      cp_set_diag_format((cp_diag_format)k);
    if (choice_options[o].in_header) {
      char flag[32];
      snprintf(flag, sizeof flag, "%s ", choice_options[o].name);
      append_header_option(c, flag, v);
    }
    return -1;
  }
  return 0;
}

/* The options with a value that is a name, a file or a directory: `-o FILE`, `-oFILE`,
 * `--o-dir DIR`, `--o-dir=DIR`. Returns 0 when `a` is none of them, -1 when it was
 * parsed, or the exit status. */
static const struct {
  const char *name, *what;
  size_t field;
  int is_short; /* -oFILE, -pDIR: the value may be attached without '=' */
} values[] = {
    {"-o", "a file name", offsetof(cli, output), 1},
    {"-p", "a build directory (holding compile_commands.json)", offsetof(cli, build_dir), 1},
    {"-MF", "a file name", offsetof(cli, mf), 0},
    {"--o-dir", "a directory", offsetof(cli, o_dir), 0},
    {"--cuda-path", "a directory", offsetof(cli, cuda_path), 0},
    {"--stats-csv", "a file name", offsetof(cli, stats_csv), 0},
    {"--diagnostics-output", "a file name", offsetof(cli, diag_output), 0},
    {"--explain", "a profile (cp_profile.json, written by a run of --profile output)",
     offsetof(cli, explain), 0},
    {"--use-profile", "a profile (cp_profile.json, written by a run of --profile output)",
     offsetof(cli, use_profile), 0},
};

static int parse_value_option(cli *c, const char *a, int argc, char **argv, int *i) {
  for (size_t o = 0; o < sizeof values / sizeof values[0]; o++) {
    const char *v = NULL, *name = values[o].name;
    size_t n = strlen(name);
    if (values[o].is_short && strncmp(a, name, n) == 0)
      v = option_value(argc, argv, i, a + n);
    else if (!long_option(a, name, argc, argv, i, &v))
      continue;
    if (!v || !*v) {
      char msg[128];
      snprintf(msg, sizeof msg, "%s needs %s", name, values[o].what);
      return usage_error("%s", msg);
    }
    *(const char **)((char *)c + values[o].field) = v;
    c->md |= strcmp(name, "-MF") == 0;
    return -1;
  }
  return 0;
}

/* -I, -D, -U and --pair: repeatable, passed on to the parser or the rewriter. */
static int parse_list_option(cli *c, const char *a, int argc, char **argv, int *i) {
  const char *v;
  if (long_option(a, "--pair", argc, argv, i, &v)) {
    if (!v || !*v)
      return usage_error("%s needs a name", "--pair");
    c->pair_names[c->n_pair_names++] = v;
    append_header_option(c, "--pair ", v);
    return -1;
  }
  if (strncmp(a, "-I", 2) != 0 && strncmp(a, "-D", 2) != 0 && strncmp(a, "-U", 2) != 0)
    return 0;
  if (!(v = option_value(argc, argv, i, a + 2)))
    return usage_error("%s needs a value", a);
  c->clang_args[c->n_clang_args++] = a[1] == 'I' ? "-I" : a[1] == 'D' ? "-D" : "-U";
  c->clang_args[c->n_clang_args++] = v;
  if (a[1] != 'I')
    append_header_option(c, a[1] == 'D' ? "-D" : "-U", v);
  return -1;
}

/* A -D or -U after `--` (out[0..n), `next` the argument after it) named in the output's
 * header line, as the tool's own -D and -U are: each macro that shaped the parse. */
static void name_macro(cli *c, const char **out, int n, const char *next) {
  if (n == 0 || (strncmp(out[0], "-D", 2) != 0 && strncmp(out[0], "-U", 2) != 0))
    return;
  const char *v = out[0][2] ? out[0] + 2 : n == 2 ? out[1] : next;
  if (v)
    append_header_option(c, out[0][1] == 'D' ? "-D" : "-U", v);
}

/* An unknown option, with the known one it is closest to ("did you mean"), its value
 * (`--scop=all`) left out of the comparison. */
static int unknown_option(const char *a) {
  enum { N_NAMES = sizeof flags / sizeof flags[0] + sizeof values / sizeof values[0] +
                   sizeof choice_options / sizeof choice_options[0] + 8 };
  const char *names[N_NAMES] = {"--help", "--version", "--pair", "-I", "-D", "-U"}, *near;
  size_t n = 6;
  for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
    names[n++] = flags[k].name;
  for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
    names[n++] = values[k].name;
  for (size_t k = 0; k < sizeof choice_options / sizeof choice_options[0]; k++)
    names[n++] = choice_options[k].name;
  names[n] = NULL;
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
  if (!(near = cp_closest_name(name, names)))
    return usage_error("unknown option '%s'", a);
  char msg[160];
  snprintf(msg, sizeof msg, "unknown option '%s'; did you mean '%s'?", a, near);
  return usage_error("%s", msg);
}

/* -Wno-RULE, -WRULE, -Werror=RULE, -Wno-error=RULE, -Werror, -Wno-error: what becomes of
 * the warnings of a rule (the name in brackets at a diagnostic's end). Returns 0 when `a`
 * is none of them, -1 when it was applied, or the exit status (an unknown rule, named
 * with the known ones). */
static int parse_warning_option(const char *a) {
  static const struct {
    const char *prefix;
    cp_warning_control w;
  } forms[] = {{"-Wno-error=", CP_W_NO_ERROR}, {"-Werror=", CP_W_ERROR}, {"-Wno-", CP_W_OFF},
               {"-W", CP_W_ON}};
  if (strncmp(a, "-W", 2) != 0)
    return 0;
  if (strcmp(a, "-Werror") == 0 || strcmp(a, "-Wno-error") == 0) {
    cp_set_warning(-1, a[2] == 'e' ? CP_W_ERROR : CP_W_NO_ERROR);
    return -1;
  }
  size_t f = 0;
  while (strncmp(a, forms[f].prefix, strlen(forms[f].prefix)) != 0)
    f++;
  const char *name = a + strlen(forms[f].prefix), *names[CP_RULE_COUNT + 1] = {NULL};
  for (int r = 0; r < CP_RULE_COUNT; r++) {
    names[r] = cp_rule_name((cp_rule)r);
    if (strcmp(name, names[r]) == 0) {
      cp_set_warning(r, forms[f].w);
      return -1;
    }
  }
  char msg[1536], *m = msg;
  const char *near = *name ? cp_closest_name(name, names) : NULL;
  m += snprintf(m, 512, "unknown warning rule '%.200s' in '%.200s'", name, a);
  if (near)
    m += snprintf(m, 64, "; did you mean '%s'?", near);
  m += snprintf(m, 32, " (the rules:");
  for (int r = 0; r < CP_RULE_COUNT; r++)
    m += snprintf(m, (size_t)(msg + sizeof msg - m), " %s", names[r]);
  snprintf(m, (size_t)(msg + sizeof msg - m), ")");
  cp_tool_error("%s", msg);
  if (cp_diag_is_text())
    fputs("Try 'cpconvert --help' for more information.\n", stderr);
  return CP_EXIT_USAGE;
}

/* A response file's text split into arguments as gcc and clang split it: white space
 * separates them, '...' quotes literally, "..." quotes with backslash escapes, and a
 * backslash outside quotes escapes the next character. Appends them to `out`. */
static void split_response(const char *t, char ***out, int *n, int *cap) {
  while (*t) {
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r' || *t == '\f' || *t == '\v')
      t++;
    if (!*t)
      break;
    char *arg = malloc(strlen(t) + 1), *o = arg;
    for (char q = 0; *t && (q || !strchr(" \t\n\r\f\v", *t)); t++) {
      if (q == '\'')
        q = *t == '\'' ? 0 : (*o++ = *t, q); /* literal up to the closing quote */
      else if (*t == '\\' && t[1])
        *o++ = *++t;
      else if (*t == '"' || (!q && *t == '\''))
        q = q ? 0 : *t;
      else
        *o++ = *t;
    }
    *o = 0;
    if (*n + 1 >= *cap)
      *out = realloc(*out, (size_t)(*cap *= 2) * sizeof **out);
    (*out)[(*n)++] = arg;
  }
}

/* Appends `a` to the expanded arguments, or (an @FILE) what FILE holds, read the same way
 * (nested @FILEs, `depth` levels deep at most). -1, or the exit status after a message. */
static int expand_arg(const char *a, char ***out, int *n, int *cap, int depth) {
  if (a[0] != '@' || !a[1]) {
    if (*n + 1 >= *cap)
      *out = realloc(*out, (size_t)(*cap *= 2) * sizeof **out);
    (*out)[(*n)++] = strdup(a);
    return -1;
  }
  if (depth > 16) {
    cp_tool_error("response file '%s' nests more than 16 levels deep", a + 1);
    return CP_EXIT_USAGE;
  }
  size_t len = 0;
  char *text = cp_read_file(a + 1, CP_MAX_ARGS_FILE, &len);
  if (!text) {
    cp_tool_error("cannot read response file '%s': %s", a + 1, cp_strerror(errno));
    return CP_EXIT_ERRORS;
  }
  cp_note_read("the response file", a + 1);
  char **inner = malloc(8 * sizeof *inner);
  int n_inner = 0, cap_inner = 8, status = -1;
  split_response(text, &inner, &n_inner, &cap_inner);
  for (int i = 0; i < n_inner && status < 0; i++)
    status = expand_arg(inner[i], out, n, cap, depth + 1);
  for (int i = 0; i < n_inner; i++)
    free(inner[i]);
  free(inner);
  free(text);
  return status;
}

int cp_expand_args(int argc, char **argv, int *n_out, char ***out) {
  int cap = argc + 8, status = -1;
  *out = malloc((size_t)cap * sizeof **out);
  (*out)[0] = strdup(argv[0]);
  *n_out = 1;
  for (int i = 1; i < argc && status < 0; i++)
    status = expand_arg(argv[i], out, n_out, &cap, 0);
  (*out)[*n_out] = NULL;
  return status;
}

void cp_cli_free(cli *c) {
  free(c->clang_args);
  free(c->pair_names);
  free(c->inputs);
}

int cp_parse_args(int argc, char **argv, cli *c) {
  c->clang_args = calloc(2 * (size_t)argc + 1, sizeof *c->clang_args);
  c->pair_names = calloc((size_t)argc + 1, sizeof *c->pair_names);
  c->inputs = calloc((size_t)argc + 1, sizeof *c->inputs);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    int status;
    if (strcmp(a, "--") == 0) {
      for (i++; i < argc;) { /* nvcc's own options dropped or mapped, clang's kept */
        int n = 0;
        const char **out = c->clang_args + c->n_clang_args;
        i += cp_nvcc_arg(argv[i], i + 1 < argc ? argv[i + 1] : NULL,
                         i + 2 < argc ? argv[i + 2] : NULL, out, &n);
        c->n_clang_args += n;
        name_macro(c, out, n, i < argc ? argv[i] : NULL);
      }
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      for (int k = 0; cp_usage_text[k]; k++)
        fputs(cp_usage_text[k], stdout);
      return CP_EXIT_OK;
    } else if (strcmp(a, "--version") == 0) {
      print_version();
      return CP_EXIT_OK;
    } else if (flag_of(c, a)) {
      *flag_of(c, a) = 1;
      if (strcmp(a, "--all") == 0 || strcmp(a, "--line-directives") == 0 ||
          strcmp(a, "--profile") == 0)
        append_header_option(c, a, "");
    } else if ((status = parse_value_option(c, a, argc, argv, &i)) != 0 ||
               (status = parse_list_option(c, a, argc, argv, &i)) != 0 ||
               (status = parse_choice_option(c, a, argc, argv, &i)) != 0 ||
               (status = parse_warning_option(a)) != 0) {
      if (status >= 0)
        return status;
    } else if (strncmp(a, "-ferror-limit=", 14) == 0 || strncmp(a, "-fmax-errors=", 13) == 0) {
      v = strchr(a, '=') + 1;
      char *end;
      unsigned long n = strtoul(v, &end, 10);
      if (!*v || *end || *v == '-' || n > 1000000)
        return usage_error("%s: the limit is a number of errors (0 for no limit)", a);
      cp_set_error_limit((unsigned)n);
    } else if (strncmp(a, "-j", 2) == 0 || long_option(a, "--jobs", argc, argv, &i, &v)) {
      if (a[1] == 'j')
        v = option_value(argc, argv, &i, a + 2);
      char *end = NULL;
      unsigned long n = v && *v && *v != '-' ? strtoul(v, &end, 10) : 0;
      if (!end || *end || n < 1 || n > 1024) /* no value, a sign, trailing text, out of range */
        return usage_error("%s: the number of processes to convert with, 1 to 1024", a);
      c->jobs = (int)n;
    } else if (a[0] == '-' && a[1]) {
      return unknown_option(a);
    } else {
      if (!c->input)
        c->input = a;
      c->inputs[c->n_inputs++] = a;
    }
  }
  if (c->use_profile)
    append_header_option(c, "--use-profile ", c->use_profile);
  return -1;
}

/* The files a run with -o writes (the output, the dependency file, --stats-csv) that are
 * an input or another of them: known before anything is read. (--o-dir's paths depend on
 * the headers, checked before writing: main.c.) 1 after a message. */
static int output_clash(const cli *c) {
  cp_named_file writes[4], *reads = calloc((size_t)c->n_inputs + 1, sizeof *reads);
  size_t n = 0;
  char *dep = c->md && c->output && !c->mf ? cp_depfile_path(c->output) : NULL;
  int outputs = !c->check && !c->diff && !c->dump_edits;
  if (c->output && outputs)
    writes[n++] = (cp_named_file){"the output", c->output};
  if (c->mf && outputs)
    writes[n++] = (cp_named_file){"-MF", c->mf};
  else if (dep && outputs)
    writes[n++] = (cp_named_file){"the dependency file", dep};
  if (c->stats_csv)
    writes[n++] = (cp_named_file){"--stats-csv", c->stats_csv};
  if (c->diag_output)
    writes[n++] = (cp_named_file){"--diagnostics-output", c->diag_output};
  for (int i = 0; i < c->n_inputs; i++)
    reads[i] = (cp_named_file){"the input", c->inputs[i]};
  int clash = cp_clash(writes, n, reads, (size_t)c->n_inputs);
  free(dep);
  free(reads);
  return clash;
}

/* --explain reads a profile and prints (or writes -o FILE.html): no input to convert,
 * nothing the conversion writes. */
static int explain_usage(const cli *c) {
  static const struct {
    const char *name;
    size_t field;
  } other[] = {{"--o-dir", offsetof(cli, o_dir)},         {"-MF", offsetof(cli, mf)},
               {"--stats-csv", offsetof(cli, stats_csv)}, {"-p", offsetof(cli, build_dir)},
               {"--use-profile", offsetof(cli, use_profile)}};
  if (c->n_inputs)
    return usage_error("--explain reads a profile and converts nothing; give it no input "
                       "('%s')", c->inputs[0]);
  for (size_t k = 0; k < sizeof other / sizeof other[0]; k++)
    if (*(const char **)((const char *)c + other[k].field))
      return usage_error("--explain writes no conversion; give it no %s", other[k].name);
  const char *flag = c->diff ? "--diff" : c->check ? "--check" : c->dump_edits ? "--dump-edits"
                     : c->suggest ? "--suggest" : c->md ? "-MD" : c->stats ? "--stats"
                     : NULL;
  if (flag)
    return usage_error("--explain writes no conversion; give it no %s", flag);
  size_t n = c->output ? strlen(c->output) : 0;
  if (c->output && !(n > 5 && strcmp(c->output + n - 5, ".html") == 0) &&
      !(n > 4 && strcmp(c->output + n - 4, ".htm") == 0))
    return usage_error("--explain -o writes an HTML page: name it FILE.html, not '%s' (the "
                       "JSON budget goes to stdout with --diagnostics-format json)", c->output);
  if (c->output && cp_same_file(c->output, c->explain))
    return usage_error("the output '%s' is the profile; choose another output", c->output);
  if (c->diag_output && (cp_same_file(c->diag_output, c->explain) ||
                        (c->output && cp_same_target(c->diag_output, c->output))))
    return usage_error("--diagnostics-output '%s' is the profile or the output; choose another "
                       "file", c->diag_output);
  return -1;
}

int cp_check_usage(const cli *c) {
  if (c->diag_output && c->diag_format == CP_DIAG_TEXT)
    return usage_error("%s needs --diagnostics-format sarif or json (the text diagnostics "
                       "go to stderr)", "--diagnostics-output");
  if (c->explain)
    return explain_usage(c);
  if (c->markdown)
    return usage_error("%s goes with --list-rules", "--markdown");
  if (!c->n_inputs)
    return usage_error("%s", "no input file");
  if (c->output && c->o_dir)
    return usage_error("%s", "give -o FILE or --o-dir DIR, not both");
  if (c->n_inputs > 1 && c->output)
    return usage_error("%s", "-o takes one input; give --o-dir DIR for several");
  if (c->suggest && (c->output || c->o_dir || c->diff || c->dump_edits || c->check))
    return usage_error("%s writes nothing; give it no -o, --o-dir, --diff, --dump-edits or --check",
                       "--suggest");
  if (!c->output && !c->o_dir && !c->dump_edits && !c->diff && !c->suggest)
    return usage_error("no output file; give -o FILE or --o-dir DIR (or --diff, --dump-edits)%s",
                       "");
  if (c->check && !c->output && !c->o_dir)
    return usage_error("%s needs -o FILE or --o-dir DIR, the output to check", "--check");
  if (c->md && !c->output && !c->o_dir)
    return usage_error("%s needs -o FILE or --o-dir DIR", c->mf ? "-MF" : "-MD");
  for (int i = 0; i < c->n_inputs && (c->output || c->stats_csv); i++) {
    if (c->output && cp_same_file(c->inputs[i], c->output))
      return usage_error("the output '%s' is the input file; choose another output", c->output);
    if (c->stats_csv && cp_same_file(c->inputs[i], c->stats_csv))
      return usage_error("--stats-csv '%s' is an input file; choose another file", c->stats_csv);
  }
  long twice = c->o_dir ? cp_duplicate((const char *const *)c->inputs, (size_t)c->n_inputs) : -1;
  if (twice >= 0)
    return usage_error("'%s' is given twice", c->inputs[twice]);
  if (c->build_dir) { /* -o must not land on the database it reads */
    size_t n = strlen(c->build_dir) + sizeof "/compile_commands.json";
    char *json = malloc(n);
    snprintf(json, n, "%s/compile_commands.json", c->build_dir);
    cp_note_read("compile_commands.json", json);
    free(json);
  }
  if (output_clash(c)) {
    if (cp_diag_is_text())
      fputs("Try 'cpconvert --help' for more information.\n", stderr);
    return CP_EXIT_USAGE;
  }
  return -1;
}

