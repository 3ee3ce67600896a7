/*
 * edit.c: the edit list and its single application.
 *
 * Every change the rewriter makes is one cp_edit {offset, length, text, rule} appended
 * by cp_edit_add(), which also counts it under its rule. cp_edit_apply() sorts the list
 * once and builds the output in one pass. Two edits may not overlap: the analysis must
 * produce one edit per region (a nested expression is rewritten inside its parent's
 * text, never by a second edit), so an overlap is an internal error, not something to
 * resolve here. Insertions at the same offset keep the order they were added in.
 */
#include "rewriter.h"

#include <stdlib.h>
#include <string.h>

void cp_edit_add(cp_arena *a, cp_edit_list *list, size_t offset, size_t length,
                 const char *text, cp_rule rule) {
  if (list->count == list->capacity) {
    size_t cap = list->capacity ? 2 * list->capacity : 64;
    cp_edit *items = cp_arena_alloc(a, cap * sizeof *items);
    if (list->count)
      memcpy(items, list->items, list->count * sizeof *items);
    list->items = items;
    list->capacity = cap;
  }
  list->items[list->count++] = (cp_edit){offset, length, text, rule};
  list->per_rule[rule]++;
}

int cp_edits_change(const cp_edit_list *list, size_t from, const char *text) {
  for (size_t i = from; i < list->count; i++) {
    const cp_edit *x = &list->items[i];
    if (strlen(x->text) != x->length || strncmp(text + x->offset, x->text, x->length) != 0)
      return 1;
  }
  return 0;
}

/* Orders by offset; at one offset, pure insertions come before a replacement, and
 * equal kinds keep insertion order (the list index breaks ties: qsort is not stable). */
typedef struct {
  const cp_edit *edit;
  size_t index;
} ordered_edit;

static int compare_edits(const void *pa, const void *pb) {
  const ordered_edit *a = pa, *b = pb;
  if (a->edit->offset != b->edit->offset)
    return a->edit->offset < b->edit->offset ? -1 : 1;
  if ((a->edit->length == 0) != (b->edit->length == 0))
    return a->edit->length == 0 ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

const cp_edit **cp_edit_sorted(cp_arena *a, const cp_edit_list *list) {
  ordered_edit *order = cp_arena_alloc(a, (list->count + 1) * sizeof *order);
  for (size_t i = 0; i < list->count; i++)
    order[i] = (ordered_edit){&list->items[i], i};
  qsort(order, list->count, sizeof *order, compare_edits);
  const cp_edit **sorted = cp_arena_alloc(a, (list->count + 1) * sizeof *sorted);
  for (size_t i = 0; i < list->count; i++)
    sorted[i] = order[i].edit;
  return sorted;
}

int cp_edit_apply(cp_arena *a, cp_edit_list *list, const char *input, size_t input_len,
                  char **output, size_t *output_len, const char **why) {
  ordered_edit *order = cp_arena_alloc(a, (list->count + 1) * sizeof *order);
  size_t out_len = input_len;
  for (size_t i = 0; i < list->count; i++) {
    const cp_edit *e = &list->items[i];
    if (e->offset > input_len || e->length > input_len - e->offset) {
      *why = cp_arena_printf(a, "edit (rule %s) at offset %zu reaches past the end",
                             cp_rule_name(e->rule), e->offset);
      return -1;
    }
    order[i] = (ordered_edit){e, i};
    out_len += strlen(e->text);
    out_len -= e->length;
  }
  qsort(order, list->count, sizeof *order, compare_edits);

  char *out = cp_arena_alloc(a, out_len + 1);
  size_t pos = 0, o = 0;
  for (size_t i = 0; i < list->count; i++) {
    const cp_edit *e = order[i].edit;
    if (e->offset < pos) {
      *why = cp_arena_printf(a, "edits overlap at offset %zu (rules %s and %s)", e->offset,
                             cp_rule_name(order[i - 1].edit->rule), cp_rule_name(e->rule));
      return -1;
    }
    memcpy(out + o, input + pos, e->offset - pos);
    o += e->offset - pos;
    size_t n = strlen(e->text);
    memcpy(out + o, e->text, n);
    o += n;
    pos = e->offset + e->length;
  }
  memcpy(out + o, input + pos, input_len - pos);
  o += input_len - pos;
  out[o] = '\0';
  *output = out;
  *output_len = o;
  return 0;
}

size_t cp_edit_origin(cp_arena *a, const cp_edit_list *list, size_t out) {
  const cp_edit **sorted = cp_edit_sorted(a, list);
  size_t in = 0, o = 0; /* corresponding offsets of input and output */
  for (size_t i = 0; i < list->count; i++) {
    const cp_edit *e = sorted[i];
    if (out < o + (e->offset - in))
      break; /* in the unchanged text before this edit */
    o += e->offset - in;
    size_t n = strlen(e->text);
    if (out < o + n)
      return e->offset; /* in the edit's text: where it was put */
    o += n;
    in = e->offset + e->length;
  }
  return in + (out - o);
}
