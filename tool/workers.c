/*
 * workers.c: -j N, the inputs a run converts alone spread over N worker processes.
 *
 * The rewriter hands over the inputs that share nothing as n tasks (cp_options.spread,
 * rewriter/driver/split.c). N processes are forked from this one, each with the run's
 * options, inputs and precompiled headers as they are now; each is given the next task as
 * it finishes one, and the bytes a task returns go back to the rewriter in the order of
 * the tasks. Processes rather than threads: libclang's standard-error capture
 * (rewriter/parse/parse.c) swaps descriptor 2 around each parse, and the memory of a
 * conversion is one process's. What a worker writes on standard error during a task
 * (the progress lines of -v, what libclang prints) goes to a memory file and comes back
 * with the task, and is printed in the order of the tasks: standard error is the
 * one-process run's, byte for byte. The outputs are written by this process alone, after
 * every task, as without -j.
 *
 * A worker dies with its parent (PR_SET_PDEATHSIG): a signal that ends the run ends
 * them. A worker lost (killed, out of memory) leaves its task and those after it to the
 * rewriter, which converts them in this process.
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"

typedef char *(*task_fn)(void *ctx, unsigned k, size_t *len);
typedef int (*take_fn)(void *ctx, unsigned k, const char *bytes, size_t len);

/* What a worker sends for a task: this, then n_err bytes of standard error, then n bytes. */
typedef struct {
  uint64_t k, n_err, n;
} message;

typedef struct {
  pid_t pid;
  int fd;       /* a socket: task numbers to the worker, messages from it */
  char *buf;    /* the message being read */
  size_t have, cap;
  int busy;     /* it has a task */
} worker;

typedef struct {
  char *bytes; /* standard error's text, then the task's bytes */
  size_t n_err, n;
  int done;
} answer;

static int write_all(int fd, const void *p, size_t n) {
  const char *s = p;
  while (n) {
    ssize_t w = send(fd, s, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

/* A worker's life: a task number in, its message out, until the socket closes. */
static void __attribute__((noreturn)) work(int fd, int err, task_fn task, void *ctx) {
  uint64_t k;
  for (;;) {
    size_t got = 0;
    while (got < sizeof k) {
      ssize_t r = read(fd, (char *)&k + got, sizeof k - got);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        _exit(0);
      got += (size_t)r;
    }
    size_t len = 0;
    char *bytes = task(ctx, (unsigned)k, &len);
    fflush(stderr);
    off_t n_err = lseek(err, 0, SEEK_END);
    char *text = n_err > 0 ? malloc((size_t)n_err) : NULL;
    if (n_err > 0 && (!text || pread(err, text, (size_t)n_err, 0) != n_err))
      _exit(1);
    message m = {k, n_err > 0 ? (uint64_t)n_err : 0, bytes ? len : 0};
    if (write_all(fd, &m, sizeof m) || write_all(fd, text, m.n_err) ||
        write_all(fd, bytes, m.n) || ftruncate(err, 0) != 0 || lseek(err, 0, SEEK_SET) != 0)
      _exit(1);
    free(text);
    free(bytes);
  }
}

/* Forks worker w; its end of the socket is `theirs`, the others' ends are closed there. */
static int start(worker *ws, int w, task_fn task, void *ctx) {
  int sv[2];
  int err = memfd_create("cpconvert-worker-stderr", MFD_CLOEXEC);
  if (err < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    if (err >= 0)
      close(err);
    return -1;
  }
  pid_t parent = getpid(), pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(1);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      signal(sigs[i], SIG_DFL);
    for (int i = 0; i < w; i++)
      close(ws[i].fd);
    close(sv[0]);
    if (dup2(err, 2) < 0)
      _exit(1);
    work(sv[1], err, task, ctx);
  }
  close(sv[1]);
  close(err);
  if (pid < 0) {
    close(sv[0]);
    return -1;
  }
  ws[w] = (worker){.pid = pid, .fd = sv[0]};
  return 0;
}

/* Gives worker w the next task, or, when none is left, closes its socket (it ends). */
static void give(worker *w, unsigned *next, unsigned n) {
  uint64_t k = *next;
  if (*next < n && write_all(w->fd, &k, sizeof k) == 0) {
    (*next)++;
    w->busy = 1;
  }
}

/* Reads what worker w has sent; a whole message goes to its answer. -1: the worker is
 * lost (it closed the socket while busy, or sent nonsense). */
static int receive(worker *w, answer *ans, unsigned n) {
  if (w->cap - w->have < 65536) {
    w->cap = w->cap ? 2 * w->cap : 65536 + sizeof(message);
    if (!(w->buf = realloc(w->buf, w->cap)))
      abort();
  }
  ssize_t r = read(w->fd, w->buf + w->have, w->cap - w->have);
  if (r < 0 && errno == EINTR)
    return 0;
  if (r <= 0)
    return -1;
  w->have += (size_t)r;
  message m;
  if (w->have < sizeof m)
    return 0;
  memcpy(&m, w->buf, sizeof m);
  if (m.k >= n || ans[m.k].done || m.n_err > SIZE_MAX / 4 || m.n > SIZE_MAX / 4)
    return -1;
  size_t total = sizeof m + (size_t)m.n_err + (size_t)m.n;
  if (w->have < total)
    return 0;
  if (w->have > total)
    return -1; /* one task at a time: nothing may follow */
  ans[m.k] = (answer){malloc((size_t)(m.n_err + m.n) + 1), (size_t)m.n_err, (size_t)m.n, 1};
  if (!ans[m.k].bytes)
    abort();
  memcpy(ans[m.k].bytes, w->buf + sizeof m, (size_t)(m.n_err + m.n));
  w->have = 0;
  w->busy = 0;
  return 0;
}

/* The answers from task *taken on, while they have come, printed and taken in order. 1
 * when take asked to stop. */
static int take_ready(answer *ans, unsigned n, unsigned *taken, take_fn take, void *ctx) {
  while (*taken < n && ans[*taken].done) {
    answer *a = &ans[*taken];
    if (a->n_err) {
      fwrite(a->bytes, 1, a->n_err, stderr);
      fflush(stderr);
    }
    int stop = take(ctx, *taken, a->bytes + a->n_err, a->n);
    free(a->bytes);
    a->bytes = NULL;
    (*taken)++;
    if (stop)
      return 1;
  }
  return 0;
}

int cp_default_jobs(void) {
  cpu_set_t set;
  long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                       : sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > CP_MAX_DEFAULT_JOBS ? CP_MAX_DEFAULT_JOBS : (int)n;
}

void cp_spread(void *jobs, unsigned n, task_fn task, take_fn take, void *ctx) {
  unsigned n_w = (unsigned)*(int *)jobs < n ? (unsigned)*(int *)jobs : n, started = 0;
  if (n_w < 2)
    return; /* the rewriter converts them itself */
  fflush(stdout);
  fflush(stderr); /* nothing buffered is copied into the workers */
  worker *ws = calloc(n_w, sizeof *ws);
  answer *ans = calloc(n, sizeof *ans);
  struct pollfd *pf = calloc(n_w, sizeof *pf);
  if (!ws || !ans || !pf)
    abort();
  while (started < n_w && start(ws, (int)started, task, ctx) == 0)
    started++;
  unsigned next = 0, taken = 0;
  for (unsigned w = 0; w < started; w++)
    give(&ws[w], &next, n);
  int over = started < 2; /* one worker only would be no faster: all here */
  while (!over && taken < n) {
    unsigned np = 0;
    for (unsigned w = 0; w < started; w++)
      if (ws[w].busy)
        pf[np++] = (struct pollfd){ws[w].fd, POLLIN, 0};
    if (!np || (poll(pf, np, -1) < 0 && errno != EINTR))
      break;
    for (unsigned w = 0, p = 0; w < started && !over; w++) {
      if (!ws[w].busy || !(pf[p++].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      if (receive(&ws[w], ans, n) != 0)
        over = 1; /* a worker lost: the rest is left to the rewriter */
      else if (!ws[w].busy)
        give(&ws[w], &next, n);
    }
    if (take_ready(ans, n, &taken, take, ctx))
      over = 1;
  }
  for (unsigned w = 0; w < started; w++) {
    if (over)
      kill(ws[w].pid, SIGKILL);
    close(ws[w].fd); /* an idle worker ends */
    while (waitpid(ws[w].pid, NULL, 0) < 0 && errno == EINTR)
      ;
    free(ws[w].buf);
  }
  for (unsigned k = 0; k < n; k++)
    free(ans[k].bytes);
  free(ans);
  free(ws);
  free(pf);
}
