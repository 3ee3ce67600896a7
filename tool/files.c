/*
 * files.c: everything the command line does with the file system.
 *
 * The input is read once and never opened for writing. Every file a run writes (outputs,
 * dependency files, the --stats-csv file) is written to a temporary file beside it, and
 * only when all are written are they renamed into place, so a reader (make, an editor, a
 * concurrent build) sees the old file or the whole new one, never a part, and a run that
 * cannot write one file replaces none; if the run is interrupted while writing, the
 * signal handler removes the temporary files. Before that, no file the run writes may be
 * one it read or another it writes (cp_clash).
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

/* `path` with its directory resolved (realpath), the name itself kept: two spellings of
 * one place compare equal, whether or not the file exists yet. NULL when the directory
 * does not exist. The caller frees. */
static char *canonical(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  char real[PATH_MAX], *out = NULL;
  const char *name = slash ? slash + 1 : path;
  if (realpath(dir, real) && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
    size_t n = strlen(real) + strlen(name) + 2;
    out = malloc(n);
    snprintf(out, n, "%s/%s", strcmp(real, "/") == 0 ? "" : real, name);
  }
  free(dir);
  return out;
}

/* Where a file is, as cp_clash compares it: its device and inode when it exists, and its
 * canonical path. */
typedef struct {
  int exists;
  dev_t dev;
  ino_t ino;
  char *canon;
} place;

static place place_of(const char *path) {
  struct stat st;
  place p = {stat(path, &st) == 0, 0, 0, canonical(path)};
  if (p.exists) {
    p.dev = st.st_dev;
    p.ino = st.st_ino;
  }
  return p;
}

static int same_place(const place *a, const place *b) {
  if (a->exists && b->exists)
    return a->dev == b->dev && a->ino == b->ino;
  return a->canon && b->canon && strcmp(a->canon, b->canon) == 0;
}

int cp_clash(const cp_named_file *writes, size_t n_writes, const cp_named_file *reads,
             size_t n_reads) {
  place *w = calloc(n_writes + 1, sizeof *w), *r = calloc(n_reads + 1, sizeof *r);
  int found = 0;
  for (size_t i = 0; i < n_writes; i++)
    w[i] = place_of(writes[i].path);
  for (size_t i = 0; i < n_reads; i++)
    r[i] = place_of(reads[i].path);
  for (size_t i = 0; i < n_writes && !found; i++) {
    const cp_named_file *other = NULL;
    for (size_t k = 0; k < n_reads && !other; k++)
      other = same_place(&w[i], &r[k]) ? &reads[k] : NULL;
    for (size_t k = 0; k < i && !other; k++)
      other = same_place(&w[i], &w[k]) ? &writes[k] : NULL;
    if ((found = other != NULL))
      cp_tool_error("%s '%s' would be written over %s '%s'; choose another file", writes[i].role,
                    writes[i].path, other->role, other->path);
  }
  for (size_t i = 0; i < n_writes; i++)
    free(w[i].canon);
  for (size_t i = 0; i < n_reads; i++)
    free(r[i].canon);
  free(w);
  free(r);
  return found;
}

int cp_same_target(const char *a, const char *b) {
  place pa = place_of(a), pb = place_of(b);
  int same = same_place(&pa, &pb);
  free(pa.canon);
  free(pb.canon);
  return same;
}

char *cp_depfile_path(const char *output) {
  const char *slash = strrchr(output, '/'), *dot = strrchr(output, '.');
  size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - output) : strlen(output);
  char *path = malloc(stem + 3);
  snprintf(path, stem + 3, "%.*s.d", (int)stem, output);
  return path;
}

/* The temporary files being written, removed by the handler if a signal arrives. */
static char **pending;
static volatile sig_atomic_t n_pending;

static void remove_pending_and_die(int sig) {
  for (sig_atomic_t i = 0; i < n_pending; i++)
    if (pending[i])
      unlink(pending[i]);
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

/* How one file is written: replaced through a temporary file and a rename at `place`
 * (the path, or the file a symbolic link names, so that the link stays), or written
 * through (a character device such as /dev/null, a pipe: replacing those by a regular
 * file would break them, and they have no contents to keep). */
typedef struct {
  const cp_output *out;
  char *place, *tmp;
  int through;
} target;

/* Decides how `t` is written; -1 after a message for what cannot be an output. */
static int plan(target *t) {
  struct stat st, lst;
  const char *path = t->out->path;
  char real[PATH_MAX];
  if (stat(path, &st) != 0) {
    t->place = strdup(path); /* a new file (or a link to nothing: replaced) */
    return 0;
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    t->through = 1;
    return 0;
  }
  if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
    cp_tool_error("cannot write '%s': %s", path,
                  S_ISDIR(st.st_mode) ? strerror(EISDIR)
                                      : "not a regular file, character device or pipe");
    return -1;
  }
  int link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && realpath(path, real);
  t->place = strdup(link ? real : path);
  return 0;
}

/* Writes the new contents of `t` to a temporary file beside its place: 0, or -1 after a
 * message (the temporary file removed). */
static int prepare(target *t) {
  const char *slash = strrchr(t->place, '/');
  int dirlen = slash ? (int)(slash - t->place) + 1 : 0;
  size_t n = strlen(t->place) + 16;
  t->tmp = malloc(n);
  snprintf(t->tmp, n, "%.*s.%s.XXXXXX", dirlen, t->place, slash ? slash + 1 : t->place);
  int fd = mkstemp(t->tmp);
  if (fd < 0) {
    cp_tool_error("cannot create a temporary file beside '%s': %s", t->out->path,
                  strerror(errno));
    free(t->tmp);
    t->tmp = NULL;
    return -1;
  }
  pending[n_pending++] = t->tmp;
  const char *step = "write";
  int ok = write_all(fd, t->out->data, t->out->len) == 0;
  if (ok && !(ok = fchmod(fd, output_mode(t->place)) == 0))
    step = "set the mode of";
  if (ok && !(ok = fsync(fd) == 0))
    step = "flush";
  int saved = errno;
  if (close(fd) != 0 && ok) {
    ok = 0;
    step = "close";
    saved = errno;
  }
  if (!ok)
    cp_tool_error("cannot %s '%s': %s", step, t->out->path, strerror(saved));
  return ok ? 0 : -1;
}

static int write_through(const target *t) {
  int fd = open(t->out->path, O_WRONLY | O_NOCTTY | O_CLOEXEC), ok = fd >= 0;
  ok = ok && write_all(fd, t->out->data, t->out->len) == 0;
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && ok)
    ok = 0, saved = errno;
  if (!ok)
    cp_tool_error("cannot write '%s': %s", t->out->path, strerror(saved));
  return ok ? 0 : -1;
}

/* Every file is first written in full to a temporary file beside it, and only when all
 * are written are they renamed into place, one after the other: a run that fails to write
 * one replaces none. (A rename in the directory its temporary file was just created in
 * does not fail in practice; if one did, the files renamed before it would stay new.) */
int cp_write_files(const cp_output *files, size_t n) {
  target *t = calloc(n + 1, sizeof *t);
  int ok = 1;
  for (size_t i = 0; i < n && ok; i++) {
    t[i].out = &files[i];
    ok = plan(&t[i]) == 0;
  }
  pending = calloc(n + 1, sizeof *pending);
  n_pending = 0;
  guard_signals(remove_pending_and_die);
  for (size_t i = 0; i < n && ok; i++)
    ok = t[i].through || prepare(&t[i]) == 0;
  for (size_t i = 0; i < n && ok; i++)
    ok = !t[i].through || write_through(&t[i]) == 0;
  for (size_t i = 0; i < n && ok; i++) {
    if (t[i].through)
      continue;
    if (!(ok = rename(t[i].tmp, t[i].place) == 0))
      cp_tool_error("cannot rename into place '%s': %s", files[i].path, strerror(errno));
    else
      t[i].tmp[0] = '\0'; /* renamed: nothing left to remove */
  }
  for (size_t i = 0; i < n; i++) {
    if (!ok && t[i].tmp && t[i].tmp[0])
      unlink(t[i].tmp);
  }
  guard_signals(SIG_DFL);
  n_pending = 0;
  for (size_t i = 0; i < n; i++) {
    free(t[i].place);
    free(t[i].tmp);
  }
  free(pending);
  pending = NULL;
  free(t);
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

/* For the parser's CUDA driver (rewriter/parse/parse.c says why): checked, because a resource
 * directory named but missing would hide clang's own headers, where libclang's guess
 * misses only cuda_wrappers/. */
const char *cp_find_clang_resources(void) {
  static const char dir[] = CP_LIBCLANG_RESOURCE_DIR;
  return access(CP_LIBCLANG_RESOURCE_DIR "/include/cuda_wrappers", R_OK) == 0 ? dir : NULL;
}
