/*
 * compdb.c: -p BUILD_DIR, the parser flags of each input from the compilation database
 * (compile_commands.json, as CMake or bear write it), read here (read_database).
 *
 * The compile commands are nvcc's, clang's or a host compiler's. Only what changes how
 * the source parses is kept: -I, -D, -U, -isystem, -iquote, -idirafter, -include and
 * -std, in their gcc/clang and nvcc spellings (--include-path, --define-macro, ...),
 * relative paths made absolute against the command's directory (an -include not found
 * there is looked for along the command's include path, as gcc and nvcc look for it;
 * resolve_includes). The database is loaded once a run. Code generation flags
 * (-O, -g, -arch, -gencode, -Xcompiler ...), the compiler, the source, the output and the
 * --driver-mode= libclang adds to every command are dropped silently; any other flag is
 * dropped with a warning, since cpconvert cannot tell whether it matters. Response files
 * (@FILE, nvcc's --options-file/-optf FILE, which CMake's Makefile generator uses for the
 * include directories) are read and their flags sorted the same way. A C standard
 * (-std=c99 of a host .c file) is dropped: cpconvert parses CUDA C++. `-Xclang X` is read
 * as X. `-include-pch F` (the build compiler's PCH, which libclang cannot load) is
 * dropped: the headers it stands for are force-included by the same command in CMake's
 * form; without them, with a warning. An -include is passed as `-Xclang -include -Xclang
 * H`, past clang's driver, which would otherwise load the build's H.pch or H.gch found
 * beside H instead of parsing H.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

typedef struct {
  char **s;
  int n;
} strings;

static void push(strings *l, char *s) {
  l->s = realloc(l->s, (size_t)(l->n + 1) * sizeof *l->s);
  l->s[l->n++] = s;
}

static char *concat(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%s%s%s", a, b, c);
  return s;
}

/* The flags kept: clang's spelling, nvcc's long spellings, and whether the value is a
 * path (made absolute). */
static const struct {
  const char *clang, *nvcc;
  int path;
} kept[] = {
    {"-I", "--include-path", 1},    {"-D", "--define-macro", 0}, {"-U", "--undefine-macro", 0},
    {"-isystem", "--system-include", 1}, {"-include", "--pre-include", 1},
    {"-iquote", NULL, 1},           {"-idirafter", NULL, 1},     {"-std", "--std", 0},
};

/* Dropped from compile commands without a word besides nvcc's own and the flags that write
 * a file (writes_file, below): the language, the target (with a value) and code generation
 * (alone); prefixes end with '*'. */
static const char *const dropped_with_value[] = {
    "-x", "--cuda-gpu-arch", "--cuda-path", "-target", "--offload-arch", NULL};
static const char *const dropped_alone[] = {
    "-c", "-O*", "-g*", "-W*", "-w", "-f*", "-m*", "-pthread", "-pipe", "-E", "--cuda-host-only",
    "--cuda-device-only", "-nocudainc", "-nocudalib", "-v", "--verbose", "-pedantic",
    "--driver-mode=*", NULL};

/* Whether `a` is `name`, `name=VALUE` or (`attached`) `nameVALUE`; *value is what follows
 * the name ("" when nothing does). */
static int spelled(const char *a, const char *name, int attached, const char **value) {
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0)
    return 0;
  if (a[n] && a[n] != '=' && !attached)
    return 0;
  *value = a[n] == '=' ? a + n + 1 : a + n;
  return 1;
}

static int in_list(const char *a, const char *const *list, int *has_value, int with_value) {
  for (int k = 0; list[k]; k++) {
    size_t n = strlen(list[k]);
    if (list[k][n - 1] == '*' ? strncmp(a, list[k], n - 1) == 0 : strcmp(a, list[k]) == 0) {
      *has_value = with_value;
      return 1;
    }
    if (with_value && strncmp(a, list[k], n) == 0 && a[n] == '=') {
      *has_value = 0; /* -arch=sm_90: the value is attached */
      return 1;
    }
  }
  return 0;
}

/* Marks an -include value not found in the command's directory: resolved against the
 * include path once the whole command is read (resolve_includes). */
#define UNRESOLVED "\001"

/* A kept flag with its value in clang's form; returns how many arguments it used (1 or
 * 2), 0 if `a` is not one. */
static int keep_flag(strings *out, const char *dir, const char *a, const char *next) {
  for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
    const char *v;
    int attached = strcmp(kept[k].clang, "-std") != 0; /* -Ipath, -isystem/usr/x (not -stdlib) */
    if (!spelled(a, kept[k].clang, attached, &v) &&
        !(kept[k].nvcc && spelled(a, kept[k].nvcc, 0, &v)))
      continue;
    int used = 1;
    if (!*v && next)
      v = next, used = 2;
    if (!*v)
      return used;
    if (strcmp(kept[k].clang, "-std") == 0) {
      if (strstr(v, "++")) /* c99, gnu11: a C standard, which a CUDA C++ parse rejects */
        push(out, concat("-std=", v, ""));
      return used;
    }
    int cc1 = strcmp(kept[k].clang, "-include") == 0;
    if (cc1) /* past the driver, which would load H.pch or H.gch beside H in its place */
      push(out, strdup("-Xclang"));
    push(out, strdup(kept[k].clang));
    if (cc1)
      push(out, strdup("-Xclang"));
    char *full = kept[k].path && v[0] != '/' ? concat(dir, "/", v) : strdup(v);
    if (cc1 && v[0] != '/' && access(full, F_OK) != 0) { /* resolved later: include_path */
      free(full);
      full = concat(UNRESOLVED, v, "");
    }
    push(out, full);
    return used;
  }
  return 0;
}

/* One compile command of the database: its directory, the file it compiles, and its
 * arguments (args[0] the compiler). */
typedef struct {
  char *dir, *file;
  strings args;
} command;

/* The arguments of a compile command with clang's `-Xclang X` wrappers taken off (CMake
 * writes `-Xclang -include-pch -Xclang F -Xclang -include -Xclang H` for clang): X is a
 * flag of clang's, read as one. The caller frees the array and its strings. */
static char **command_args(const command *cmd, unsigned *count) {
  unsigned n = (unsigned)cmd->args.n, k = 0;
  char **args = calloc(n + 1, sizeof *args);
  for (unsigned i = 0; i < n; i++)
    if (!(strcmp(cmd->args.s[i], "-Xclang") == 0 && i + 1 < n))
      args[k++] = strdup(cmd->args.s[i]);
  *count = k;
  return args;
}

/* -include-pch F: a precompiled header of the build's compiler, which libclang cannot
 * load (another version, other flags); it only stands for headers the command also
 * force-includes (`-include H`, as CMake writes it), which cpconvert then parses. Without
 * such an -include the declarations are missing: a warning names the flag. Returns how
 * many arguments it took, 0 if `args[i]` is no -include-pch. */
static unsigned drop_include_pch(char **args, unsigned n, unsigned i, const char *input) {
  const char *v;
  if (!spelled(args[i], "-include-pch", 0, &v))
    return 0;
  unsigned used = !*v && i + 1 < n ? 2 : 1;
  int forced = 0;
  for (unsigned k = 1; k < n; k++)
    forced |= strncmp(args[k], "-include", 8) == 0 && strncmp(args[k], "-include-pch", 12) != 0;
  if (!forced)
    cp_tool_warning("%s: ignoring '-include-pch %s' of its compile command (a precompiled "
                    "header of the build's compiler); give the header it was made from with "
                    "'-- -include HEADER'", input, *v ? v : used == 2 ? args[i + 1] : "");
  return used;
}

/* Splits `text` into arguments as gcc, clang and nvcc split a response file and as
 * clang splits a database's "command": separated by white space, quoted with '...' or
 * "...", a backslash escaping the next character (not within '...'). */
static void split_words(strings *args, const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      i++;
    if (i == len)
      break;
    char *word = malloc(len - i + 1), quote = 0;
    size_t w = 0;
    for (; i < len && (quote || !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                                  text[i] == '\r')); i++) {
      if (quote && text[i] == quote)
        quote = 0;
      else if (!quote && (text[i] == '"' || text[i] == '\''))
        quote = text[i];
      else if (text[i] == '\\' && i + 1 < len && quote != '\'')
        word[w++] = text[++i];
      else
        word[w++] = text[i];
    }
    word[w] = '\0';
    push(args, realloc(word, w + 1));
  }
}

/* The arguments in response file `path` (relative to `dir`), split as split_words does.
 * Returns -1 if it cannot be read. */
static int read_response_file(strings *args, const char *dir, const char *path) {
  char *full = path[0] == '/' ? strdup(path) : concat(dir, "/", path);
  size_t len = 0;
  char *text = cp_read_file(full, CP_MAX_ARGS_FILE, &len);
  if (text)
    cp_note_read("the response file", full);
  free(full);
  if (!text)
    return -1;
  split_words(args, text, len);
  free(text);
  return 0;
}

/* Sorts `args` (from `first` on) into `out`; warns about the others. Response files are
 * read and sorted in place, `depth` deep at most (one may name another). */
/* Flags that would make the parser write a file, after `--` or in a compile command (a
 * dependency file, a trace, saved temporaries, statistics, serialized diagnostics, a copy
 * of every header read, a compilation database entry, the modules -fmodules builds into
 * the user's cache):
 * dropped, whatever they name, since nothing the parser is given may write a file (`-- -MD
 * -MF k.cu` must not overwrite the input); with a value apart, or joined (`-MFdeps.d`,
 * `-ftime-trace=DIR`). `-o` and `--output` too. */
static const char *const writing_with_value[] = {"-MF", "-MT", "-MQ", "-MJ", "-o", "--output",
                                                 "-dependency-file", "-dependency-dot",
                                                 "-header-include-file", "-module-dependency-dir",
                                                 "-serialize-diagnostics",
                                                 "--serialize-diagnostics",
                                                 "-serialize-diagnostic-file", NULL};
static const char *const writing_alone[] = {"-M", "-MM", "-MD", "-MMD", "-MG", "-MP", "-MV",
                                            "--dependencies", "--user-dependencies",
                                            "--write-dependencies", "--write-user-dependencies",
                                            "-save-temps*", "--save-temps*", "-save-stats*",
                                            "--save-stats*", "-stats-file*", "-ftime-trace*",
                                            "-fcrash-diagnostics*", "-fproc-stat-report*",
                                            "-fmodules", "-fmodules-cache-path=*",
                                            "-fmodule-output*", NULL};

/* How many arguments from `a` on write a file (0: none): `-MF X`, `-MFX`, `-Xclang -MF
 * -Xclang X`, `-Wp,-MD,X` (the driver makes it `-MD -MF X`; other words of -Wp, go to the
 * preprocessor as they are), ... */
static int writes_file(const char *a, const char *next, const char *after_next) {
  int has_value;
  if (strcmp(a, "-Xclang") == 0 && next) {
    int k = writes_file(next, NULL, NULL);
    if (k == 0)
      return 0;
    /* `-Xclang -dependency-dot -Xclang FILE`: the value comes through -Xclang too */
    int takes = in_list(next, writing_with_value, &has_value, 1) && has_value;
    return takes && after_next && strcmp(after_next, "-Xclang") == 0 ? 4 : 2;
  }
  if (strncmp(a, "-Wp,", 4) == 0)
    for (const char *w = a + 4; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) {
      char word[256];
      snprintf(word, sizeof word, "%.*s", (int)strcspn(w, ","), w);
      if (writes_file(word, NULL, NULL))
        return 1;
    }
  if (in_list(a, writing_alone, &has_value, 0))
    return 1;
  for (int k = 0; writing_with_value[k]; k++) {
    size_t n = strlen(writing_with_value[k]);
    if (strncmp(a, writing_with_value[k], n) == 0)
      return a[n] ? 1 : next ? 2 : 1; /* -MFX or -MF=X; -MF X */
  }
  return 0;
}

/* What the parser takes from -Xcompiler VALUE (the host compiler's flags, a comma list):
 * VALUE itself when it is one -D, -U or -I flag; _OPENMP as gcc defines it for an item
 * -fopenmp; nothing else (code generation and warnings). *lost: a -D, -U or -I inside a
 * list, which is not split (the caller warns). */
static int host_flags(const char *v, const char **out, int *lost) {
  int n = 0, openmp = 0;
  *lost = 0;
  if (!v)
    return 0;
  int list = strchr(v, ',') != NULL;
  if (!list && v[0] == '-' && (v[1] == 'D' || v[1] == 'U' || v[1] == 'I') && v[2])
    out[n++] = v;
  for (const char *p = v; *p; p += *p == ',') {
    size_t len = strcspn(p, ",");
    if (len == 8 && strncmp(p, "-fopenmp", 8) == 0 && !openmp++)
      out[n++] = "-D_OPENMP=201511";
    else if (list && len > 2 && p[0] == '-' && (p[1] == 'D' || p[1] == 'U' || p[1] == 'I'))
      *lost = 1;
    p += len;
  }
  return n;
}

/* -Xcompiler VALUE, --compiler-options VALUE or =VALUE: how many arguments (0: not it). */
static int xcompiler(const char *a, const char *next, const char **value) {
  const char *names[] = {"-Xcompiler", "--compiler-options", "-compiler-options"};
  for (int k = 0; k < 3; k++) {
    size_t n = strlen(names[k]);
    if (strncmp(a, names[k], n) == 0 && a[n] == '=') {
      *value = a + n + 1;
      return 1;
    }
    if (strcmp(a, names[k]) == 0) {
      *value = next;
      return next ? 2 : 1;
    }
  }
  return 0;
}

/* nvcc's own option at args[i] in a compile command: its macros and host flags pushed;
 * how many arguments it took (0: not nvcc's). */
static int nvcc_flag(strings *out, const char *a, const char *next, const char *input) {
  const char *v, *flags[3], *define;
  int lost, used = xcompiler(a, next, &v), n = 0;
  if (used) {
    n = host_flags(v, flags, &lost);
    if (lost)
      cp_tool_warning("%s: the -D, -U and -I of '-Xcompiler %s' in its compile command are "
                      "not passed to the parser (a list); give each its own -Xcompiler", input, v);
  } else if ((used = cp_nvcc_option(a, next, &define)) > 0 && define) {
    flags[n++] = define;
  }
  for (int k = 0; k < n; k++)
    push(out, strdup(flags[k]));
  return used;
}

static void filter_args(strings *out, const char *dir, char **args, int n, int first,
                        const char *input, int depth) {
  for (int i = first; i < n; i++) {
    int used, has_value;
    const char *rsp = args[i][0] == '@' ? args[i] + 1
                      : (strcmp(args[i], "--options-file") == 0 || strcmp(args[i], "-optf") == 0) &&
                              i + 1 < n ? args[++i]
                      : NULL;
    strings more = {NULL, 0};
    if (rsp && depth < 8 && read_response_file(&more, dir, rsp) == 0) {
      filter_args(out, dir, more.s, more.n, 0, input, depth + 1);
    } else if (rsp) {
      cp_tool_warning("%s: cannot read the response file '%s' of its compile command in "
                      "compile_commands.json; its flags are not passed to the parser", input, rsp);
    } else if ((used = nvcc_flag(out, args[i], i + 1 < n ? args[i + 1] : NULL, input)) > 0 ||
               (used = writes_file(args[i], i + 1 < n ? args[i + 1] : NULL,
                                   i + 2 < n ? args[i + 2] : NULL)) > 0 ||
               (used = (int)drop_include_pch(args, (unsigned)n, (unsigned)i, input)) > 0 ||
               (used = keep_flag(out, dir, args[i], i + 1 < n ? args[i + 1] : NULL)) > 0) {
      i += used - 1;
    } else if (in_list(args[i], dropped_with_value, &has_value, 1) ||
               in_list(args[i], dropped_alone, &has_value, 0)) {
      i += has_value && i + 1 < n;
    } else if (args[i][0] == '-') {
      cp_tool_warning("%s: ignoring '%s' of its compile command in compile_commands.json "
                      "(not a flag cpconvert passes to the parser)", input, args[i]);
    }
    for (int k = 0; k < more.n; k++)
      free(more.s[k]);
    free(more.s);
  }
}

/* An -include H that is not in the command's directory, found as the compiler finds it
 * (gcc and nvcc: "the rest of the #include \"...\" chain"): in the -iquote, then -I, then
 * -isystem, then -idirafter directories of the command (`-Iinc -include cfg.h` is
 * inc/cfg.h), whichever order they came in; else DIR/H, which the parser's error names. */
static void resolve_includes(strings *out, int first, const char *dir) {
  static const char *const chain[] = {"-iquote", "-I", "-isystem", "-idirafter"};
  for (int i = first; i < out->n; i++) {
    if (out->s[i][0] != UNRESOLVED[0])
      continue;
    const char *name = out->s[i] + 1;
    char *found = NULL;
    for (size_t c = 0; c < sizeof chain / sizeof chain[0] && !found; c++)
      for (int k = first; k + 1 < out->n && !found; k++) {
        if (strcmp(out->s[k], chain[c]) != 0 || out->s[k + 1][0] == UNRESOLVED[0])
          continue;
        found = concat(out->s[k + 1], "/", name);
        if (access(found, F_OK) != 0) {
          free(found);
          found = NULL;
        }
      }
    if (!found) /* before `name` goes with the string it points into */
      found = concat(dir, "/", name);
    free(out->s[i]);
    out->s[i] = found;
  }
}

/* Sorts the arguments of one compile command into `out` (args[0] is the compiler). */
static void filter_command(strings *out, const command *cmd, const char *input) {
  unsigned n = 0;
  char **args = command_args(cmd, &n);
  int first = out->n;
  filter_args(out, cmd->dir, args, (int)n, 1, input, 0);
  resolve_includes(out, first, cmd->dir);
  for (unsigned i = 0; i < n; i++)
    free(args[i]);
  free(args);
}

/* The real path of the file compile command `cmd` compiles, or NULL. */
static char *compiled_file(const command *cmd) {
  char *path = cmd->file[0] == '/' ? strdup(cmd->file) : concat(cmd->dir, "/", cmd->file);
  char *real = realpath(path, NULL);
  free(path);
  return real;
}

/* compile_commands.json is read here, not through libclang's loader: that one expands
 * every @FILE of every command as it loads, without a bound (a command naming @/dev/zero
 * read until memory ran out; a FIFO would block), and guesses commands for files the
 * database does not hold. The format is clang's (JSONCompilationDatabase): an array of
 * objects, each with "directory", "file", and "arguments" (an array of strings) or
 * "command" (one string, split by split_words); other members ("output") are skipped.
 * The JSON is json.c's strict reading, walked here entry by entry. */
static void free_command(command *c) {
  free(c->dir);
  free(c->file);
  for (int i = 0; i < c->args.n; i++)
    free(c->args.s[i]);
  free(c->args.s);
  memset(c, 0, sizeof *c);
}

/* One object of the array into `c`; 0 after cp_json_fail(). */
static int json_command(cp_json *j, command *c) {
  const char *start = j->s;
  char *line = NULL;
  int have_args = 0;
  if (!cp_json_take(j, '{'))
    return cp_json_fail(j, "'{' (each entry is an object)");
  if (!cp_json_take(j, '}'))
    do {
      char *key = cp_json_string(j), **slot = NULL;
      if (!key || !cp_json_take(j, ':')) {
        free(key);
        free(line);
        return cp_json_fail(j, "':'");
      }
      if (strcmp(key, "directory") == 0 || strcmp(key, "file") == 0 ||
          strcmp(key, "command") == 0)
        slot = key[0] == 'd' ? &c->dir : key[0] == 'f' ? &c->file : &line;
      int is_args = strcmp(key, "arguments") == 0;
      free(key);
      if (slot) {
        char *v = cp_json_string(j);
        if (!v) {
          free(line);
          return 0;
        }
        free(*slot);
        *slot = v;
      } else if (is_args) {
        if (!cp_json_take(j, '[')) {
          free(line);
          return cp_json_fail(j, "'[' (\"arguments\" is an array of strings)");
        }
        for (int i = 0; i < c->args.n; i++)
          free(c->args.s[i]);
        c->args.n = 0;
        have_args = 1;
        if (!cp_json_take(j, ']')) {
          do {
            char *v = cp_json_string(j);
            if (!v) {
              free(line);
              return 0;
            }
            push(&c->args, v);
          } while (cp_json_take(j, ','));
          if (!cp_json_take(j, ']')) {
            free(line);
            return cp_json_fail(j, "',' or ']'");
          }
        }
      } else if (!cp_json_skip(j, 2)) {
        free(line);
        return 0;
      }
    } while (cp_json_take(j, ','));
  if (!cp_json_take(j, '}')) {
    free(line);
    return cp_json_fail(j, "',' or '}'");
  }
  if (line && !have_args) /* "arguments" wins over "command", as in clang */
    split_words(&c->args, line, strlen(line));
  free(line);
  if (!c->dir || !c->file || (!have_args && !c->args.n)) {
    j->s = start;
    return cp_json_fail(j, !c->dir    ? "an entry with a \"directory\""
                     : !c->file ? "an entry with a \"file\""
                                : "an entry with \"arguments\" or a \"command\"");
  }
  return 1;
}

/* The commands of database text `text` (`len` bytes), or -1 after a message naming the
 * line and column where it stops being one. */
static int read_database(const char *build_dir, const char *text, size_t len, command **cmds,
                         unsigned *n) {
  cp_json j;
  cp_json_init(&j, text, len);
  *cmds = NULL;
  *n = 0;
  size_t cap = 0;
  cp_json_space(&j);
  if (j.s + 3 <= j.end && memcmp(j.s, "\xEF\xBB\xBF", 3) == 0)
    j.s += 3; /* a byte order mark */
  int ok = cp_json_take(&j, '[') || cp_json_fail(&j, "'[' (the database is an array of entries)");
  if (ok && !cp_json_take(&j, ']')) {
    do {
      if (*n == cap) {
        cap = cap ? 2 * cap : 64;
        *cmds = realloc(*cmds, cap * sizeof **cmds);
      }
      memset(&(*cmds)[*n], 0, sizeof **cmds);
      ok = json_command(&j, &(*cmds)[*n]);
      if (!ok)
        free_command(&(*cmds)[*n]);
      else
        ++*n;
    } while (ok && cp_json_take(&j, ','));
    ok = ok && (cp_json_take(&j, ']') || cp_json_fail(&j, "',' or ']'"));
  }
  cp_json_space(&j);
  if (ok && j.s != j.end)
    ok = cp_json_fail(&j, "nothing after the array");
  if (ok)
    return 0;
  unsigned line, col;
  cp_json_where(&j, j.at, &line, &col);
  cp_tool_error("-p '%s': '%s/compile_commands.json' line %u, column %u: expected %s", build_dir,
                build_dir, line, col, j.error);
  for (unsigned i = 0; i < *n; i++)
    free_command(&(*cmds)[i]);
  free(*cmds);
  *cmds = NULL;
  *n = 0;
  return -1;
}

/* The database of -p, read once per run (every input looks itself up in it): its
 * commands, and their files' real paths sorted for a binary search. */
typedef struct {
  char *real;
  unsigned index;
} entry;

static struct {
  char *build_dir;
  int ok;
  command *cmds;
  unsigned n_cmds;
  entry *by_file;
  unsigned n;
} loaded;

static int by_file(const void *a, const void *b) {
  const entry *x = a, *y = b;
  int c = strcmp(x->real, y->real);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Loads the database of `build_dir` (once): 0, or -1 after a message. Only a regular
 * file of a sane size is read (a FIFO would block the run, /dev/zero never end). */
static int load(const char *build_dir) {
  if (loaded.build_dir && strcmp(loaded.build_dir, build_dir) == 0)
    return loaded.ok ? 0 : -1;
  loaded.build_dir = strdup(build_dir);
  char *path = concat(build_dir, "/compile_commands.json", "");
  size_t len = 0;
  errno = 0;
  char *text = cp_read_file(path, CP_MAX_ARGS_FILE * 4, &len);
  int err = errno;
  free(path);
  if (!text) {
    cp_tool_error("-p '%s': no readable '%s/compile_commands.json' (%s; CMake writes it with "
                  "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, bear with 'bear -- make')", build_dir,
                  build_dir, cp_strerror(err));
    return -1;
  }
  int rc = read_database(build_dir, text, len, &loaded.cmds, &loaded.n_cmds);
  free(text);
  if (rc != 0)
    return -1;
  loaded.ok = 1;
  loaded.by_file = calloc((size_t)loaded.n_cmds + 1, sizeof *loaded.by_file);
  for (unsigned i = 0; i < loaded.n_cmds; i++) {
    char *real = compiled_file(&loaded.cmds[i]);
    if (real)
      loaded.by_file[loaded.n++] = (entry){real, i};
  }
  qsort(loaded.by_file, loaded.n, sizeof *loaded.by_file, by_file);
  return 0;
}

/* The flags of `input` in the database, or -1 after a message. Only the database's own
 * entries count: libclang would infer a command for a file it does not hold from a
 * similar one, and flags guessed that way are no flags of the build. The first command
 * for the file counts, as before. */
static int database_flags(strings *out, const char *build_dir, const char *input) {
  if (load(build_dir) != 0)
    return -1;
  char want[PATH_MAX];
  size_t lo = 0, hi = loaded.n;
  if (realpath(input, want))
    while (lo < hi) { /* the first entry not below (want, 0) */
      size_t mid = (lo + hi) / 2;
      if (by_file(&loaded.by_file[mid], &(entry){want, 0}) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (!(lo < loaded.n && realpath(input, want) && strcmp(loaded.by_file[lo].real, want) == 0)) {
    cp_tool_error("'%s' has no compile command in '%s/compile_commands.json'; convert a file "
                  "the build compiles, or give its flags with -I/-D instead of -p", input,
                  build_dir);
    return -1;
  }
  filter_command(out, &loaded.cmds[loaded.by_file[lo].index], input);
  return 0;
}

const char **cp_compdb_flags(const char *build_dir, const char *input, const char *const *extra,
                             int n_extra, int *n) {
  strings got = {NULL, 0};
  if (database_flags(&got, build_dir, input) != 0) {
    for (int i = 0; i < got.n; i++)
      free(got.s[i]);
    free(got.s);
    return NULL;
  }
  /* one block: the pointers, then the strings they point at */
  size_t size = (size_t)(got.n + n_extra + 1) * sizeof(char *);
  for (int i = 0; i < got.n; i++)
    size += strlen(got.s[i]) + 1;
  const char **flags = malloc(size);
  char *text = (char *)(flags + got.n + n_extra + 1);
  for (int i = 0; i < got.n; i++) {
    flags[i] = strcpy(text, got.s[i]);
    text += strlen(got.s[i]) + 1;
    free(got.s[i]);
  }
  free(got.s);
  for (int i = 0; i < n_extra; i++)
    flags[got.n + i] = extra[i];
  flags[got.n + n_extra] = NULL;
  *n = got.n + n_extra;
  return flags;
}

int cp_nvcc_arg(const char *a, const char *next, const char *after, const char **out,
                int *n_out) {
  int w;
  *n_out = 0;
  const char *value, *define;
  int used = xcompiler(a, next, &value), lost;
  if (used) {
    *n_out = host_flags(value, out, &lost);
    if (lost)
      cp_tool_warning("the -D, -U and -I of '-Xcompiler %s' are not passed to the parser (a "
                      "list); give each its own -Xcompiler", value);
    return used;
  }
  if ((used = cp_nvcc_option(a, next, &define)) > 0) { /* before -o X: -odir X is nvcc's */
    if (define)
      out[(*n_out)++] = define;
    return used;
  }
  if ((w = writes_file(a, next, after)) != 0)
    return w;
  if (strcmp(a, "-std") == 0 && next) { /* nvcc's `-std c++17`, clang's `--std c++17` */
    out[(*n_out)++] = "--std";
    out[(*n_out)++] = next;
    return 2;
  }
  for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
    const char *v;
    if (!kept[k].nvcc || strcmp(kept[k].clang, "-std") == 0 || !spelled(a, kept[k].nvcc, 0, &v))
      continue; /* (clang reads --std=X itself) */
    out[(*n_out)++] = kept[k].clang;
    if (*v || !next) {
      if (*v)
        out[(*n_out)++] = v;
      return 1;
    }
    out[(*n_out)++] = next;
    return 2;
  }
  out[(*n_out)++] = a;
  return 1;
}
