/*
 * files.c: everything the command line does with the file system.
 *
 * The input is read once and never opened for writing. Every file a run writes (outputs,
 * dependency files, the --stats-csv file) is written to a temporary file beside it, and
 * only when all are written are they renamed into place, so a reader (make, an editor, a
 * concurrent build) sees the old file or the whole new one, never a part, and a run that
 * cannot write one file replaces none; if the run is interrupted while writing, the
 * signal handler removes the temporary files; the renames run with those signals held
 * back, and one that fails puts back the files renamed before it. A file that holds the
 * new bytes already is left alone. Before that, no file the run writes may be one it read
 * or another it writes (cp_clash, a hash set: runs of 100 000 files). Only regular files
 * are read, with a size limit (cp_read_file): a FIFO or /dev/zero would never end.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

static size_t read_limit;

const char *cp_strerror(int err) {
  static char msg[96];
  if (err == CP_ENOTREG)
    return "not a regular file (a pipe, a device or a socket)";
  if (err == CP_ETOOBIG) {
    snprintf(msg, sizeof msg, "larger than the %zu MiB cpconvert reads", read_limit >> 20);
    return msg;
  }
  return strerror(err);
}

/* Only a regular file is read, and no more than `max` bytes of it: a pipe, a device or a
 * socket could block the run forever or never end (a FIFO, /dev/zero), so it is opened
 * without waiting (O_NONBLOCK, which a FIFO's open honours) and refused. */
char *cp_read_file(const char *path, size_t max, size_t *len) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return NULL;
  int err = fstat(fd, &st) != 0         ? errno
            : S_ISDIR(st.st_mode)       ? EISDIR
            : !S_ISREG(st.st_mode)      ? CP_ENOTREG
            : (uint64_t)st.st_size > max ? CP_ETOOBIG
                                        : 0;
  size_t cap = err ? 0 : (size_t)st.st_size + 1, n = 0;
  char *buf = err ? NULL : malloc(cap + 1);
  if (!err && !buf)
    err = ENOMEM;
  while (!err) { /* the file may grow while it is read: up to `max` */
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      err = got < 0 ? errno : 0;
      break;
    }
    n += (size_t)got;
    if (n > max)
      err = CP_ETOOBIG;
    else if (n == cap) {
      char *bigger = realloc(buf, 2 * cap + 1);
      if (!bigger)
        err = ENOMEM;
      else
        buf = bigger, cap *= 2;
    }
  }
  close(fd);
  if (err) {
    free(buf);
    read_limit = max;
    errno = err;
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* The realpath of a directory, remembering the last one asked for: the files of a run
 * mostly share a few directories, and each realpath() costs a stat per component. */
static int real_dir(const char *dir, char *real) {
  static char last_dir[PATH_MAX], last_real[PATH_MAX];
  if (last_dir[0] && strcmp(dir, last_dir) == 0) {
    memcpy(real, last_real, PATH_MAX);
    return 1;
  }
  if (!realpath(dir, real) || strlen(dir) >= PATH_MAX)
    return 0;
  snprintf(last_dir, sizeof last_dir, "%s", dir);
  memcpy(last_real, real, PATH_MAX);
  return 1;
}

/* `path` with its directory resolved (realpath), the name itself kept: two spellings of
 * one place compare equal, whether or not the file exists yet. NULL when the directory
 * does not exist. The caller frees. */
static char *canonical(const char *path) {
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  char real[PATH_MAX], *out = NULL;
  const char *name = slash ? slash + 1 : path;
  if (real_dir(dir, real) && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
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
  const cp_named_file *who;
} place;

static place place_of(const char *path) {
  struct stat st;
  place p = {stat(path, &st) == 0, 0, 0, canonical(path), NULL};
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

/* Where same_place's two ways of comparing agree: an existing file hashes by device and
 * inode, one that does not exist by its canonical path (two places that compare equal by
 * path exist both or neither). */
static uint64_t place_hash(const place *p) {
  uint64_t h = 14695981039346656037ULL;
  if (p->exists) {
    h = (h ^ (uint64_t)p->dev) * 1099511628211ULL;
    h = (h ^ (uint64_t)p->ino) * 1099511628211ULL;
  } else {
    for (const char *c = p->canon ? p->canon : ""; *c; c++)
      h = (h ^ (unsigned char)*c) * 1099511628211ULL;
  }
  return h ^ (h >> 31);
}

/* A set of places, open addressing: lookups and inserts in constant time, so that the
 * checks of a run with 100 000 files make a stat per file, not one per pair. */
typedef struct {
  place *slots; /* who == NULL: empty */
  size_t mask;
} place_set;

static place_set set_new(size_t n) {
  size_t cap = 16;
  while (cap < 2 * n + 2)
    cap *= 2;
  return (place_set){calloc(cap, sizeof(place)), cap - 1};
}

/* The first place added that is `p`'s, or NULL. */
static const place *set_find(const place_set *s, const place *p) {
  for (size_t i = place_hash(p) & s->mask; s->slots[i].who; i = (i + 1) & s->mask)
    if (same_place(&s->slots[i], p))
      return &s->slots[i];
  return NULL;
}

static void set_add(place_set *s, place p) {
  size_t i = place_hash(&p) & s->mask;
  while (s->slots[i].who)
    i = (i + 1) & s->mask;
  s->slots[i] = p;
}

static void set_free(place_set *s) {
  for (size_t i = 0; i <= s->mask; i++)
    free(s->slots[i].canon);
  free(s->slots);
}

/* The files read that are not inputs: response files, compile_commands.json, the
 * --options-file of a compile command (cp_note_read). */
static cp_named_file *noted;
static size_t n_noted;

void cp_note_read(const char *role, const char *path) {
  cp_named_file *more = realloc(noted, (n_noted + 1) * sizeof *noted);
  if (!more)
    return;
  noted = more;
  noted[n_noted++] = (cp_named_file){role, strdup(path)};
}

int cp_clash(const cp_named_file *writes, size_t n_writes, const cp_named_file *reads,
             size_t n_reads) {
  place_set s = set_new(n_writes + n_reads + n_noted);
  int found = 0;
  for (size_t i = 0; i < n_reads + n_noted; i++) {
    place p = place_of(i < n_reads ? reads[i].path : noted[i - n_reads].path);
    p.who = i < n_reads ? &reads[i] : &noted[i - n_reads];
    set_add(&s, p);
  }
  for (size_t i = 0; i < n_writes && !found; i++) {
    place p = place_of(writes[i].path);
    const place *other = set_find(&s, &p);
    if ((found = other != NULL)) {
      cp_tool_error("%s '%s' would be written over %s '%s'; choose another file", writes[i].role,
                    writes[i].path, other->who->role, other->who->path);
      free(p.canon);
    } else {
      p.who = &writes[i];
      set_add(&s, p);
    }
  }
  set_free(&s);
  return found;
}

int cp_check_writable(const char *role, const char *path) {
  struct stat st;
  int exists = stat(path, &st) == 0;
  if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
    return 0; /* written through */
  if (exists && !S_ISREG(st.st_mode)) {
    cp_tool_error("cannot write %s '%s': %s", role, path,
                  S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file");
    return -1;
  }
  const char *slash = strrchr(path, '/');
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  int ok = access(dir, W_OK | X_OK) == 0;
  if (!ok)
    cp_tool_error("cannot write %s '%s': %s", role, path, strerror(errno));
  free(dir);
  return ok ? 0 : -1;
}

char *cp_relative_to_cwd(const char *path) {
  char *real = realpath(path, NULL), *cwd = realpath(".", NULL);
  if (!real || !cwd) {
    free(real);
    free(cwd);
    return strdup(path);
  }
  size_t k = 0, common = 0; /* the longest common prefix that ends a path component */
  while (real[k] && real[k] == cwd[k])
    k++;
  if ((!real[k] || real[k] == '/') && (!cwd[k] || cwd[k] == '/'))
    common = k;
  else
    for (common = k; common > 0 && real[common] != '/'; common--)
      ;
  size_t ups = 0;
  if (strcmp(cwd, "/") == 0)
    common = 0, cwd[0] = '\0';
  for (const char *c = cwd + common; *c; c++)
    ups += *c == '/';
  const char *rest = real + common + (real[common] == '/');
  char *rel = malloc(3 * ups + strlen(rest) + 2), *o = rel;
  for (size_t i = 0; i < ups; i++)
    o += sprintf(o, "../");
  strcpy(o, rest);
  if (!*rel)
    strcpy(rel, ".");
  free(real);
  free(cwd);
  return rel;
}

long cp_duplicate(const char *const *paths, size_t n) {
  place_set s = set_new(n);
  long dup = -1;
  cp_named_file who = {"", ""};
  for (size_t i = 0; i < n && dup < 0; i++) {
    place p = place_of(paths[i]);
    p.who = &who;
    if (p.exists && set_find(&s, &p)) {
      dup = (long)i;
      free(p.canon);
    } else {
      set_add(&s, p);
    }
  }
  set_free(&s);
  return dup;
}

int cp_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
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

/* The temporary files and backups of the files being written, removed by the handler if a
 * signal arrives. */
static char **pending;
static volatile sig_atomic_t n_pending;

static void remove_pending_and_die(int sig) {
  for (sig_atomic_t i = 0; i < n_pending; i++)
    if (pending[i] && pending[i][0])
      unlink(pending[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
enum { N_GUARDED = sizeof guarded_signals / sizeof guarded_signals[0] };
static struct sigaction inherited[N_GUARDED];

/* Installs the clean-up handler for the signals that would end the run; one the run was
 * started with ignored (nohup, `cmd &` in a script) stays ignored, as it was meant to. */
static void guard_signals(void) {
  struct sigaction sa = {0};
  sa.sa_handler = remove_pending_and_die;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < N_GUARDED; i++) {
    sigaction(guarded_signals[i], NULL, &inherited[i]);
    if (inherited[i].sa_handler != SIG_IGN)
      sigaction(guarded_signals[i], &sa, NULL);
  }
}

static void unguard_signals(void) {
  for (int i = 0; i < N_GUARDED; i++)
    sigaction(guarded_signals[i], &inherited[i], NULL);
}

/* Holds the guarded signals back (how = SIG_BLOCK) or lets them in again (SIG_UNBLOCK). */
static void hold_signals(int how) {
  sigset_t set;
  sigemptyset(&set);
  for (int i = 0; i < N_GUARDED; i++)
    sigaddset(&set, guarded_signals[i]);
  sigprocmask(how, &set, NULL);
}

/* The reason a write failed, in words: EFBIG names its usual cause. */
static const char *write_error(int err) {
  return err == EFBIG ? "File too large (past the file size limit, `ulimit -f`, or the file "
                        "system's largest file)"
                      : strerror(err);
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
 * file would break them, and they have no contents to keep), or left alone when it holds
 * the new bytes already (`unchanged`: its time stays, so make and ninja's restat see
 * nothing to rebuild downstream). `backup` is a second link to the old file while the
 * renames run, to put it back if one fails. */
typedef struct {
  const cp_output *out;
  char *place, *tmp, *backup;
  int through, unchanged, existed;
} target;

/* 1 when the regular file `path` of `size` bytes holds exactly `t`'s new contents. */
static int holds_already(const target *t, const char *path, off_t size) {
  if ((uint64_t)size != (uint64_t)t->out->len)
    return 0;
  size_t len = 0;
  char *old = cp_read_file(path, t->out->len, &len);
  int same = old && len == t->out->len && memcmp(old, t->out->data, len) == 0;
  free(old);
  return same;
}

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
  t->unchanged = holds_already(t, path, st.st_size);
  int link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && realpath(path, real);
  t->place = strdup(link ? real : path);
  t->existed = 1;
  return 0;
}

/* The name of a temporary file beside `place`: `.NAME` and `tag`, NAME cut so that the
 * whole stays within NAME_MAX (a legal 250-byte output name has room for no suffix). */
static char *temp_name(const char *where, const char *tag) {
  const char *slash = strrchr(where, '/'), *name = slash ? slash + 1 : where;
  int dirlen = slash ? (int)(slash - where) + 1 : 0;
  int room = NAME_MAX - 1 - (int)strlen(tag), keep = (int)strlen(name);
  size_t n = strlen(where) + strlen(tag) + 2;
  char *tmp = malloc(n);
  snprintf(tmp, n, "%.*s.%.*s%s", dirlen, where, keep < room ? keep : room, name, tag);
  return tmp;
}

/* Writes the new contents of `t` to a temporary file beside its place: 0, or -1 after a
 * message (the temporary file removed). */
static int prepare(target *t) {
  t->tmp = temp_name(t->place, ".XXXXXX");
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
    cp_tool_error("cannot %s '%s': %s", step, t->out->path, write_error(saved));
  return ok ? 0 : -1;
}

/* A second link to the file at `t`'s place, so that a failed rename of another file can
 * put this one back. Best effort: without one (a file system without hard links) that
 * file cannot be put back. */
static void link_backup(target *t) {
  static unsigned serial;
  for (int tries = 0; tries < 8 && !t->backup; tries++) {
    char tag[48];
    snprintf(tag, sizeof tag, ".%ld-%u.old", (long)getpid(), serial++);
    t->backup = temp_name(t->place, tag);
    if (link(t->place, t->backup) != 0) {
      int again = errno == EEXIST;
      free(t->backup);
      t->backup = NULL;
      if (!again)
        return;
    }
  }
  if (t->backup)
    pending[n_pending++] = t->backup;
}

static int write_through(const target *t) {
  int fd = open(t->out->path, O_WRONLY | O_NOCTTY | O_CLOEXEC), ok = fd >= 0;
  ok = ok && write_all(fd, t->out->data, t->out->len) == 0;
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && ok)
    ok = 0, saved = errno;
  if (!ok)
    cp_tool_error("cannot write '%s': %s", t->out->path, write_error(saved));
  return ok ? 0 : -1;
}

static int replaced(const target *t) { return !t->through && !t->unchanged; }

/* Renames every temporary file into place, the guarded signals held back meanwhile (one
 * that arrives then ends the run after the last rename: every file new). If a rename
 * fails, the files renamed before it are put back from their backups (or removed, if
 * they did not exist), so that the set stays the old one. 0, or -1 after a message. */
static int rename_all(target *t, size_t n) {
  size_t i = 0;
  int ok = 1;
  hold_signals(SIG_BLOCK);
  for (; i < n && ok; i++) {
    if (!replaced(&t[i]))
      continue;
    if (!(ok = rename(t[i].tmp, t[i].place) == 0))
      cp_tool_error("cannot rename into place '%s': %s", t[i].out->path, strerror(errno));
    else
      t[i].tmp[0] = '\0'; /* renamed: nothing left to remove */
  }
  for (size_t k = 0; !ok && k + 1 < i; k++) {
    if (!replaced(&t[k]))
      continue;
    int back = t[k].backup ? rename(t[k].backup, t[k].place) == 0
                           : !t[k].existed && unlink(t[k].place) == 0;
    if (back && t[k].backup)
      t[k].backup[0] = '\0';
    if (!back)
      cp_tool_error("cannot put back the previous '%s': it holds the new contents",
                    t[k].out->path);
  }
  for (size_t k = 0; k < n; k++)
    if (t[k].backup && t[k].backup[0])
      unlink(t[k].backup);
  for (size_t k = 0; k < n; k++)
    if (t[k].backup)
      t[k].backup[0] = '\0';
  hold_signals(SIG_UNBLOCK);
  return ok ? 0 : -1;
}

/* Every file is first written in full to a temporary file beside it, and only when all
 * are written are they renamed into place (rename_all): a run that fails to write one
 * replaces none, and one whose rename fails midway puts back the files renamed before it.
 * A file that holds the new bytes already is left alone. */
int cp_write_files(const cp_output *files, size_t n) {
  target *t = calloc(n + 1, sizeof *t);
  int ok = 1;
  size_t n_replaced = 0;
  for (size_t i = 0; i < n && ok; i++) {
    t[i].out = &files[i];
    ok = plan(&t[i]) == 0;
    n_replaced += ok && replaced(&t[i]);
  }
  pending = calloc(2 * n + 1, sizeof *pending);
  n_pending = 0;
  guard_signals();
  for (size_t i = 0; i < n && ok; i++)
    ok = !replaced(&t[i]) || prepare(&t[i]) == 0;
  for (size_t i = 0; i < n && ok; i++)
    ok = !t[i].through || write_through(&t[i]) == 0;
  for (size_t i = 0; i < n && ok && n_replaced > 1; i++)
    if (replaced(&t[i]) && t[i].existed)
      link_backup(&t[i]);
  ok = ok && rename_all(t, n) == 0;
  for (size_t i = 0; i < n; i++) {
    if (!ok && t[i].tmp && t[i].tmp[0])
      unlink(t[i].tmp);
  }
  unguard_signals();
  n_pending = 0;
  for (size_t i = 0; i < n; i++) {
    free(t[i].place);
    free(t[i].tmp);
    free(t[i].backup);
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
