/*
 * stack.c: runs the conversion on a thread with a large stack.
 *
 * clang's parser and semantic analysis recurse once per level of expression nesting, and
 * so do the rewriter's visitors. libclang parses on a thread of its own with an 8 MiB
 * stack, which a 2000-level parenthesised expression (with -fbracket-depth raised) or a
 * 30 000-term sum overflows: the process dies with SIGSEGV, no message. So the tool asks
 * libclang to parse on the calling thread (LIBCLANG_NOTHREADS, read by libclang at each
 * parse) and calls the rewriter on a thread whose stack is CP_STACK_SIZE; the stack is
 * reserved, not committed, so an ordinary file costs nothing more. Where that thread
 * cannot be created the conversion runs as before.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "tool.h"

#define CP_STACK_SIZE ((size_t)1 << 30)

typedef struct {
  const cp_options *opts;
  int n;
  cp_result *result;
} convert_job;

static void *convert_thread(void *arg) {
  convert_job *job = arg;
  job->result = cp_convert_files(job->opts, job->n);
  return NULL;
}

cp_result *cp_convert_deep(const cp_options *opts, int n) {
  convert_job job = {opts, n, NULL};
  pthread_attr_t attr;
  pthread_t t;
  int ok = pthread_attr_init(&attr) == 0;
  if (ok && pthread_attr_setstacksize(&attr, CP_STACK_SIZE) == 0) {
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    if (pthread_create(&t, &attr, convert_thread, &job) == 0)
      pthread_join(t, NULL);
    unsetenv("LIBCLANG_NOTHREADS");
  }
  if (ok)
    pthread_attr_destroy(&attr);
  return job.result ? job.result : cp_convert_files(opts, n);
}
