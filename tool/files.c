/*
 * files.c: everything the command line does with the file system.
 *
 * The input is read once and never opened for writing. The output is written to a
 * temporary file beside it and renamed into place, so a reader (make, an editor, a
 * concurrent build) sees the old output or the whole new one, never a part; if the run
 * is interrupted while writing, the signal handler removes the temporary file.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

char *cp_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf)
      break;
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    char *bigger = realloc(buf, 2 * cap + 1);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  int failed = ferror(f) || !buf;
  int saved = failed && !buf ? ENOMEM : EIO;
  fclose(f);
  if (failed) {
    free(buf);
    errno = saved;
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

int cp_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* The temporary file being written, removed by the handler if a signal arrives. */
static char pending_tmp[PATH_MAX];
static volatile sig_atomic_t pending_active;

static void remove_pending_and_die(int sig) {
  if (pending_active)
    unlink(pending_tmp);
  signal(sig, SIG_DFL);
  raise(sig);
}

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void guard_signals(void (*handler)(int)) {
  for (size_t i = 0; i < sizeof guarded_signals / sizeof guarded_signals[0]; i++)
    signal(guarded_signals[i], handler);
}

static int write_all(int fd, const char *data, size_t len) {
  while (len) {
    ssize_t w = write(fd, data, len);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    data += w;
    len -= (size_t)w;
  }
  return 0;
}

/* Mode of the new file: the old output's if it exists, else what umask allows. */
static mode_t output_mode(const char *path) {
  struct stat st;
  if (stat(path, &st) == 0)
    return st.st_mode & 07777;
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

int cp_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errsz) {
  const char *slash = strrchr(path, '/');
  int dirlen = slash ? (int)(slash - path) + 1 : 0;
  int n = snprintf(pending_tmp, sizeof pending_tmp, "%.*s.%s.XXXXXX", dirlen, path,
                   slash ? slash + 1 : path);
  if (n < 0 || (size_t)n >= sizeof pending_tmp) {
    snprintf(err, errsz, "cannot write '%s': path too long", path);
    return -1;
  }
  guard_signals(remove_pending_and_die);
  int fd = mkstemp(pending_tmp);
  if (fd < 0) {
    snprintf(err, errsz, "cannot create a temporary file beside '%s': %s", path,
             strerror(errno));
    guard_signals(SIG_DFL);
    return -1;
  }
  pending_active = 1;
  const char *step = "write";
  int ok = write_all(fd, data, len) == 0;
  if (ok && !(ok = fchmod(fd, output_mode(path)) == 0))
    step = "set the mode of";
  if (ok && !(ok = fsync(fd) == 0))
    step = "flush";
  if (close(fd) != 0 && ok) {
    ok = 0;
    step = "close";
  }
  if (ok && !(ok = rename(pending_tmp, path) == 0))
    step = "rename into place";
  int saved = errno;
  if (!ok) {
    unlink(pending_tmp);
    snprintf(err, errsz, "cannot %s '%s': %s", step, path, strerror(saved));
  }
  pending_active = 0;
  guard_signals(SIG_DFL);
  return ok ? 0 : -1;
}

static int has_cuda_headers(const char *prefix) {
  char p[PATH_MAX];
  int n = snprintf(p, sizeof p, "%s/include/cuda_runtime.h", prefix);
  return n > 0 && (size_t)n < sizeof p && access(p, R_OK) == 0;
}

/* The prefix of the first `nvcc` on PATH (PREFIX/bin/nvcc), following links. */
static const char *nvcc_prefix(void) {
  static char found[PATH_MAX];
  const char *path = getenv("PATH");
  if (!path)
    return NULL;
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    char cand[PATH_MAX];
    if (n > 0 && n + 6 < sizeof cand) {
      snprintf(cand, sizeof cand, "%.*s/nvcc", (int)n, p);
      if (access(cand, X_OK) == 0 && realpath(cand, found)) {
        for (int up = 0; up < 2; up++) {
          char *s = strrchr(found, '/');
          if (!s)
            return NULL;
          *s = '\0';
        }
        return found;
      }
    }
    p += n + (p[n] == ':');
  }
  return NULL;
}

const char *cp_find_cuda(const char *given) {
  if (given)
    return has_cuda_headers(given) ? given : NULL;
  const char *candidates[] = {getenv("CUDA_PATH"), getenv("CUDA_HOME"), nvcc_prefix(),
                              "/usr/local/cuda"};
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
    if (candidates[i] && *candidates[i] && has_cuda_headers(candidates[i]))
      return candidates[i];
  return NULL;
}

/* For the parser's CUDA driver (rewriter/parse.c says why): checked, because a resource
 * directory named but missing would hide clang's own headers, where libclang's guess
 * misses only cuda_wrappers/. */
const char *cp_find_clang_resources(void) {
  static const char dir[] = CP_LIBCLANG_RESOURCE_DIR;
  return access(CP_LIBCLANG_RESOURCE_DIR "/include/cuda_wrappers", R_OK) == 0 ? dir : NULL;
}
