/*
 * fuzz_cli.c: the fuzzing harness over the tool's own inputs and files (tool/), the part
 * fuzz_convert.c does not reach: response files and the command line, compile_commands.json
 * with its response files and -include search, the precompiled-header cache (trust rule,
 * lock, the PCH built in a child, the record and the headers' content hashes) and writing
 * the outputs (write-if-changed, every file or none, the rollback when a rename fails).
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
 * Besides crashes, hangs and sanitizer reports, it aborts on a broken contract:
 *  - expanded arguments are NULL-terminated, the output header's options fit their buffer;
 *  - database flags end with the command line's own, none NULL;
 *  - a cache others may write is not used; a planted lock link leaves its target alone;
 *    a PCH whose header changed (times kept) is not served, an untouched one is;
 *  - cp_write_files: 0 and every file new (one that held the bytes untouched), or -1 and
 *    every file as it was; no temporary file left.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
    FILE *f = fopen("compile_commands.json", "w");
    if (!f)
      return;
    const char *w[256];
    int n = words(part[0], w, 256);
    for (int copy = 0; copy < 1 + !!(flags & 8); copy++) {
      fprintf(f, "%s{\"directory\": ", copy ? ",\n" : "[\n");
      char d[4200];
      snprintf(d, sizeof d, "%s%s", (flags & 4) ? "" : dir, (flags & 4) ? "." : "");
      json_string(f, d);
      fputs(", \"file\": \"a.cu\", ", f);
      if (flags & 2) {
        fputs("\"command\": ", f);
        size_t cap = 64;
        for (int i = 0; i < n; i++)
          cap += strlen(w[i]) + 1;
        char *cmd = calloc(1, cap);
        strcpy(cmd, "nvcc");
        for (int i = 0; i < n; i++)
          strcat(strcat(cmd, " "), w[i]);
        strcat(cmd, " -c a.cu");
        json_string(f, cmd);
        free(cmd);
      } else {
        fputs("\"arguments\": [\"nvcc\"", f);
        for (int i = 0; i < n; i++) {
          fputs(", ", f);
          json_string(f, w[i]);
        }
        fputs(", \"-c\", \"a.cu\"]", f);
      }
      fputs("}", f);
    }
    fputs("\n]\n", f);
    fclose(f);
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

/* ---- one input -------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  unsigned mode = data[0] % 4, flags = data[1];
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
  default: fuzz_outputs(part, len, flags, sel); break;
  }
  if (chdir(cwd) != 0)
    abort();
  nftw(dir, open_up, 16, FTW_PHYS);
  nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  fuzz_reset_files();
  fuzz_reset_compdb();
  free(copy);
  return 0;
}
