/*
 * fuzz_cli.c: the fuzzing harness over the tool's own inputs and files (tool/), the part
 * fuzz_convert.c does not reach: response files and the command line, compile_commands.json
 * with its response files and -include search, the precompiled-header cache (trust rule,
 * lock, the PCH built in a child, the record and the headers' content hashes) and writing
 * the outputs (write-if-changed, every file or none, the rollback when a rename fails),
 * the diagnostics writers (text, SARIF, JSON) and the flags after `--`.
 *
 * One input: a mode byte, a flags byte, then up to four parts separated by \x01. Each
 * input runs in a directory of its own (created under $TMPDIR, removed after), made the
 * working directory meanwhile, with its own cache directory (XDG_CACHE_HOME). Modes:
 *   0 options  part 0 is a.rsp, part 1 b.rsp, part 2 in.cu; the command line is
 *              `cpconvert @a.rsp` and the words of part 3: cp_expand_args, cp_parse_args,
 *              cp_check_usage, and with -p the database's flags for the input
 *   1 compdb   compile_commands.json from the words of part 0 (a command or arguments,
 *              or part 0 itself as the file), opts.rsp part 1, more.rsp part 2, with
 *              a.cu, inc/cfg.h and sub/; cp_compdb_flags for a.cu
 *   2 cache    a PCH for `-include h.h` (h.h: part 0, over the built-in prelude) built in
 *              the cache, then its record (part 1), its bytes (part 2) or h.h (part 3,
 *              its times kept) replaced, a planted lock, a cache others may write
 *   3 outputs  up to four outputs (names and contents from the parts) over files that
 *              are missing, equal, different, a link or a directory, with a rename made
 *              to fail (EBUSY) at a chosen call
 *   4 diags    up to four diagnostics (message part 0, file name part 1, source line
 *              part 2, each cut anywhere or repeated past 2-12 kB; lines and columns 0,
 *              small, past the line, huge; chosen by the bytes of part 3) printed with
 *              cp_print_diag or as the tool's own errors, then cp_finish_diags, in the
 *              text, SARIF or JSON format
 *   5 dashes   `cpconvert in.cu -o out.cu WORDS1 [-p DIR] -- [@a.rsp] WORDS0` (a.rsp part
 *              2) through cp_expand_args and cp_parse_args, and with -p a database for
 *              in.cu from part 3: cp_compdb_flags
 * FUZZ_CLI_MODES (e.g. 45) limits a run to the modes it names.
 * Besides crashes, hangs and sanitizer reports, it aborts on a broken contract:
 *  - expanded arguments are NULL-terminated, the output header's options fit their buffer;
 *  - database flags end with the command line's own, none NULL;
 *  - a cache others may write is not used; a planted lock link leaves its target alone;
 *    a PCH whose header changed (times kept) is not served, an untouched one is;
 *  - cp_write_files: 0 and every file new (one that held the bytes untouched), or -1 and
 *    every file as it was; no temporary file left;
 *  - diagnostics: the text format holds no control byte but newline and tab; SARIF and
 *    JSON are one valid JSON document (contracts.c's own validator: RFC 8259, UTF-8)
 *    holding every diagnostic printed, SARIF with $schema, version and
 *    runs[0].tool.driver.name, JSON with each well-formed message, file name and source
 *    line as given; nothing else printed;
 *  - the parser's flags, from the command line and with the database's: NULL-terminated,
 *    no NULL inside, none that makes clang write a file (contracts.c's own reading of
 *    clang's options).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

void fuzz_reset_files(void);  /* glue_files.c */
void fuzz_reset_compdb(void); /* glue_compdb.c */

static void broken(const char *what) {
  fprintf(stderr, "fuzz_cli: contract broken: %s\n", what);
  abort();
}

/* rename() of the tool (linked with --wrap=rename): fails with EBUSY at call fail_at. */
static int fail_at = -1, renames;
int __real_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to) {
  if (renames++ == fail_at) {
    errno = EBUSY;
    return -1;
  }
  return __real_rename(from, to);
}

static void put(const char *path, const char *data, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    return;
  while (len) {
    ssize_t w = write(fd, data, len);
    if (w <= 0)
      break;
    data += w, len -= (size_t)w;
  }
  close(fd);
}

static void puts_file(const char *path, const char *text) { put(path, text, strlen(text)); }

static char *slurp(const char *path, size_t *len) {
  return cp_read_file(path, (size_t)1 << 24, len);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)ftw;
  return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static int open_up(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)ftw;
  if (flag == FTW_D || flag == FTW_DNR)
    chmod(p, 0700);
  (void)st;
  return 0;
}

/* The words of `s` (white space separated), at most `max`, copied into `buf`. */
static int words(char *s, const char **w, int max) {
  int n = 0;
  for (char *t = strtok(s, " \t\n"); t && n < max; t = strtok(NULL, " \t\n"))
    w[n++] = t;
  return n;
}

/* ---- mode 0: response files and the command line -------------------------------- */

static void fuzz_options(char **part, size_t *len, unsigned flags) {
  put("a.rsp", part[0], len[0]);
  put("b.rsp", part[1], len[1]);
  put("in.cu", part[2], len[2]);
  const char *argv[40] = {"cpconvert"};
  int argc = 1;
  if (!(flags & 1))
    argv[argc++] = "@a.rsp";
  argc += words(part[3], argv + argc, 36);
  if (flags & 1)
    argv[argc++] = "@a.rsp";
  argv[argc] = NULL;
  int n = 0;
  char **args = NULL;
  int st = cp_expand_args(argc, (char **)argv, &n, &args);
  if (n < 1 || args[n] != NULL)
    broken("expanded arguments not NULL-terminated");
  if (st < 0) {
    cli c = {.algo = CP_ALGO_ACCURATE};
    st = cp_parse_args(n, args, &c);
    if (strnlen(c.header_options, sizeof c.header_options) == sizeof c.header_options)
      broken("header options overflow their buffer");
    if (c.n_inputs > n || c.n_clang_args > 2 * n)
      broken("more inputs or parser flags than arguments");
    if (st < 0)
      st = cp_check_usage(&c);
    if (c.build_dir && c.input && (flags & 2)) {
      int k = 0;
      const char **f = cp_compdb_flags(c.build_dir, c.input, c.clang_args, c.n_clang_args, &k);
      for (int i = 0; f && i < k; i++)
        if (!f[i])
          broken("a NULL database flag");
      free(f);
    }
    cp_cli_free(&c);
  }
  for (int i = 0; i < n; i++)
    free(args[i]);
  free(args);
}

/* ---- mode 1: compile_commands.json ------------------------------------------------ */

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

/* compile_commands.json with `copies` entries compiling `file` in directory `dir`, from
 * the words w[0, n) (between `nvcc` and `-c FILE`), as "arguments" or as a "command". */
static void write_database(const char **w, int n, int command, int copies, const char *dir,
                           const char *file) {
  FILE *f = fopen("compile_commands.json", "w");
  if (!f)
    return;
  for (int copy = 0; copy < copies; copy++) {
    fprintf(f, "%s{\"directory\": ", copy ? ",\n" : "[\n");
    json_string(f, dir);
    fputs(", \"file\": ", f);
    json_string(f, file);
    fputs(", ", f);
    if (command) {
      fputs("\"command\": ", f);
      size_t cap = 64 + strlen(file);
      for (int i = 0; i < n; i++)
        cap += strlen(w[i]) + 1;
      char *cmd = calloc(1, cap);
      strcpy(cmd, "nvcc");
      for (int i = 0; i < n; i++)
        strcat(strcat(cmd, " "), w[i]);
      strcat(strcat(cmd, " -c "), file);
      json_string(f, cmd);
      free(cmd);
    } else {
      fputs("\"arguments\": [\"nvcc\"", f);
      for (int i = 0; i < n; i++) {
        fputs(", ", f);
        json_string(f, w[i]);
      }
      fputs(", \"-c\", ", f);
      json_string(f, file);
      fputs("]", f);
    }
    fputs("}", f);
  }
  fputs("\n]\n", f);
  fclose(f);
}

static void fuzz_compdb(char **part, size_t *len, unsigned flags, const char *dir) {
  mkdir("inc", 0700);
  mkdir("sub", 0700);
  puts_file("a.cu", "__global__ void k(float *x) { x[0] += 1.0f; }\n");
  puts_file("inc/cfg.h", "#define CFG 1\n");
  puts_file("sub/cfg.h", "#define CFG 2\n");
  put("opts.rsp", part[1], len[1]);
  put("inc/more.rsp", part[2], len[2]);
  if (flags & 1) {
    put("compile_commands.json", part[0], len[0]);
  } else {
    const char *w[256];
    int n = words(part[0], w, 256);
    write_database(w, n, flags & 2, 1 + !!(flags & 8), (flags & 4) ? "." : dir, "a.cu");
  }
  const char *extra[] = {"-DFROM_COMMAND_LINE"};
  int n = 0;
  const char **fl = cp_compdb_flags(dir, (flags & 16) ? "./a.cu" : "a.cu", extra, 1, &n);
  if (fl) {
    if (n < 1 || fl[n - 1] != extra[0] || fl[n])
      broken("database flags do not end with the command line's own");
    for (int i = 0; i < n; i++)
      if (!fl[i])
        broken("a NULL database flag");
  }
  free(fl);
}

/* ---- mode 2: the PCH cache -------------------------------------------------------- */

static void fuzz_cache(char **part, size_t *len, unsigned flags, const char *dir) {
  static const char precious[] = "precious: never written by the cache\n";
  char cache[4200], header[4200], victim[4200], dangling[4200];
  snprintf(cache, sizeof cache, "%s/cache", dir);
  snprintf(header, sizeof header, "%s/h.h", dir);
  snprintf(victim, sizeof victim, "%s/victim", dir);
  snprintf(dangling, sizeof dangling, "%s/dangling", dir);
  mkdir(cache, 0700);
  setenv("XDG_CACHE_HOME", cache, 1);
  puts_file(victim, precious);
  put(header, part[0], len[0]);
  const char *args[] = {"-include", header};
  cp_options opt = {.input = "in.cu", .clang_args = args, .n_clang_args = 2,
                    .algo = CP_ALGO_ACCURATE, .header_options = "", .version = "fuzz"};
  if ((flags & 3) == 1) { /* a cache directory others may write: never used */
    mkdir("cache/cpconvert", 0700);
    chmod("cache/cpconvert", 0777);
    char *p = cp_cache_path(&opt);
    if (p)
      broken("a cache directory others may write is used");
    chmod("cache/cpconvert", 0700);
    return;
  }
  char *path = cp_cache_path(&opt);
  if (!path)
    return;
  char lock[4300], info[4300];
  snprintf(lock, sizeof lock, "%s.lock", path);
  snprintf(info, sizeof info, "%s.info", path);
  if ((flags & 3) == 2) /* a planted lock: a link to a file of ours */
    symlink((flags & 4) ? victim : dangling, lock);
  else if ((flags & 3) == 3)
    mkfifo(lock, 0600);
  int built = (flags & 8) ? cp_cache_build(&opt, path, flags & 16) : -1;
  if ((flags & 3) >= 2) {
    size_t n = 0;
    char *v = slurp(victim, &n);
    if (!v || n != sizeof precious - 1 || memcmp(v, precious, n) != 0)
      broken("a planted lock's target was written");
    free(v);
    struct stat st;
    if (lstat(dangling, &st) == 0)
      broken("a dangling lock link was followed");
  }
  int changed = 0;
  if (flags & 32) { /* the record replaced */
    unlink(info);
    put(info, part[1], len[1]);
    changed = 1;
  }
  if (flags & 64) { /* the PCH's bytes replaced */
    unlink(path);
    put(path, part[2], len[2]);
    changed = 1;
  }
  int header_changed = 0;
  if (flags & 128) { /* the header changed, its times kept (cp -p, tar) */
    struct stat st;
    if (stat(header, &st) == 0) {
      header_changed = len[3] != len[0] || memcmp(part[3], part[0], len[0]) != 0;
      put(header, part[3], len[3]);
      struct timespec t[2] = {st.st_atim, st.st_mtim};
      utimensat(AT_FDCWD, header, t, 0);
    }
  }
  cp_arena *a = cp_arena_new();
  const char **deps = NULL;
  size_t n_deps = 0;
  int ok = cp_cache_check(path, a, &deps, &n_deps);
  if (ok == 1 && header_changed && !changed && built == 0)
    broken("a PCH whose header changed is served");
  if (ok != 1 && !header_changed && !changed && built == 0 && (flags & 3) == 0)
    broken("a PCH just built is not served");
  for (size_t i = 0; ok == 1 && i < n_deps; i++)
    if (!deps[i])
      broken("a NULL header of a PCH");
  cp_arena_free(a);
  if (getenv("FUZZ_CLI_VERBOSE"))
    fprintf(stderr, "fuzz_cli: cache %s: built %d, check %d, %zu headers\n", path, built, ok,
            n_deps);
  if (ok != 1 && (flags & 16) && (flags & 3) == 0)
    cp_cache_build(&opt, path, 0); /* replaces the damaged one */
  cp_cache_forget(path);
  free(path);
}

/* ---- mode 3: writing the outputs -------------------------------------------------- */

static void fuzz_outputs(char **part, size_t *len, unsigned flags, const unsigned char *sel) {
  cp_output out[4];
  char names[4][32], *before[4];
  size_t before_len[4];
  int existed[4], n = 0, unchanged_wanted[4];
  struct stat st_before[4];
  mkdir("d", 0700);
  for (int i = 0; i < 4; i++) {
    if (i > 0 && !(flags & (1u << (i - 1))))
      continue;
    int dup = (sel[i] & 0x30) == 0x30 && n > 0; /* the same name twice */
    if (dup)
      memcpy(names[n], names[n - 1], sizeof names[n]);
    else
      snprintf(names[n], sizeof names[n], "%sout%d.cu", (sel[i] & 0x40) ? "d/" : "", i);
    out[n] = (cp_output){names[n], part[i], len[i]};
    if (!dup) {
      switch (sel[i] & 7) {
      case 1: put(names[n], part[i], len[i]); break;             /* already the new bytes */
      case 2: puts_file(names[n], "old\n"); break;                /* old bytes */
      case 3: { /* a link to a file */
        char target[32], to[40];
        snprintf(target, sizeof target, "target%d", i);
        snprintf(to, sizeof to, "%s%s", (sel[i] & 0x40) ? "../" : "", target);
        puts_file(target, "old\n");
        symlink(to, names[n]);
        break;
      }
      case 4: mkdir(names[n], 0700); break;                       /* a directory: error */
      case 5: symlink("/dev/null", names[n]); break;              /* written through */
      default: break;                                             /* missing */
      }
    }
    n++;
  }
  int special = 0; /* a directory, a device, one file under two names: no content checks */
  for (int i = 0; i < n; i++) {
    struct stat lst;
    existed[i] = stat(names[i], &st_before[i]) == 0 && S_ISREG(st_before[i].st_mode);
    special |= lstat(names[i], &lst) == 0 && !existed[i];
    before[i] = existed[i] ? slurp(names[i], &before_len[i]) : NULL;
    unchanged_wanted[i] = before[i] && before_len[i] == out[i].len &&
                          memcmp(before[i], out[i].data, out[i].len) == 0;
  }
  renames = 0;
  fail_at = (flags & 16) ? (int)(sel[4] % 6) : -1;
  int rc = cp_write_files(out, (size_t)n);
  fail_at = -1;
  int dups = 0;
  for (int i = 1; i < n; i++)
    dups |= strcmp(names[i], names[i - 1]) == 0;
  for (int i = 0; i < n && !special && !dups; i++) {
    size_t got_len = 0;
    char *got = slurp(names[i], &got_len);
    if (rc == 0 && (!got || got_len != out[i].len || memcmp(got, out[i].data, got_len) != 0))
      broken("written, but a file does not hold its new bytes");
    if (rc != 0 && existed[i] && before[i] &&
        (!got || got_len != before_len[i] || memcmp(got, before[i], got_len) != 0))
      broken("failed, but a file does not hold its old bytes");
    if (rc != 0 && !existed[i] && got)
      broken("failed, but a file that was missing is there");
    struct stat st;
    if (rc == 0 && unchanged_wanted[i] && stat(names[i], &st) == 0 &&
        (st.st_ino != st_before[i].st_ino ||
         st.st_mtim.tv_nsec != st_before[i].st_mtim.tv_nsec ||
         st.st_mtim.tv_sec != st_before[i].st_mtim.tv_sec))
      broken("a file that held the new bytes was written");
    free(got);
  }
  for (int i = 0; i < n; i++)
    free(before[i]);
  /* no temporary file is left (they start with '.'). One file under two names is
   * refused before writing (cp_clash in main.c): only crashes count there. */
  const char *dirs[] = {".", "d"};
  for (int k = 0; k < 2 && !dups; k++) {
    DIR *d = opendir(dirs[k]);
    for (struct dirent *e; d && (e = readdir(d));)
      if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
        broken("a temporary file is left");
    if (d)
      closedir(d);
  }
}

/* ---- mode 4: the diagnostics writers ---------------------------------------------- */

const char *fuzz_json_check(const char *text, size_t len, size_t *at); /* contracts.c */
int fuzz_utf8_valid(const char *s, size_t n);
int fuzz_writes_file(const char *const *flags, int n);
void fuzz_reset_diag(void); /* glue_diag.c */

/* A line or column number: 0, 1, small, around the end of the line, huge. */
static unsigned number_of(unsigned char sel, size_t line_len) {
  unsigned small = sel / 8, end = (unsigned)line_len;
  switch (sel % 8) {
  case 0: return 0;
  case 1: return 1;
  case 2: return small;
  case 3: return end + small; /* at or past the end of the line */
  case 4: return UINT_MAX;
  case 5: return UINT_MAX - small;
  case 6: return 0x80000000u + small;
  default: return end > small ? end - small : 1;
  }
}

/* s[0, strlen) repeated to `want` bytes, cut there (inside a character maybe). */
static char *long_text(const char *s, size_t want) {
  size_t n = strlen(s);
  if (!n)
    return strdup("");
  char *t = malloc(want + 1);
  for (size_t i = 0; i < want; i++)
    t[i] = s[i % n];
  t[want] = '\0';
  return t;
}

static const cp_json_value *member(const cp_json_value *v, const char *key, cp_json_type t) {
  const cp_json_value *m = cp_json_member(v, key);
  return m && m->type == t ? m : NULL;
}

/* What the document must say of one diagnostic: its message, file and line as given
 * (NULL: not checked: a byte that is no UTF-8 is written as a code point). */
typedef struct {
  const char *message, *file, *line_text;
} expected;

static void same_text(const cp_json_value *v, const char *want, const char *what) {
  if (!want)
    return;
  if (!v || v->type != CP_JSON_STRING || strcmp(v->string, want) != 0) {
    fprintf(stderr, "fuzz_cli: %s differs from what was given\n", what);
    broken("a diagnostic's text changed in the document");
  }
}

static void check_document(const char *doc, size_t n, cp_diag_format fmt, int status,
                           const expected *want, size_t n_want) {
  size_t at = 0;
  const char *why = fuzz_json_check(doc, n, &at);
  if (why) {
    fprintf(stderr, "fuzz_cli: %s at byte %zu of the document:\n%.*s\n", why, at, (int)n, doc);
    broken("the diagnostics document is no valid JSON");
  }
  cp_json j;
  cp_json_init(&j, doc, n);
  cp_json_value *root = cp_json_parse(&j);
  if (!root || root->type != CP_JSON_OBJECT)
    broken("the tool's JSON reader refuses the diagnostics document");
  const cp_json_value *list = NULL;
  if (fmt == CP_DIAG_SARIF) {
    const cp_json_value *v = member(root, "version", CP_JSON_STRING),
                        *runs = member(root, "runs", CP_JSON_ARRAY);
    if (!v || strcmp(v->string, "2.1.0") != 0 || !member(root, "$schema", CP_JSON_STRING) ||
        !runs || runs->n != 1)
      broken("SARIF without $schema, version 2.1.0 or one run");
    const cp_json_value *run = &runs->items[0], *tool = member(run, "tool", CP_JSON_OBJECT);
    const cp_json_value *driver = tool ? member(tool, "driver", CP_JSON_OBJECT) : NULL;
    if (!driver || !member(driver, "name", CP_JSON_STRING))
      broken("SARIF without runs[0].tool.driver.name");
    list = member(run, "results", CP_JSON_ARRAY);
  } else {
    list = member(root, "diagnostics", CP_JSON_ARRAY);
    const cp_json_value *exit = member(root, "exit_status", CP_JSON_NUMBER);
    if (!exit || exit->number != status || !member(root, "errors", CP_JSON_NUMBER))
      broken("JSON without exit_status or errors");
  }
  if (!list || list->n != n_want)
    broken("the document does not hold every diagnostic printed");
  for (size_t i = 0; i < n_want; i++) {
    const cp_json_value *d = &list->items[i];
    if (fmt == CP_DIAG_SARIF) {
      const cp_json_value *m = member(d, "message", CP_JSON_OBJECT);
      if (!m || !member(m, "text", CP_JSON_STRING) || !member(d, "level", CP_JSON_STRING))
        broken("a SARIF result without message.text or level");
      continue;
    }
    same_text(member(d, "message", CP_JSON_STRING), want[i].message, "a message");
    same_text(member(d, "file", CP_JSON_STRING), want[i].file, "a file name");
    same_text(member(d, "source_line", CP_JSON_STRING), want[i].line_text, "a source line");
  }
  cp_json_free(root);
}

/* part 0: the message, part 1: the file name, part 2: the source line, part 3: bytes
 * choosing for each of up to four diagnostics its severity, where the message and file
 * name are cut, line and column, a rule named, and whether it comes as an error of the
 * tool itself (no place). flags: the format, -q/-w, the error limit, long texts. */
static void fuzz_diags(char **part, size_t *len, unsigned flags) {
  const unsigned char *ctl = (const unsigned char *)part[3];
#define CTL(i) ((size_t)(i) < len[3] ? ctl[(i)] : 0)
  cp_diag_format fmt = (cp_diag_format)(flags % 3);
  cp_severity least = (cp_severity)((flags / 4) % 3);
  int status = CTL(0) % 3;
  cp_set_diag_format(fmt);
  cp_set_diag_level(least);
  cp_set_error_limit(flags & 16 ? 1 : (flags & 32) ? 0 : 20);
  char *msg = (flags & 64) ? long_text(part[0], 2000 + CTL(1) * 8u) : strdup(part[0]);
  char *file = (flags & 128) ? long_text(part[1], 4000 + CTL(2) * 32u) : strdup(part[1]);
  char *line = (CTL(3) & 1) ? long_text(part[2], 200 + CTL(3) * 40u) : strdup(part[2]);
  size_t n_msg = strlen(msg), n_file = strlen(file), n_line = strlen(line);
  char *obuf = NULL, *dbuf = NULL;
  size_t olen = 0, dlen = 0;
  FILE *out = open_memstream(&obuf, &olen), *saved = stderr;
  expected want[4];
  char *texts[4][2] = {{NULL}};
  size_t n_want = 0;
  stderr = out; /* the tool's own errors, and the text format, go there */
  int n = 1 + CTL(4) % 4;
  for (int k = 0; k < n; k++) {
    unsigned char how = CTL(5 + 5 * k), cut_msg = CTL(6 + 5 * k), cut_file = CTL(7 + 5 * k);
    cp_severity sev = (cp_severity)(how % 3);
    size_t m = n_msg - (n_msg ? cut_msg % (n_msg + 1) : 0);
    size_t f = n_file - (n_file ? cut_file % (n_file + 1) : 0);
    char rule[64] = "";
    if (how & 4)
      snprintf(rule, sizeof rule, " [%s]", cp_rule_name((cp_rule)(how / 8 % CP_RULE_COUNT)));
    size_t cap = m + strlen(rule) + 1;
    char *text = malloc(cap), *name = strndup(file, f);
    snprintf(text, cap, "%.*s%s", (int)m, msg, rule);
    texts[k][0] = text, texts[k][1] = name;
    cp_diag d = {sev, (how & 16) ? NULL : name, number_of(CTL(8 + 5 * k), n_line),
                 number_of(CTL(9 + 5 * k), n_line), (how & 32) ? NULL : line, text};
    int own = (how & 64) != 0; /* through cp_tool_error: a message of at most 2047 bytes */
    if (own)
      (sev == CP_ERROR ? cp_tool_error : sev == CP_WARNING ? cp_tool_warning : cp_tool_note)(
          "%s", text);
    else
      cp_print_diag(out, &d);
    if (sev >= least) {
      size_t tl = strlen(text);
      int whole = !own || tl < 2048;
      want[n_want++] = (expected){
          whole && fuzz_utf8_valid(text, tl) ? text : NULL,
          !own && d.file && fuzz_utf8_valid(d.file, strlen(d.file)) ? d.file : NULL,
          !own && d.line_text && fuzz_utf8_valid(line, n_line) ? line : NULL};
    }
  }
  FILE *doc = open_memstream(&dbuf, &dlen);
  stderr = doc;
  cp_finish_diags(status);
  stderr = saved;
  fclose(out);
  fclose(doc);
  if (fmt == CP_DIAG_TEXT) {
    for (size_t i = 0; i < olen; i++) {
      unsigned char c = (unsigned char)obuf[i];
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
        fprintf(stderr, "fuzz_cli: byte 0x%02x at %zu of the text output\n", c, i);
        broken("a raw control byte in the text format");
      }
    }
    if (olen && obuf[olen - 1] != '\n')
      broken("the text format's output does not end with a newline");
    if (dlen)
      broken("the text format printed a document");
  } else {
    if (olen)
      broken("a machine format printed a diagnostic as text");
    check_document(dbuf, dlen, fmt, status, want, n_want);
  }
  for (int k = 0; k < n; k++)
    free(texts[k][0]), free(texts[k][1]);
  free(obuf);
  free(dbuf);
  free(msg);
  free(file);
  free(line);
#undef CTL
}

/* ---- mode 5: the flags after `--` and the database's ------------------------------- */

static void check_flags(const char *const *f, int n, const char *what) {
  for (int i = 0; i < n; i++)
    if (!f[i])
      broken("a NULL inside the parser's flags");
  if (f[n])
    broken("the parser's flags not NULL-terminated");
  int w = fuzz_writes_file(f, n);
  if (w >= 0) {
    fprintf(stderr, "fuzz_cli: %s: flag %d of %d, '%s'%s%s, makes clang write a file\n", what,
            w, n, f[w], w + 1 < n ? " before " : "", w + 1 < n ? f[w + 1] : "");
    broken("a flag that writes a file reaches the parser");
  }
}

/* `cpconvert in.cu -o out.cu WORDS1 [-p DIR] -- [@a.rsp] WORDS0` (a.rsp: part 2), and
 * with -p a compile_commands.json for in.cu from the words of part 3 (or part 3 itself):
 * the parser's flags, the command line's and the database's, hold no flag that writes. */
static void fuzz_after_dashes(char **part, size_t *len, unsigned flags, const char *dir) {
  puts_file("in.cu", "__global__ void k(float *x) { x[0] += 1.0f; }\n");
  put("a.rsp", part[2], len[2]);
  const char *argv[160] = {"cpconvert", "in.cu", "-o", "out.cu"};
  int argc = 4;
  argc += words(part[1], argv + argc, 40);
  if (flags & 2)
    argv[argc++] = "-p", argv[argc++] = dir;
  argv[argc++] = "--";
  if (flags & 1)
    argv[argc++] = "@a.rsp";
  argc += words(part[0], argv + argc, 100);
  argv[argc] = NULL;
  if (flags & 2) {
    if (flags & 4) {
      put("compile_commands.json", part[3], len[3]);
    } else {
      const char *w[256];
      int n = words(part[3], w, 256);
      write_database(w, n, flags & 8, 1, (flags & 16) ? "." : dir, "in.cu");
    }
  }
  int n = 0;
  char **args = NULL;
  if (cp_expand_args(argc, (char **)argv, &n, &args) < 0) {
    cli c = {.algo = CP_ALGO_ACCURATE};
    cp_parse_args(n, args, &c);
    if (strnlen(c.header_options, sizeof c.header_options) == sizeof c.header_options)
      broken("header options overflow their buffer");
    if (c.n_clang_args > 2 * n)
      broken("more parser flags than room for them");
    check_flags(c.clang_args, c.n_clang_args, "the command line");
    if (flags & 2) {
      int k = 0;
      const char **f = cp_compdb_flags(dir, "in.cu", c.clang_args, c.n_clang_args, &k);
      if (f)
        check_flags(f, k, "the database and the command line");
      free(f);
    }
    cp_cli_free(&c);
  }
  for (int i = 0; i < n; i++)
    free(args[i]);
  free(args);
}

/* ---- one input -------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  unsigned mode = data[0] % 6, flags = data[1];
  const char *only = getenv("FUZZ_CLI_MODES"); /* e.g. 45: the other modes do nothing */
  if (only && *only && !strchr(only, '0' + (int)mode))
    return 0;
  unsigned char sel[5] = {0};
  /* the parts, each NUL-terminated (a NUL inside one ends it for string users) */
  char *copy = malloc(size - 2 + 1), *part[4];
  size_t len[4];
  memcpy(copy, data + 2, size - 2);
  copy[size - 2] = '\0';
  char *p = copy, *end = copy + (size - 2);
  for (int i = 0; i < 4; i++) {
    char *sep = p < end ? memchr(p, '\x01', (size_t)(end - p)) : NULL;
    part[i] = p;
    len[i] = sep ? (size_t)(sep - p) : (size_t)(end - p);
    if (sep) {
      *sep = '\0';
      p = sep + 1;
    } else {
      p = end;
    }
    sel[i] = len[i] ? (unsigned char)part[i][0] : 0;
  }
  sel[4] = (unsigned char)(size & 0xff);

  char cwd[4096], dir[4096];
  const char *tmp = getenv("TMPDIR");
  if (!getcwd(cwd, sizeof cwd))
    abort();
  snprintf(dir, sizeof dir, "%s/fuzz-cli-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir) || chdir(dir) != 0)
    abort();
  switch (mode) {
  case 0: fuzz_options(part, len, flags); break;
  case 1: fuzz_compdb(part, len, flags, dir); break;
  case 2: fuzz_cache(part, len, flags, dir); break;
  case 3: fuzz_outputs(part, len, flags, sel); break;
  case 4: fuzz_diags(part, len, flags); break;
  default: fuzz_after_dashes(part, len, flags, dir); break;
  }
  if (chdir(cwd) != 0)
    abort();
  nftw(dir, open_up, 16, FTW_PHYS);
  nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  fuzz_reset_files();
  fuzz_reset_compdb();
  fuzz_reset_diag();
  free(copy);
  return 0;
}
