/*
 * cache.c: the precompiled-header cache.
 *
 * Almost all of a conversion's time is libclang parsing the CUDA headers that every
 * file includes. The rewriter can save them as a precompiled header (cp_pch_build) and
 * parse a file on top of one; this file decides where such a PCH lives and when one is
 * built: $XDG_CACHE_HOME/cpconvert (or ~/.cache/cpconvert), one file per key, the key
 * a hash of everything that changes the PCH (see cache_key). A new PCH is written to a
 * temporary file in the same directory and renamed into place, so concurrent runs
 * (make -j) see no file or a whole one; they also take turns on a lock, so that one
 * builds it and the others use it. The cache only ever saves time: a directory that is missing, read-only or not
 * creatable, a PCH that fails to build, or one that clang refuses means a plain parse,
 * never an error.
 */
#define _DEFAULT_SOURCE /* flock */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

/* Runs that find the same PCH missing at once (make -j on an empty cache) take turns on
 * a lock file beside it: the first builds, the others wait for it and use its PCH
 * instead of each spending a build. The lock is released when its holder exits, however
 * it ends; the lock file itself stays, empty. Without a lock file (a read-only cache)
 * the build simply goes on, and fails like any write there. */
int cp_cache_build(const cp_options *opt, const char *path) {
  size_t n = strlen(path) + sizeof ".lock";
  char *lock = malloc(n);
  snprintf(lock, n, "%s.lock", path);
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  free(lock);
  if (fd >= 0)
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
      ;
  int rc = cp_cache_ready(path) ? 0 : build_into(opt, path);
  if (fd >= 0)
    close(fd); /* releases the lock */
  return rc;
}

char *cp_cache_path(const cp_options *opt) {
  char *dir = cache_dir();
  if (!dir)
    return NULL;
  size_t n = strlen(dir) + 40;
  char *path = malloc(n);
  snprintf(path, n, "%s/pch-%016llx.pch", dir, (unsigned long long)cache_key(opt));
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
