/*
 * lines.c: --line-directives, `#line N "input"` markers that keep the output's lines
 * mapped to the input's.
 *
 * The edits are walked in the order they are applied, following two line numbers for
 * every line of the output: the one the compiler will give it (one more than the line
 * before, or what the last marker said) and the one it should have. A line that starts
 * in the input should have its input line; a line that starts in an edit's text (a
 * companion allocation, a declaration) should have the line the edit was made at, so an
 * error in added code names the statement that caused it; the header's lines have no
 * line to have. Where the two differ, a marker goes before the line: as an insertion of
 * its own (rule `line`) when the line starts in the input, or inside the edit's text when
 * it starts there. So the markers are edits like any other: --diff and --dump-edits show
 * them, and the list is still applied once.
 *
 * No marker goes after a line that ends with a backslash (it would join a macro
 * definition); the next line gets it.
 */
#include <string.h>

#include "internal.h"

typedef struct {
  cp_arena *a;
  const char *marker; /* `#line %u "path"` without the number: the quoted path */
  const char *nl;
  unsigned compiler;  /* the line the compiler gives the line being started */
  int continued;      /* the previous output line ended with a backslash */
  char last;          /* the last character put out */
} line_state;

/* The marker text to put before a line that should be `want`, or NULL if none is
 * needed there; updates what the compiler will count. */
static const char *marker_for(line_state *s, unsigned want) {
  if (!want || want == s->compiler || s->continued)
    return NULL;
  s->compiler = want;
  return cp_arena_printf(s->a, "#line %u %s%s", want, s->marker, s->nl);
}

/* Follows one character put out. */
static void put(line_state *s, char ch) {
  if (ch == '\n') {
    s->compiler++;
    s->continued = s->last == '\\';
  }
  if (ch != '\r')
    s->last = ch;
}

/* An edit's text with the markers its lines need. Its j-th line should be `want` + j up
 * to the number of lines it replaces (`span`: a rewritten expression keeps its layout),
 * then `want` + span (added lines count as the line they were added at); `want` 0 (the
 * header, --profile's table) needs none. Returns the text, changed or not. */
static const char *mark_text(line_state *s, const char *text, unsigned want, unsigned span,
                             int at_line_start) {
  size_t n = strlen(text), start = 0;
  unsigned j = 0;
  const char *out = "";
  for (size_t i = 0; i < n; i++) {
    const char *m = at_line_start && want ? marker_for(s, want + (j < span ? j : span)) : NULL;
    if (m) {
      out = cp_arena_printf(s->a, "%s%.*s%s", out, (int)(i - start), text + start, m);
      start = i;
    }
    put(s, text[i]);
    at_line_start = text[i] == '\n';
    j += text[i] == '\n';
  }
  return *out ? cp_arena_printf(s->a, "%s%s", out, text + start) : text;
}

/* `"path"` with backslashes and quotes escaped, as #line takes it. */
static const char *quoted(cp_arena *a, const char *path) {
  size_t n = strlen(path);
  char *q = cp_arena_alloc(a, 2 * n + 3), *o = q;
  *o++ = '"';
  for (const char *p = path; *p; p++) {
    if (*p == '"' || *p == '\\')
      *o++ = '\\';
    *o++ = *p;
  }
  *o++ = '"';
  *o = '\0';
  return q;
}

void cp_add_line_directives(cp_arena *a, cp_edit_list *list, const char *input, size_t len,
                            const char *path, const char *nl) {
  line_state s = {a, quoted(a, path), nl, 1, 0, '\n'};
  const cp_edit **order = cp_edit_sorted(a, list);
  size_t count = list->count, pos = 0;
  size_t *index = cp_arena_alloc(a, (count + 1) * sizeof *index);
  for (size_t k = 0; k < count; k++) /* list->items moves when markers are added */
    index[k] = (size_t)(order[k] - list->items);
  unsigned line = 1; /* the input line of `pos` */
  int at_line_start = 1;
  for (size_t k = 0; k <= count; k++) {
    size_t stop = k < count ? list->items[index[k]].offset : len;
    for (; pos < stop; pos++) { /* input text: each line should have its own number */
      const char *m = at_line_start ? marker_for(&s, line) : NULL;
      if (m)
        cp_edit_add(a, list, pos, 0, m, CP_RULE_LINE);
      put(&s, input[pos]);
      at_line_start = input[pos] == '\n';
      line += input[pos] == '\n';
    }
    if (k == count)
      break;
    cp_edit *e = &list->items[index[k]];
    unsigned span = 0;
    for (size_t i = e->offset; i < e->offset + e->length; i++)
      span += input[i] == '\n';
    int head = e->rule == CP_RULE_HEADER || cp_prof_is_table(e); /* no marker inside a macro's
                                                                    arguments */
    e->text = mark_text(&s, e->text, head ? 0 : line, span, at_line_start);
    if (*e->text)
      at_line_start = e->text[strlen(e->text) - 1] == '\n';
    pos = e->offset + e->length;
    line += span;
  }
}
