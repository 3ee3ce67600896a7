/*
 * diff.c: --diff, the unified diff of the input and the converted output.
 *
 * The diff is computed from the two texts, not from the edits, so that it is minimal: an
 * edit that leaves a line as it was shows no change, and a line that an edit moves is
 * matched wherever it lands. The lines are compared byte for byte, end of line included
 * (a CRLF line differs from the same line ending in LF). After the common first and last
 * lines are set aside, Myers' greedy O(ND) algorithm finds a shortest edit script of the
 * middle (E. Myers, "An O(ND) Difference Algorithm and Its Variations", Algorithmica 1986).
 * The output follows GNU `diff -u`: 3 lines of context, changes fewer than 2 * 3 + 1
 * unchanged lines apart share a hunk, a range of one line is written without its count,
 * an empty range as the line before it with count 0, and a last line without a newline is
 * followed by "\ No newline at end of file".
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

enum { CONTEXT = 3 };

typedef struct {
  const char *s;
  size_t n; /* with its end of line */
} line;

/* The lines of `s`; the last one may lack its '\n'. The caller frees. */
static line *split(const char *s, size_t n, size_t *count) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += s[i] == '\n';
  line *l = malloc((k + 2) * sizeof *l);
  *count = 0;
  for (size_t i = 0; i < n;) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) + 1 : n;
    l[(*count)++] = (line){s + i, e - i};
    i = e;
  }
  return l;
}

static int same(const line *a, const line *b) {
  return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* Marks in `da` (old) and `db` (new) the lines of a shortest edit script of a[0, n) to
 * b[0, m). v[k] is the furthest x reached on diagonal k = x - y; trace[d] keeps v as it
 * was before step d, for the walk back. Memory is O(D^2) for D differences, which is
 * small next to the files because the common ends are already set aside. */
static void myers(const line *a, long n, const line *b, long m, char *da, char *db) {
  long max = n + m, off = max + 1, d;
  long *v = calloc((size_t)(2 * max + 3), sizeof *v);
  long **trace = malloc((size_t)(max + 1) * sizeof *trace);
  for (d = 0; d <= max; d++) {
    trace[d] = malloc((size_t)(2 * d + 1) * sizeof **trace);
    memcpy(trace[d], v + off - d, (size_t)(2 * d + 1) * sizeof *v);
    int done = 0;
    for (long k = -d; k <= d && !done; k += 2) {
      /* Down (insert b[y]) from diagonal k + 1, or right (delete a[x]) from k - 1,
       * whichever reaches further; then follow the equal lines. */
      long x = k == -d || (k != d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1]
                                                                       : v[off + k - 1] + 1;
      long y = x - k;
      while (x < n && y < m && same(&a[x], &b[y]))
        x++, y++;
      v[off + k] = x;
      done = x >= n && y >= m;
    }
    if (done)
      break;
  }
  /* Walk back from (n, m): each step d undoes one equal run and one insert or delete. */
  long x = n, y = m;
  for (long e = d; e > 0; e--) {
    long *p = trace[e] + e, k = x - y; /* p[k]: v before step e */
    long pk = k == -e || (k != e && p[k - 1] < p[k + 1]) ? k + 1 : k - 1;
    long px = p[pk], py = px - pk;
    if (pk == k + 1)
      db[py] = 1;
    else
      da[px] = 1;
    x = px, y = py;
  }
  for (long e = 0; e <= d && e <= max; e++)
    free(trace[e]);
  free(trace);
  free(v);
}

/* One change: old lines [a, a + del) replaced by new lines [b, b + ins). */
typedef struct {
  size_t a, del, b, ins;
} change;

/* The changes the marks describe, in order; returns their number. */
static size_t changes_of(const char *da, size_t n, const char *db, size_t m, change *c) {
  size_t nc = 0, i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !da[i] && !db[j]) {
      i++, j++;
      continue;
    }
    change ch = {i, 0, j, 0};
    while (i < n && da[i])
      i++, ch.del++;
    while (j < m && db[j])
      j++, ch.ins++;
    c[nc++] = ch;
  }
  return nc;
}

static void print_line(FILE *out, char mark, const line *l) {
  fputc(mark, out);
  fwrite(l->s, 1, l->n, out);
  if (l->n == 0 || l->s[l->n - 1] != '\n')
    fputs("\n\\ No newline at end of file\n", out);
}

/* GNU's range: "START,COUNT", "START" for one line, "BEFORE,0" for none. */
static void print_range(FILE *out, size_t start, size_t count) {
  if (count == 1)
    fprintf(out, "%zu", start + 1);
  else
    fprintf(out, "%zu,%zu", count ? start + 1 : start, count);
}

/* Prints changes [first, last] as one hunk with its context. */
static void print_hunk(FILE *out, const line *a, size_t n, const line *b, const change *c,
                       size_t first, size_t last) {
  size_t lead = c[first].a < CONTEXT ? c[first].a : CONTEXT;
  size_t end = c[last].a + c[last].del, tail = n - end < CONTEXT ? n - end : CONTEXT;
  size_t from = c[first].a - lead, to = end + tail;
  size_t bfrom = c[first].b - lead, bto = c[last].b + c[last].ins + tail;
  fputs("@@ -", out);
  print_range(out, from, to - from);
  fputs(" +", out);
  print_range(out, bfrom, bto - bfrom);
  fputs(" @@\n", out);
  size_t i = from;
  for (size_t k = first; k <= last; k++) {
    for (; i < c[k].a; i++)
      print_line(out, ' ', &a[i]);
    for (; i < c[k].a + c[k].del; i++)
      print_line(out, '-', &a[i]);
    for (size_t j = c[k].b; j < c[k].b + c[k].ins; j++)
      print_line(out, '+', &b[j]);
  }
  for (; i < to; i++)
    print_line(out, ' ', &a[i]);
}

void cp_print_diff(FILE *out, const char *old_label, const char *new_label, const char *old,
                   size_t old_len, const char *neu, size_t new_len) {
  if (old_len == new_len && memcmp(old, neu, old_len) == 0)
    return;
  size_t n, m, pre = 0, post = 0;
  line *a = split(old, old_len, &n), *b = split(neu, new_len, &m);
  while (pre < n && pre < m && same(&a[pre], &b[pre]))
    pre++;
  while (post < n - pre && post < m - pre && same(&a[n - 1 - post], &b[m - 1 - post]))
    post++;
  char *da = calloc(n + 1, 1), *db = calloc(m + 1, 1);
  myers(a + pre, (long)(n - pre - post), b + pre, (long)(m - pre - post), da + pre, db + pre);
  change *c = malloc((n + m + 1) * sizeof *c);
  size_t nc = changes_of(da, n, db, m, c);
  fprintf(out, "--- %s\n+++ %s\n", old_label, new_label);
  for (size_t first = 0; first < nc;) {
    size_t last = first;
    while (last + 1 < nc && c[last + 1].a - (c[last].a + c[last].del) < 2 * CONTEXT + 1)
      last++;
    print_hunk(out, a, n, b, c, first, last);
    first = last + 1;
  }
  free(c);
  free(da);
  free(db);
  free(a);
  free(b);
}
