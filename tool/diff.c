/*
 * diff.c: --diff, the unified diff of the input and the converted output.
 *
 * The output is the input with the edits applied, so the diff comes from the edits: the
 * input lines an edit touches, together with those of edits on the same or adjacent
 * lines, form a change block whose new lines are those lines with the block's edits
 * applied. Lines a block's old and new sides share at its start and end are context, not
 * changes (an inserted line shows as one added line). Blocks less than 2 * CONTEXT lines
 * apart share a hunk. Linear in the size of the input.
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

enum { CONTEXT = 3 };

typedef struct {
  const char **text; /* each line with its end-of-line */
  size_t *len;
  size_t n;
} lines;

static void split(const char *s, size_t n, lines *l) {
  size_t cap = 16;
  l->text = malloc(cap * sizeof *l->text);
  l->len = malloc(cap * sizeof *l->len);
  l->n = 0;
  for (size_t i = 0; i < n;) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) + 1 : n;
    if (l->n == cap) {
      cap *= 2;
      l->text = realloc(l->text, cap * sizeof *l->text);
      l->len = realloc(l->len, cap * sizeof *l->len);
    }
    l->text[l->n] = s + i;
    l->len[l->n++] = e - i;
    i = e;
  }
}

static void free_lines(lines *l) {
  free(l->text);
  free(l->len);
}

/* One change: old lines [a, b) become the new lines of `repl` (owned). */
typedef struct {
  size_t a, b;
  char *repl;
  size_t repl_len;
  lines neu;
} block;

/* The order cp_edit_apply applies edits in: by offset; at one offset insertions first,
 * then in the order they were made (the index, since qsort is not stable). */
typedef struct {
  cp_edit edit;
  size_t index;
} indexed_edit;

static int by_offset(const void *x, const void *y) {
  const indexed_edit *p = x, *q = y;
  if (p->edit.offset != q->edit.offset)
    return p->edit.offset < q->edit.offset ? -1 : 1;
  if ((p->edit.length == 0) != (q->edit.length == 0))
    return p->edit.length == 0 ? -1 : 1;
  return p->index < q->index ? -1 : p->index > q->index;
}

/* The line holding byte `off` (the number of line starts at or before it, minus one). */
static size_t line_of(const lines *l, const char *base, size_t off) {
  size_t lo = 0, hi = l->n;
  while (lo + 1 < hi) {
    size_t mid = (lo + hi) / 2;
    if ((size_t)(l->text[mid] - base) <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static void print_line(FILE *out, char mark, const char *s, size_t n) {
  fputc(mark, out);
  fwrite(s, 1, n, out);
  if (n == 0 || s[n - 1] != '\n')
    fputs("\n\\ No newline at end of file\n", out);
}

/* Builds the change blocks: consecutive edits on the same or adjacent lines. */
static size_t make_blocks(const char *in, size_t in_len, const lines *old, cp_edit *e, size_t ne,
                          block *blocks) {
  size_t nb = 0;
  for (size_t i = 0; i < ne;) {
    size_t a = line_of(old, in, e[i].offset), b = a + 1, j = i;
    for (; j < ne; j++) {
      size_t first = line_of(old, in, e[j].offset);
      if (first > b)
        break;
      size_t end = e[j].offset + (e[j].length ? e[j].length - 1 : 0);
      size_t last = line_of(old, in, end < in_len ? end : in_len ? in_len - 1 : 0) + 1;
      if (last > b)
        b = last;
    }
    size_t start = (size_t)(old->text[a] - in);
    size_t stop = b < old->n ? (size_t)(old->text[b] - in) : in_len;
    size_t cap = stop - start + 1;
    for (size_t k = i; k < j; k++)
      cap += strlen(e[k].text);
    char *repl = malloc(cap);
    size_t n = 0, pos = start;
    for (size_t k = i; k < j; k++) {
      memcpy(repl + n, in + pos, e[k].offset - pos);
      n += e[k].offset - pos;
      size_t t = strlen(e[k].text);
      memcpy(repl + n, e[k].text, t);
      n += t;
      pos = e[k].offset + e[k].length;
    }
    memcpy(repl + n, in + pos, stop - pos);
    n += stop - pos;
    blocks[nb] = (block){a, b, repl, n, {0}};
    split(repl, n, &blocks[nb].neu);
    nb++;
    i = j;
  }
  return nb;
}

static int same(const char *s, size_t n, const char *t, size_t m) {
  return n == m && memcmp(s, t, n) == 0;
}

/* Prints the blocks [first, last] as one hunk; `delta` is the new-minus-old line count of
 * the blocks before it. */
static void print_hunk(FILE *out, const lines *old, block *bl, size_t first, size_t last,
                       long delta) {
  size_t from = bl[first].a > CONTEXT ? bl[first].a - CONTEXT : 0;
  size_t to = bl[last].b + CONTEXT < old->n ? bl[last].b + CONTEXT : old->n;
  long new_count = (long)(to - from);
  for (size_t k = first; k <= last; k++)
    new_count += (long)bl[k].neu.n - (long)(bl[k].b - bl[k].a);
  fprintf(out, "@@ -%zu,%zu +%ld,%ld @@\n", from + 1, to - from, (long)from + 1 + delta, new_count);
  size_t line = from;
  for (size_t k = first; k <= last; k++) {
    block *b = &bl[k];
    for (; line < b->a; line++)
      print_line(out, ' ', old->text[line], old->len[line]);
    size_t nold = b->b - b->a, nnew = b->neu.n, pre = 0, post = 0;
    while (pre < nold && pre < nnew &&
           same(old->text[b->a + pre], old->len[b->a + pre], b->neu.text[pre], b->neu.len[pre]))
      pre++;
    while (post < nold - pre && post < nnew - pre &&
           same(old->text[b->b - 1 - post], old->len[b->b - 1 - post], b->neu.text[nnew - 1 - post],
                b->neu.len[nnew - 1 - post]))
      post++;
    for (size_t i = 0; i < pre; i++)
      print_line(out, ' ', old->text[b->a + i], old->len[b->a + i]);
    for (size_t i = b->a + pre; i < b->b - post; i++)
      print_line(out, '-', old->text[i], old->len[i]);
    for (size_t i = pre; i < nnew - post; i++)
      print_line(out, '+', b->neu.text[i], b->neu.len[i]);
    for (size_t i = b->b - post; i < b->b; i++)
      print_line(out, ' ', old->text[i], old->len[i]);
    line = b->b;
  }
  for (; line < to; line++)
    print_line(out, ' ', old->text[line], old->len[line]);
}

void cp_print_diff(FILE *out, const char *old_label, const char *new_label, const char *in,
                   size_t in_len, const cp_edit_list *edits) {
  if (!edits->count)
    return;
  lines old;
  split(in, in_len, &old);
  if (old.n == 0) { /* an empty input: one empty line to attach the insertions to */
    old.text = realloc(old.text, sizeof *old.text);
    old.len = realloc(old.len, sizeof *old.len);
    old.text[0] = in;
    old.len[0] = 0;
    old.n = 1;
  }
  indexed_edit *ie = malloc(edits->count * sizeof *ie);
  for (size_t i = 0; i < edits->count; i++)
    ie[i] = (indexed_edit){edits->items[i], i};
  qsort(ie, edits->count, sizeof *ie, by_offset);
  cp_edit *e = malloc(edits->count * sizeof *e);
  for (size_t i = 0; i < edits->count; i++)
    e[i] = ie[i].edit;
  free(ie);
  block *bl = malloc(edits->count * sizeof *bl);
  size_t nb = make_blocks(in, in_len, &old, e, edits->count, bl);
  fprintf(out, "--- %s\n+++ %s\n", old_label, new_label);
  long delta = 0;
  for (size_t first = 0; first < nb;) {
    size_t last = first;
    while (last + 1 < nb && bl[last + 1].a <= bl[last].b + 2 * CONTEXT)
      last++;
    print_hunk(out, &old, bl, first, last, delta);
    for (size_t k = first; k <= last; k++)
      delta += (long)bl[k].neu.n - (long)(bl[k].b - bl[k].a);
    first = last + 1;
  }
  for (size_t k = 0; k < nb; k++) {
    free(bl[k].repl);
    free_lines(&bl[k].neu);
  }
  free(bl);
  free(e);
  free_lines(&old);
}
