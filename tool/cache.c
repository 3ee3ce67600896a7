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
 * first would cost the user more time than the header parse it saves. The cache only
 * ever saves time: a directory that is missing, read-only or not
 * creatable, a PCH that fails to build, or one that clang refuses means a plain parse,
 * never an error.
 */
#define _GNU_SOURCE /* flock, posix_spawn_file_actions_addclosefrom_np */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

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

/* Everything a PCH depends on: the tool's version, what the parser names (libclang's
 * version, the whole clang command line with -I/-D/-U and the flags after `--`, the
 * prelude) and the installed CUDA's version and main headers. */
static uint64_t cache_key(const cp_options *opt) {
  uint64_t h = 14695981039346656037ULL;
  h = hash_str(h, CPCONVERT_VERSION);
  cp_arena *a = cp_arena_new();
  h = hash_str(h, cp_pch_identity(a, opt));
  cp_arena_free(a);
  if (opt->cuda_path) {
    h = hash_stat(h, opt->cuda_path, "version.json");
    h = hash_stat(h, opt->cuda_path, "include/cuda_runtime.h");
    h = hash_stat(h, opt->cuda_path, "include/cuda_runtime_api.h");
  }
  return h;
}

/* The cache directory, created if missing (with its parent, ~/.cache); NULL when there
 * is no usable one. */
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
  return dir;
}

/* Builds the PCH into a temporary file beside `path` and renames it into place. */
static int build_into(const cp_options *opt, const char *path) {
  const char *slash = strrchr(path, '/');
  size_t n = (size_t)(slash - path) + 32;
  char *tmp = malloc(n);
  snprintf(tmp, n, "%.*s/.pch-XXXXXX", (int)(slash - path), path);
  int fd = mkstemp(tmp), rc = -1;
  if (fd >= 0) {
    close(fd);
    if (cp_pch_build(opt, tmp) == 0 && rename(tmp, path) == 0)
      rc = 0;
    else
      unlink(tmp);
  }
  free(tmp);
  return rc;
}

/* The lock file beside `path`, opened (created if missing); -1 without one (a read-only
 * cache). The lock is flock()'s: released when its holder exits, however it ends; the
 * file itself stays, empty. */
static int open_lock(const char *path) {
  size_t n = strlen(path) + sizeof ".lock";
  char *lock = malloc(n);
  snprintf(lock, n, "%s.lock", path);
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  free(lock);
  return fd;
}

/* Only one process builds a PCH at a time, under the lock beside it. With `wait`, a run
 * that finds the lock held waits for the holder and uses its PCH instead of spending a
 * build of its own (several inputs sharing a PCH, CPCONVERT_CACHE_SYNC); without, it
 * gives up at once (-1): the holder is building it already. Without a lock file (a
 * read-only cache) the build simply goes on, and fails like any write there. */
int cp_cache_build(const cp_options *opt, const char *path, int wait) {
  int fd = open_lock(path);
  if (fd >= 0) {
    int rc;
    while ((rc = flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
      ;
    if (rc != 0) {
      close(fd);
      return -1;
    }
  }
  int rc = cp_cache_ready(path) ? 0 : build_into(opt, path);
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
 * subreaper) reaps it. */
void cp_cache_build_later(int argc, char **argv) {
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
  posix_spawn(&pid, self, &fa, &at, args, environ); /* a failure only costs the next run */
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

int cp_cache_ready(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

void cp_cache_forget(const char *pch) {
  if (pch)
    unlink(pch); /* clang refused it: the next run builds it again */
}
