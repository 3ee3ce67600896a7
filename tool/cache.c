/*
 * cache.c: the precompiled-header cache.
 *
 * Almost all of a conversion's time is libclang parsing the CUDA headers that every
 * file includes. The rewriter can save them as a precompiled header (cp_pch_build) and
 * parse a file on top of one; this file decides where such a PCH lives and when one is
 * built: $XDG_CACHE_HOME/cpconvert (or ~/.cache/cpconvert), one file per key, the key
 * a hash of everything that changes the PCH (see cache_key). A new PCH is written to a
 * temporary file in the same directory and renamed into place, so concurrent runs
 * (make -j) see no file or a whole one; only one process at a time builds it, under a
 * lock. A run that finds no PCH converts with a plain parse, as --no-cache does, and
 * leaves the build to a detached background process (cp_cache_build_later): building
 * first would cost the user more time than the header parse it saves. Each PCH has a
 * record beside it (PCH.info: size, checksum, the user headers it holds), written before
 * the PCH is renamed into place and checked before clang is given the PCH, since clang
 * trusts a PCH's bytes (one flipped bit crashed it). The cache only ever saves time: a
 * directory that is missing, read-only or not creatable, a PCH that fails to build,
 * fails its check or that clang refuses means a plain parse, never an error; a damaged
 * one is removed and built again under its lock, which nobody waits for long.
 *
 * The cache is bounded (trim): each PCH is 10 MB or so, and every version of the tool and
 * every set of flags has its own, so after each build the least recently used PCHs go
 * until the directory holds at most CPCONVERT_CACHE_MAX bytes (default 2 GiB), as
 * ccache bounds its own; a use stamps the PCH's record, and a PCH used in the last ten
 * minutes stays (a make -j over several flag sets would otherwise rebuild in turns).
 */
#define _GNU_SOURCE /* flock, posix_spawn_file_actions_addclosefrom_np */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

/* The longest a PCH build may take (a cold build of the CUDA headers takes 5-30 s). */
#define CP_PCH_BUILD_SECONDS 900

/* FNV-1a, 64 bits: a cache key, not a defence against crafted collisions (the cache is
 * the user's own directory). */
static uint64_t hash_text(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ULL;
  }
  return h;
}

static uint64_t hash_str(uint64_t h, const char *s) { return hash_text(h, s, strlen(s) + 1); }

/* A file's identity as the key sees it: path, size and modification time. clang does
 * not check system headers against a PCH, so an updated CUDA must change the key. */
static uint64_t hash_stat(uint64_t h, const char *dir, const char *name) {
  char path[4096], line[256];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (stat(path, &st) != 0)
    snprintf(line, sizeof line, "%s: none", name);
  else
    snprintf(line, sizeof line, "%s: %lld %lld.%09ld", name, (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  return hash_str(hash_str(h, path), line);
}

/* Options of clang's driver whose value names a file or directory (longest first, so
 * that -include-pch is not read as -include with "-pch" attached). */
static const char *const path_options[] = {
    "-include-pch", "-iwithprefixbefore", "-iwithprefix", "-iframework", "-ivfsoverlay",
    "-working-directory", "-resource-dir", "--cuda-path", "-idirafter", "-isysroot", "--sysroot",
    "-isystem", "-include", "-imacros", "-iprefix", "-iquote", "-I", "-F", "-B", NULL};

/* A path as the key sees it: the real path of what it names, or, for a path to nothing
 * (yet), the path made absolute against the working directory. */
static uint64_t hash_path(uint64_t h, const char *path) {
  char real[PATH_MAX], cwd[PATH_MAX];
  if (realpath(path, real))
    return hash_str(h, real);
  if (path[0] != '/' && getcwd(cwd, sizeof cwd))
    h = hash_str(h, cwd);
  return hash_str(h, path);
}

/* The option of path_options that `a` is, with its value attached (`-Iinc`,
 * `--sysroot=/x`, *value set) or following (*value NULL); NULL if none. */
static const char *path_option(const char *a, const char **value) {
  for (int k = 0; path_options[k]; k++) {
    size_t n = strlen(path_options[k]);
    if (strncmp(a, path_options[k], n) != 0)
      continue;
    *value = a[n] ? a + n + (a[n] == '=') : NULL;
    return path_options[k];
  }
  return NULL;
}

/* The parser's flags name files by paths, and a relative one names another file from
 * another working directory (`-include cfg.h` of a second project): the key holds every
 * such path resolved. An argument that is no option, and so may be the value of one
 * this table does not know, makes the key hold the working directory when it is
 * relative; -D and -U values are only names. */
static uint64_t hash_paths(uint64_t h, const cp_options *opt) {
  int cwd_done = 0;
  for (int i = 0; i < opt->n_clang_args; i++) {
    const char *a = opt->clang_args[i], *v = NULL;
    if (strcmp(a, "-Xclang") == 0)
      continue; /* `-Xclang -include -Xclang H`: read as `-include H` */
    while (i + 1 < opt->n_clang_args && strcmp(opt->clang_args[i + 1], "-Xclang") == 0 &&
           path_option(a, &v) && !v)
      i++;
    if ((strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0) && i + 1 < opt->n_clang_args) {
      i++;
    } else if (path_option(a, &v)) {
      if (!v && i + 1 < opt->n_clang_args)
        v = opt->clang_args[++i];
      h = hash_path(hash_str(h, a), v ? v : "");
    } else if (a[0] != '-' && a[0] != '/' && !cwd_done) {
      h = hash_path(h, ".");
      cwd_done = 1;
    }
  }
  return opt->cuda_path ? hash_path(h, opt->cuda_path) : h;
}

/* Everything a PCH depends on: the tool's version, what the parser names (libclang's
 * version, the whole clang command line with -I/-D/-U and the flags after `--`, the
 * prelude), every path in that command line resolved, and the installed CUDA's version
 * and main headers. */
static uint64_t cache_key(const cp_options *opt) {
  uint64_t h = 14695981039346656037ULL;
  h = hash_str(h, CPCONVERT_VERSION);
  cp_arena *a = cp_arena_new();
  h = hash_str(h, cp_pch_identity(a, opt));
  cp_arena_free(a);
  h = hash_paths(h, opt);
  if (opt->cuda_path) {
    h = hash_stat(h, opt->cuda_path, "version.json");
    h = hash_stat(h, opt->cuda_path, "include/cuda_runtime.h");
    h = hash_stat(h, opt->cuda_path, "include/cuda_runtime_api.h");
  }
  return h;
}

/* The cache is trusted as ssh trusts ~/.ssh and git a repository: the directory must be
 * ours (the effective user's) and writable by nobody else, and its parent ours or root's
 * and writable by nobody else unless sticky (/tmp), so that no one else can plant a PCH
 * (a `#define float double` in it would change the conversion) or swap the directory.
 * NULL when it is trusted, else why not. */
static const char *distrust(const char *dir, const char *parent) {
  struct stat d, p;
  if (stat(dir, &d) != 0 || !S_ISDIR(d.st_mode) || stat(parent, &p) != 0)
    return "it is not a directory";
  if (d.st_uid != geteuid())
    return "it belongs to another user";
  if (d.st_mode & 022)
    return "others may write into it";
  if ((p.st_uid != geteuid() && p.st_uid != 0) || ((p.st_mode & 022) && !(p.st_mode & S_ISVTX)))
    return "others may write into its parent directory";
  return NULL;
}

/* Whether a file of the cache, opened as `fd`, is one of ours: a regular file of the
 * effective user that nobody else may write, with no other name (a hard link planted to
 * another file). */
static int own_file(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
         !(st.st_mode & 022) && st.st_nlink == 1;
}

/* The cache directory, created if missing (with its parent, ~/.cache); NULL when there
 * is no usable one, or (after a note, once a run) one that is not trusted (distrust). */
static char *cache_dir(void) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char base[4096];
  if (xdg && xdg[0] == '/') /* the XDG spec ignores relative paths */
    snprintf(base, sizeof base, "%s", xdg);
  else if (home && *home)
    snprintf(base, sizeof base, "%s/.cache", home);
  else
    return NULL;
  size_t n = strlen(base) + sizeof "/cpconvert";
  char *dir = malloc(n);
  snprintf(dir, n, "%s/cpconvert", base);
  if ((mkdir(base, 0700) != 0 && errno != EEXIST) || (mkdir(dir, 0700) != 0 && errno != EEXIST)) {
    free(dir);
    return NULL;
  }
  const char *why = distrust(dir, base);
  static int told;
  if (why && !told++)
    cp_tool_note("not using the precompiled-header cache '%s': %s (parsing without it; "
                 "see 'Precompiled header cache' in docs/reference.md)", dir, why);
  if (why) {
    free(dir);
    return NULL;
  }
  return dir;
}

static uint64_t mix(uint64_t h, uint64_t w) {
  h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
  return h ^ (h >> 29);
}

/* A checksum of n bytes, to find a damaged PCH before clang reads it (clang trusts a
 * PCH's bytes: one flipped bit made it crash). Four independent lanes of 8-byte words, so
 * that it runs at memory speed (every warm run checks two PCHs of ~7 MB). Each step is a
 * bijection of its lane, so a change within one word always changes the sum; it finds
 * damage, it is no defence against forgery (the cache is the user's own). */
static uint64_t checksum(const unsigned char *p, size_t n) {
  uint64_t lane[4] = {1, 2, 3, 4}, w;
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int k = 0; k < 4; k++) {
      memcpy(&w, p + i + 8 * (size_t)k, 8);
      lane[k] = mix(lane[k], w);
    }
  for (int k = 0; i < n; i += 8, k++) {
    w = 0;
    memcpy(&w, p + i, n - i < 8 ? n - i : 8);
    lane[k] = mix(lane[k], w);
  }
  return mix(mix(mix(mix(n, lane[0]), lane[1]), lane[2]), lane[3]);
}

/* Size and checksum of the file at `path`: 0, or -1 when it cannot be read. */
static int file_sum(const char *path, uint64_t *size, uint64_t *sum) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK), rc = -1;
  struct stat st;
  if (fd < 0)
    return -1;
  if (own_file(fd) && fstat(fd, &st) == 0 && st.st_size > 0) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      *size = (uint64_t)st.st_size;
      *sum = checksum(m, (size_t)st.st_size);
      munmap(m, (size_t)st.st_size);
      rc = 0;
    }
  }
  close(fd);
  return rc;
}

/* `path` with `suffix` appended; the caller frees. */
static char *with_suffix(const char *path, const char *suffix) {
  size_t n = strlen(path) + strlen(suffix) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%s%s", path, suffix);
  return s;
}

/* A temporary file beside `path`, named `.BASE-XXXXXX` (BASE: the name of `path`, with
 * `suffix`), so that a sweep knows whose it is; created empty. NULL on failure. */
static char *temp_beside(const char *path, const char *suffix) {
  const char *slash = strrchr(path, '/');
  size_t n = strlen(path) + strlen(suffix) + 16;
  char *tmp = malloc(n);
  snprintf(tmp, n, "%.*s/.%s%s-XXXXXX", (int)(slash - path), path, slash + 1, suffix);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return NULL;
  }
  close(fd);
  return tmp;
}

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* A hash of the contents of the file at `path` (0 when it cannot be read): a header a PCH
 * holds is checked by its bytes, not by its size and time, which `cp -p` and tar keep
 * across a change. */
static uint64_t content_hash(const char *path) {
  size_t len = 0;
  char *text = cp_read_file(path, CP_MAX_SOURCE, &len);
  uint64_t h = text ? hash_text(14695981039346656037ULL, text, len) : 0;
  free(text);
  return h;
}

/* The record written beside a PCH (PATH.info): a version line, its size and checksum,
 * and one `dep HASH PATH` line per user header it holds (what -MD lists, since a parse on
 * top of the PCH does not see those included), HASH its contents' content_hash. */
static char *info_text(uint64_t size, uint64_t sum, const char **deps, size_t n) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return NULL;
  fprintf(f, "cpconvert pch 2\nsize %llu\nsum %016llx\n", (unsigned long long)size,
          (unsigned long long)sum);
  int ok = 1;
  for (size_t i = 0; i < n; i++) {
    ok &= strchr(deps[i], '\n') == NULL; /* a name the record cannot hold: no PCH */
    fprintf(f, "dep %016llx %s\n", (unsigned long long)content_hash(deps[i]), deps[i]);
  }
  fclose(f);
  if (!ok) {
    free(text);
    return NULL;
  }
  return text;
}

/* Builds the PCH into a temporary file beside `path`, then writes its record, renames
 * the record into place and the PCH last: a PCH under its real name always has its
 * record. Nothing is left behind on failure. */
static int build_into(const cp_options *opt, const char *path) {
  char *tmp = temp_beside(path, ""), *tmp_info = NULL, *info = with_suffix(path, ".info");
  char *text = NULL;
  cp_arena *a = cp_arena_new();
  const char **deps = NULL;
  size_t n = 0;
  uint64_t size, sum;
  int rc = -1;
  /* 0600 whatever the umask: a file others may write is not trusted (own_file) */
  if (tmp && cp_pch_build(opt, tmp, a, &deps, &n) == 0 && chmod(tmp, 0600) == 0 &&
      file_sum(tmp, &size, &sum) == 0 &&
      (text = info_text(size, sum, deps, n)) && (tmp_info = temp_beside(path, ".info")) &&
      write_text(tmp_info, text) == 0 && rename(tmp_info, info) == 0 && rename(tmp, path) == 0)
    rc = 0;
  if (rc != 0 && tmp)
    unlink(tmp);
  if (rc != 0 && tmp_info)
    unlink(tmp_info);
  cp_arena_free(a);
  free(text);
  free(tmp);
  free(tmp_info);
  free(info);
  return rc;
}

/* Reads PATH.info: 0 with the size, checksum and (into `a`) the headers it names, each
 * checked against the content hash it was built with; -1 when it is missing, not such a
 * record, not one of ours (own_file), or a header has changed since (a stale PCH). */
static int read_info(const char *path, uint64_t *size, uint64_t *sum, cp_arena *a,
                     const char ***deps, size_t *n_deps) {
  char *name = with_suffix(path, ".info");
  size_t len = 0, n = 0;
  int fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  char *text = fd >= 0 && own_file(fd) ? cp_read_file(name, CP_MAX_RECORD, &len) : NULL;
  if (fd >= 0)
    close(fd);
  free(name);
  unsigned long long sz, sm;
  if (!text || strlen(text) != len ||
      sscanf(text, "cpconvert pch 2\nsize %llu\nsum %16llx\n", &sz, &sm) != 2) {
    free(text);
    return -1;
  }
  *size = sz;
  *sum = sm;
  for (char *l = strstr(text, "\ndep "); l; l = strstr(l + 1, "\ndep "))
    n++;
  *deps = cp_arena_alloc(a, (n + 1) * sizeof **deps);
  *n_deps = 0;
  int fresh = 1;
  for (char *l = strstr(text, "\ndep "); l && fresh; l = strstr(l + 1, "\ndep ")) {
    char *end = strchr(l + 5, '\n'), *file = l + 22;
    unsigned long long want;
    if (!end || end < file || sscanf(l + 5, "%16llx", &want) != 1 || l[21] != ' ')
      break;
    (*deps)[(*n_deps)++] = cp_arena_strndup(a, file, (size_t)(end - file));
    fresh = content_hash((*deps)[*n_deps - 1]) == want;
  }
  free(text);
  return fresh && *n_deps == n ? 0 : -1;
}

int cp_cache_check(const char *path, cp_arena *a, const char ***deps, size_t *n_deps) {
  struct stat st;
  uint64_t size, sum, got_size, got_sum;
  const char **no_deps;
  size_t n_no_deps;
  if (lstat(path, &st) != 0)
    return 0;
  cp_arena *own = a ? NULL : cp_arena_new();
  int rc = S_ISREG(st.st_mode) &&
                   read_info(path, &size, &sum, a ? a : own, deps ? deps : &no_deps,
                             n_deps ? n_deps : &n_no_deps) == 0 &&
                   (uint64_t)st.st_size == size && file_sum(path, &got_size, &got_sum) == 0 &&
                   got_size == size && got_sum == sum
               ? 1
               : -1;
  cp_arena_free(own);
  if (rc != 1)
    return -1;
  char *info = with_suffix(path, ".info");
  utimensat(AT_FDCWD, info, NULL, AT_SYMLINK_NOFOLLOW); /* last used now, for trim */
  free(info);
  return 1;
}

/* The bound on the cache directory's bytes: CPCONVERT_CACHE_MAX, a number of bytes with
 * an optional K, M or G (powers of 1024); 2 GiB when unset or not such a number. */
static uint64_t cache_max(void) {
  const char *s = getenv("CPCONVERT_CACHE_MAX");
  char *end;
  errno = 0;
  unsigned long long v = s && *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
  if (!s || errno || !(*s >= '0' && *s <= '9'))
    return 2ULL << 30;
  int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
  if ((shift && end[1]) || (!shift && *end) || v > (~0ULL >> shift))
    return 2ULL << 30;
  return (uint64_t)v << shift;
}

/* Removes a PCH and its record (under the lock: no build is under way). */
static void remove_entry(const char *path) {
  char *info = with_suffix(path, ".info");
  unlink(path);
  unlink(info);
  free(info);
}

/* Temporary files of builds that were interrupted (killed, the machine stopped): under
 * the lock of `path` every temporary file of its own is such a leftover; another PCH's
 * are left alone unless an hour old, since their builder may still be at work. */
static void sweep(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = strndup(path, (size_t)(slash - path)), *own = with_suffix(".", slash + 1);
  DIR *d = opendir(dir);
  struct dirent *e;
  time_t now = time(NULL);
  size_t own_len = strlen(own);
  while (d && (e = readdir(d))) {
    const char *name = e->d_name;
    struct stat st;
    char full[PATH_MAX];
    int mine = strncmp(name, own, own_len) == 0 &&
               (name[own_len] == '-' || strncmp(name + own_len, ".info-", 6) == 0);
    if (!mine && strncmp(name, ".pch-", 5) != 0 && strncmp(name, ".out-", 5) != 0)
      continue;
    snprintf(full, sizeof full, "%s/%s", dir, name);
    if (mine || (lstat(full, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > 3600))
      unlink(full);
  }
  if (d)
    closedir(d);
  free(dir);
  free(own);
}

/* The lock file beside `path`, opened (created if missing); -1 without one (a read-only
 * cache), or with errno EPERM for one that is not ours: a symbolic link (not followed:
 * one planted to /etc/passwd would have been truncated), a hard link, another user's file
 * (own_file). The lock is flock()'s: released when its holder exits, however it ends. The
 * file holds the process id of its last holder. */
static int open_lock(const char *path) {
  char *lock = with_suffix(path, ".lock");
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
  free(lock);
  if (fd < 0 && errno == ELOOP)
    errno = EPERM;
  if (fd >= 0 && !own_file(fd)) {
    close(fd);
    errno = EPERM;
    return -1;
  }
  return fd;
}

/* 1 when the process that last took the lock `fd` is stopped (SIGSTOP, Ctrl-Z, a
 * debugger): a lock it holds will not be released soon. */
static int holder_stopped(int fd) {
  char buf[32], proc[64], stat_line[512];
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return 0;
  buf[n] = 0;
  long pid = strtol(buf, NULL, 10);
  snprintf(proc, sizeof proc, "/proc/%ld/stat", pid);
  FILE *f = pid > 0 ? fopen(proc, "r") : NULL;
  if (!f)
    return 0;
  size_t m = fread(stat_line, 1, sizeof stat_line - 1, f);
  fclose(f);
  stat_line[m] = 0;
  const char *paren = strrchr(stat_line, ')'); /* the command name may hold any byte */
  return paren && paren[1] == ' ' && (paren[2] == 'T' || paren[2] == 't');
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { CP_LOCK_WAIT_S = 20 };

/* Writes this process's id into the lock file it holds, for holder_stopped. */
static void note_holder(int fd) {
  char pid[32];
  int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  if (ftruncate(fd, 0) == 0) {
    ssize_t w = pwrite(fd, pid, (size_t)n, 0);
    (void)w; /* without it a waiter only waits its full time, as for a hung holder */
  }
}

/* Takes the lock: at once, or (wait) within CP_LOCK_WAIT_S seconds, giving up early when
 * its holder is stopped. A holder that never lets go (stopped, hung) costs a waiting run
 * that long at most; it then parses without the PCH. 0 when taken. */
static int take_lock(int fd, int wait) {
  double start = now_s();
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if ((errno != EWOULDBLOCK && errno != EINTR) || !wait ||
        now_s() - start > CP_LOCK_WAIT_S || holder_stopped(fd))
      return -1;
    nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
  }
  note_holder(fd);
  return 0;
}

typedef struct {
  char *path;
  uint64_t bytes; /* the PCH and its record */
  time_t used;    /* the record's time: written, or stamped by the last use */
} cache_entry;

static int by_use(const void *a, const void *b) {
  time_t x = ((const cache_entry *)a)->used, y = ((const cache_entry *)b)->used;
  return (x > y) - (x < y);
}

/* The PCHs in `dir` (pch-KEY.pch, out-KEY.pch); *total gets their bytes. */
static cache_entry *entries(const char *dir, size_t *n, uint64_t *total) {
  DIR *d = opendir(dir);
  struct dirent *e;
  cache_entry *v = NULL;
  size_t cap = 0;
  *n = 0;
  *total = 0;
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    struct stat st, si;
    char full[PATH_MAX];
    if ((strncmp(e->d_name, "pch-", 4) != 0 && strncmp(e->d_name, "out-", 4) != 0) || len < 8 ||
        strcmp(e->d_name + len - 4, ".pch") != 0)
      continue;
    snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
    if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    char *info = with_suffix(full, ".info");
    int has_info = stat(info, &si) == 0;
    free(info);
    if (*n == cap) {
      cache_entry *w = realloc(v, (2 * cap + 16) * sizeof *v);
      if (!w)
        break; /* trim what was counted */
      v = w;
      cap = 2 * cap + 16;
    }
    v[*n] = (cache_entry){strdup(full), (uint64_t)st.st_size + (has_info ? (uint64_t)si.st_size : 0),
                          has_info ? si.st_mtime : st.st_mtime};
    *total += v[(*n)++].bytes;
  }
  if (d)
    closedir(d);
  return v;
}

enum { CP_TRIM_KEEP_S = 600 };

/* Keeps the cache within cache_max(): removes the least recently used PCHs, never `keep`
 * (just built), one used in the last CP_TRIM_KEEP_S seconds, or one whose lock is held (it
 * is being built or replaced). Each goes with its record and its lock file, unlinked while
 * held: a run that opened the old lock file builds that PCH again, which is harmless. */
static void trim(const char *keep) {
  const char *slash = strrchr(keep, '/');
  char *dir = strndup(keep, (size_t)(slash - keep));
  size_t n;
  uint64_t total, max = cache_max();
  cache_entry *v = entries(dir, &n, &total);
  qsort(v, n, sizeof *v, by_use);
  time_t now = time(NULL);
  for (size_t i = 0; i < n && total > max; i++) {
    int fd;
    if (strcmp(v[i].path, keep) == 0 || now - v[i].used < CP_TRIM_KEEP_S ||
        (fd = open_lock(v[i].path)) < 0)
      continue;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      char *lock = with_suffix(v[i].path, ".lock");
      remove_entry(v[i].path);
      unlink(lock);
      free(lock);
      total -= v[i].bytes;
    }
    close(fd);
  }
  for (size_t i = 0; i < n; i++)
    free(v[i].path);
  free(v);
  free(dir);
}

/* build_into in a child process: libclang ends the process when it cannot write the PCH
 * (a full disk, a file size limit: "LIBCLANG FATAL ERROR: IO failure on output stream",
 * or SIGXFSZ), and a cache must never stop a conversion. The child's messages go to
 * /dev/null and it leaves no core; what a killed child leaves is swept. */
static int build_apart(const cp_options *opt, const char *path) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
    }
    setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
    _exit(build_into(opt, path) == 0 ? 0 : 1);
  }
  /* A bounded wait: a child forked from a process with other threads alive can stop for
   * good on a lock one of them held (seen once, stuck in a thread join); past the bound it
   * is killed and the run goes on without the PCH. */
  int status = 0, waited = 0;
  struct timespec tick = {0, 10 * 1000 * 1000};
  for (long ms = 0; pid > 0 && !waited; ms += 10) {
    pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR))
      waited = got == pid ? 1 : -1;
    else if (ms >= CP_PCH_BUILD_SECONDS * 1000L) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
      waited = -1;
    } else {
      nanosleep(&tick, NULL);
    }
  }
  if (waited == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return 0;
  sweep(path);
  return -1;
}

/* Only one process builds a PCH at a time, under the lock beside it. With `wait`, a run
 * that finds the lock held waits for the holder (bounded, take_lock) and uses its PCH
 * instead of spending a build of its own (several inputs sharing a PCH,
 * CPCONVERT_CACHE_SYNC); without, it gives up at once (-1): the holder is building it
 * already. Under the lock, a PCH that fails its check is removed and built again, and
 * the leftovers of interrupted builds are swept. Without a lock file (a read-only cache)
 * the build simply goes on, and fails like any write there. */
int cp_cache_build(const cp_options *opt, const char *path, int wait) {
  int fd = open_lock(path);
  if (fd < 0 && errno == EPERM)
    return -1; /* a lock that is not ours: build nothing */
  if (fd >= 0 && take_lock(fd, wait) != 0) {
    close(fd);
    return -1;
  }
  int rc = 0;
  if (cp_cache_check(path, NULL, NULL, NULL) != 1) {
    sweep(path);
    remove_entry(path);
    rc = build_apart(opt, path);
    if (rc == 0)
      trim(path);
  }
  if (fd >= 0)
    close(fd); /* releases the lock */
  return rc;
}

int cp_cache_can_build(const char *path) {
  int fd = open_lock(path), free_now = 0;
  if (fd >= 0) {
    free_now = flock(fd, LOCK_EX | LOCK_NB) == 0;
    close(fd);
  }
  return free_now;
}

/* The builder is this same program (/proc/self/exe, which valgrind also reports as the
 * program it runs, not itself) started with CP_PCH_BUILDER_ARG before the user's
 * arguments: it parses them again and builds what they need, and nothing else. It starts
 * in a session of its own (no Ctrl-C or hang-up of the user's terminal reaches it), with
 * stdio on /dev/null and every other descriptor closed, so that nobody reading the
 * parent's output or waiting on a pipe it shares (make, a test harness) waits for it.
 * The parent does not wait for it either: once the parent exits, init (or the nearest
 * subreaper) reaps it. The arguments are the ones read (a response file may be gone by
 * then), unless one is too long for exec (a 10 MB -D from a response file, E2BIG): then
 * the command line as given, whose @FILE the builder reads again. */
void cp_cache_build_later(int argc, char **argv, int given_argc, char **given_argv) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return; /* no way to find ourselves: the next run builds it */
  self[n] = 0;
  char **args = calloc((size_t)argc + 2, sizeof *args);
  args[0] = argv[0];
  args[1] = (char *)CP_PCH_BUILDER_ARG;
  for (int i = 1; i < argc; i++)
    args[i + 1] = argv[i];
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  sigset_t none;
  sigemptyset(&none);
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  posix_spawnattr_init(&at);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
  pid_t pid;
  extern char **environ;
  int rc = posix_spawn(&pid, self, &fa, &at, args, environ);
  if (rc == E2BIG && given_argc > 0) { /* an argument over 128 KiB: pass the @FILE instead */
    char **shorter = calloc((size_t)given_argc + 2, sizeof *shorter);
    shorter[0] = given_argv[0];
    shorter[1] = (char *)CP_PCH_BUILDER_ARG;
    for (int i = 1; i < given_argc; i++)
      shorter[i + 1] = given_argv[i];
    posix_spawn(&pid, self, &fa, &at, shorter, environ); /* a failure costs the next run */
    free(shorter);
  }
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  free(args);
}

void cp_cache_builder_start(void) {
  setpriority(PRIO_PROCESS, 0, 10); /* a background job: the user's own come first */
}

char *cp_cache_path(const cp_options *opt) {
  char *dir = cache_dir();
  if (!dir)
    return NULL;
  size_t n = strlen(dir) + 40;
  char *path = malloc(n);
  snprintf(path, n, "%s/%s-%016llx.pch", dir, opt->pch_output ? "out" : "pch",
           (unsigned long long)cache_key(opt));
  free(dir);
  return path;
}

void cp_cache_forget(const char *pch) {
  int fd = pch ? open_lock(pch) : -1;
  if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
    remove_entry(pch); /* clang refused it: the next run builds it again */
  if (fd >= 0)
    close(fd); /* when the lock is held, its holder is replacing the PCH anyway */
}
