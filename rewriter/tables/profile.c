/*
 * profile.c: --profile's sites (docs/profile.md, "What --profile writes").
 *
 * A site is a place of the output that records, when it runs, what happens to error terms
 * there: a store into a paired buffer, a composite local's assignment, a composite turned
 * into a float, a launch, a companion zeroed after a copy in, a paired buffer handed to
 * code that does not convert. Its static fields (kind, file, line, function, name, and by
 * kind why, call, kernel, args, writes, reads) are JSON members, and its wrapper names the
 * output's table and the site's index in it: `cp_prof(cp_prof_md_3f2a91c0, 0, x)`.
 *
 * Which output a site's text lands in, and at which index, is known only when the run's
 * edits are applied: a function's conversion may be written into another file's output
 * (the host compilation's view of a file is converted in a run of its own, whose edits
 * join this run's, convert.c), and sites are numbered in the order the output holds them.
 * So the stages write a marker where the table's name and the index go, `\x01cp_prof:`
 * JSON `\x02` (JSON escapes every control byte, so the members never hold \x01 or \x02),
 * and cp_prof_resolve() turns the markers of one output's edits into `TABLE, N`, one
 * index per distinct JSON text (one site per variable and line, however many stores
 * there), and writes the table. Without --profile no marker is ever made.
 */
#include <string.h>

#include "internal.h"

#define MARK_OPEN "\x01" "cp_prof:"
#define MARK_CLOSE '\x02'

/* `s` as a JSON string, quoted: `"` and `\` escaped, control bytes as \u00XX. */
const char *cp_json_quote(cp_arena *a, const char *s) {
  size_t n = 3;
  for (const char *p = s; *p; p++)
    n += (unsigned char)*p < 0x20 ? 6 : *p == '"' || *p == '\\' ? 2 : 1;
  char *out = cp_arena_alloc(a, n), *o = out;
  *o++ = '"';
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p < 0x20) {
      static const char hex[] = "0123456789abcdef";
      memcpy(o, "\\u00", 4);
      o[4] = hex[*p >> 4];
      o[5] = hex[*p & 15];
      o += 6;
      continue;
    }
    if (*p == '"' || *p == '\\')
      *o++ = '\\';
    *o++ = (char)*p;
  }
  *o++ = '"';
  *o = '\0';
  return out;
}

const char *cp_prof_site(cp_run *run, const cp_unit *u, unsigned offset, const char *function,
                         const char *kind, const char *name, const char *extra) {
  cp_arena *a = run->r->arena;
  if (!run->settings->profile)
    return NULL;
  unsigned line, col;
  cp_position(run, u, offset, &line, &col);
  return cp_arena_printf(a, MARK_OPEN "\"kind\":\"%s\",\"file\":%s,\"line\":%u,\"function\":%s,"
                         "\"name\":%s%s%s%c", kind, cp_json_quote(a, u->opt.input), line,
                         cp_json_quote(a, function ? function : ""),
                         cp_json_quote(a, name ? name : ""), extra && *extra ? "," : "",
                         extra ? extra : "", MARK_CLOSE);
}

const char *cp_prof_value(cp_run *run, const cp_unit *u, unsigned offset, const char *function,
                          const char *kind, const char *name, const char *extra,
                          const char *expr) {
  const char *site = cp_prof_site(run, u, offset, function, kind, name, extra);
  return site ? cp_arena_printf(run->r->arena, "cp_prof(%s, %s)", site, expr) : expr;
}

/* The sites of one output: their JSON texts, in index order, with a hash index. */
typedef struct {
  cp_arena *a;
  const char **json;
  unsigned n, cap;
  unsigned *slots; /* index + 1 by hash, open addressing, at most half full */
  unsigned n_slots;
} sites;

static unsigned hash_of(const char *s, size_t n) {
  unsigned h = 2166136261u; /* FNV-1a, 32 bits */
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static void rehash(sites *s) {
  s->n_slots = s->n_slots ? 2 * s->n_slots : 64;
  s->slots = cp_arena_alloc(s->a, s->n_slots * sizeof *s->slots);
  memset(s->slots, 0, s->n_slots * sizeof *s->slots);
  for (unsigned i = 0; i < s->n; i++) {
    unsigned h = hash_of(s->json[i], strlen(s->json[i])) & (s->n_slots - 1);
    while (s->slots[h])
      h = (h + 1) & (s->n_slots - 1);
    s->slots[h] = i + 1;
  }
}

/* The index of the site whose JSON is json[0, len), added if new. */
static unsigned site_index(sites *s, const char *json, size_t len) {
  if (2 * (s->n + 1) > s->n_slots)
    rehash(s);
  unsigned h = hash_of(json, len) & (s->n_slots - 1);
  for (; s->slots[h]; h = (h + 1) & (s->n_slots - 1)) {
    const char *j = s->json[s->slots[h] - 1];
    if (strlen(j) == len && memcmp(j, json, len) == 0)
      return s->slots[h] - 1;
  }
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 32;
    s->json = cp_arena_grow(s->a, s->json, s->n, s->cap, sizeof *s->json);
  }
  s->json[s->n] = cp_arena_strndup(s->a, json, len);
  s->slots[h] = s->n + 1;
  return s->n++;
}

/* `text` with each marker replaced by `table, N`; *count: how many it held. */
static const char *resolve_text(sites *s, const char *table, const char *text, unsigned *count) {
  size_t open = strlen(MARK_OPEN);
  const char *out = "", *p = text, *m;
  while ((m = strstr(p, MARK_OPEN))) {
    const char *json = m + open, *end = strchr(json, MARK_CLOSE);
    if (!end)
      break;
    unsigned k = site_index(s, json, (size_t)(end - json));
    out = cp_arena_printf(s->a, "%s%.*s%s, %u", out, (int)(m - p), p, table, k);
    p = end + 1;
    ++*count;
  }
  return p == text ? text : cp_arena_printf(s->a, "%s%s", out, p);
}

/* cp_prof_ + the file's stem (its name without directories and extension, each byte that
 * is not a letter, digit or '_' written '_') + _ + the FNV-1a hash of its path. */
static const char *table_name(cp_arena *a, const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  char *stem = cp_arena_strndup(a, base, n);
  for (char *q = stem; *q; q++)
    if (!cp_ident_char(*q))
      *q = '_';
  return cp_arena_printf(a, "cp_prof_%s_%08x", stem, hash_of(path, strlen(path)));
}

/* `s` (JSON text) as the body of a C string literal. */
static const char *c_string(cp_arena *a, const char *s) {
  size_t n = 1;
  for (const char *p = s; *p; p++)
    n += *p == '"' || *p == '\\' ? 2 : 1;
  char *out = cp_arena_alloc(a, n), *o = out;
  for (const char *p = s; *p; p++) {
    if (*p == '"' || *p == '\\')
      *o++ = '\\';
    *o++ = *p;
  }
  *o = '\0';
  return out;
}

const char *cp_prof_resolve(cp_run *run, cp_unit *u, const char *nl) {
  cp_arena *a = run->r->arena;
  if (!run->settings->profile)
    return NULL;
  sites s = {.a = a};
  const char *table = table_name(a, u->opt.input);
  const cp_edit **order = cp_edit_sorted(a, &u->edits);
  unsigned count = 0;
  for (size_t i = 0; i < u->edits.count; i++) {
    cp_edit *e = (cp_edit *)order[i]; /* an element of u->edits.items */
    if (e->text && strchr(e->text, '\x01'))
      e->text = resolve_text(&s, table, e->text, &count);
  }
  run->r->applied[CP_RULE_PROFILE] += count;
  if (!s.n)
    return NULL;
  const char *t = cp_arena_printf(a, "CP_PROFILE_TABLE(%s", table);
  for (unsigned i = 0; i < s.n; i++)
    t = cp_arena_printf(a, "%s,%s  \"%s\"", t, nl, c_string(a, s.json[i]));
  t = cp_arena_printf(a, "%s)%s", t, nl);
  if (u->is_header) /* outside the header's own include guard: one table per unit */
    t = cp_arena_printf(a, "#ifndef %s_defined%s#define %s_defined%s%s#endif%s", table, nl,
                        table, nl, t, nl);
  return t;
}

int cp_prof_is_table(const cp_edit *e) {
  return e->rule == CP_RULE_PROFILE && e->length == 0 && e->text &&
         strstr(e->text, "CP_PROFILE_TABLE(") != NULL;
}
