/*
 * arena.c: the one allocator of a conversion run.
 *
 * Memory is taken in large blocks and handed out by bumping a pointer; nothing is freed
 * before the run ends, when cp_arena_free() releases every block. Out of memory is the
 * one failure the rewriter cannot report as a diagnostic, so it aborts.
 */
#include "parse.h"
#include "rewriter.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CP_ARENA_BLOCK = 64 * 1024 };

typedef struct cp_block {
  struct cp_block *next;
  size_t used, size;
  max_align_t data[];
} cp_block;

struct cp_arena {
  cp_block *head;
  cp_arena_line line; /* cp_line_at's last copy (diag.c) */
};

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("cpconvert: out of memory\n", stderr);
    abort();
  }
  return p;
}

cp_arena *cp_arena_new(void) {
  cp_arena *a = xmalloc(sizeof *a);
  a->head = NULL;
  a->line = (cp_arena_line){NULL, NULL, 0, 0};
  return a;
}

cp_arena_line *cp_arena_last_line(cp_arena *a) { return &a->line; }

void *cp_arena_alloc(cp_arena *a, size_t size) {
  size_t align = sizeof(max_align_t);
  size = (size + align - 1) / align * align;
  if (!a->head || a->head->size - a->head->used < size) {
    size_t cap = size > CP_ARENA_BLOCK ? size : CP_ARENA_BLOCK;
    cp_block *b = xmalloc(sizeof *b + cap);
    b->next = a->head;
    b->used = 0;
    b->size = cap;
    a->head = b;
  }
  void *p = (char *)a->head->data + a->head->used;
  a->head->used += size;
  return p;
}

void *cp_arena_grow(cp_arena *a, const void *old, size_t n, size_t cap, size_t size) {
  void *p = cp_arena_alloc(a, cap * size);
  if (n)
    memcpy(p, old, n * size);
  return p;
}

char *cp_arena_strndup(cp_arena *a, const char *s, size_t n) {
  char *p = cp_arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *cp_arena_strdup(cp_arena *a, const char *s) {
  return cp_arena_strndup(a, s, strlen(s));
}

char *cp_arena_printf(cp_arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = cp_arena_alloc(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

void cp_arena_free(cp_arena *a) {
  if (!a)
    return;
  for (cp_block *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(a);
}
