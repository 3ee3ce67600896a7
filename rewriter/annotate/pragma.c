/*
 * pragma.c: `#pragma cp composite [clauses]` lines, read from the main file's tokens.
 *
 * libclang keeps no pragma in the AST, so pragmas are read from the main file's tokens,
 * comments left out: a `#` that starts a line (after blanks, or a UTF-8 byte order mark
 * on the first), then `pragma`, then `cp`, up to the end of the logical line (LF, CRLF or
 * a lone CR; backslash-newline continues it). `_Pragma("cp ...")` and near-miss spellings
 * (`#pragma CP composite`, `#pragma cpp composite`), which would otherwise leave a function
 * float without a word, get a warning.
 *
 * Clauses: pair(p, ...) nopair(p, ...) keep(v, ...) scope(all|accumulators)
 *          accumulate(composite|fixed|fixed(N)|kahan|double) accuracy(low|mid|high)
 * A pragma without scope(), accumulate() or accuracy() takes the run's defaults (--scope,
 * --accumulate, --accuracy); a clause written in the pragma wins.
 * Whether the names exist is checked in variables.c, which knows the function's variables.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "annotate.h"

/* Offset of the end of the logical line that starts at `offset`: its '\n' (CRLF, LF) or
 * its lone '\r' (old Mac files: clang ends lines there too), unless a backslash before
 * it continues the line (also with spaces or tabs between them, as clang reads it, with
 * a warning). */
unsigned cp_logical_line_end(const cp_options *opt, unsigned offset) {
  const char *s = opt->input_text;
  for (unsigned i = offset; i < opt->input_len; i++) {
    if (s[i] != '\n' && s[i] != '\r')
      continue;
    if (s[i] == '\r' && i + 1 < opt->input_len && s[i + 1] == '\n')
      continue; /* CRLF: the line ends at its '\n' */
    unsigned j = s[i] == '\n' && i > 0 && s[i - 1] == '\r' ? i - 1 : i;
    while (j > offset && (s[j - 1] == ' ' || s[j - 1] == '\t'))
      j--;
    if (j == 0 || s[j - 1] != '\\')
      return i;
  }
  return (unsigned)opt->input_len;
}

static const token *peek(pragma_lexer *lx) {
  return lx->i < lx->n && lx->t[lx->i].offset < lx->end_offset ? &lx->t[lx->i] : NULL;
}

static int accept(pragma_lexer *lx, const char *s) {
  const token *t = peek(lx);
  if (t && strcmp(t->s, s) == 0) {
    lx->i++;
    return 1;
  }
  return 0;
}

static int is_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return 0;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
          (*s >= '0' && *s <= '9')))
      return 0;
  return 1;
}

static unsigned pow2(unsigned c) {
  unsigned p = 1;
  while (p < c)
    p *= 2;
  return p;
}

/* pair(a) pair(b) is the same as pair(a, b). A list of c names has room for pow2(c) (the
 * least power of two >= c; parse_names' list has at least that), so that repeated clauses
 * append in place and grow geometrically: memory linear in the pragma. */
static void append_names(cp_run *run, cp_clause_name **out, unsigned *count,
                         cp_clause_name *names, unsigned n) {
  if (*count == 0) {
    *out = names;
  } else {
    if (*count + n > pow2(*count)) {
      cp_clause_name *all = cp_arena_alloc(run->r->arena, pow2(*count + n) * sizeof *all);
      memcpy(all, *out, *count * sizeof *all);
      *out = all;
    }
    memcpy(*out + *count, names, n * sizeof *names);
  }
  *count += n;
}

/* `( name, name, ... )` into a list; returns 0 or -1 after a diagnostic. */
static int parse_names(cp_run *run, pragma_lexer *lx, const char *clause, cp_clause_name **out,
                       unsigned *count) {
  unsigned at = lx->i > 0 ? lx->t[lx->i - 1].offset : 0;
  if (!accept(lx, "(")) {
    cp_diag_at(run, lx->u, CP_ERROR, at, "expected '(' after '%s' [%s]", clause,
               cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  unsigned cap = 8;
  cp_clause_name *names = cp_arena_alloc(run->r->arena, cap * sizeof *names);
  unsigned n = 0;
  for (;;) {
    const token *t = peek(lx);
    if (!t || !is_identifier(t->s)) {
      cp_diag_at(run, lx->u, CP_ERROR, t ? t->offset : at, "expected a name in '%s(...)' [%s]",
                 clause, cp_rule_name(CP_RULE_PRAGMA));
      return -1;
    }
    if (n == cap) {
      cp_clause_name *bigger = cp_arena_alloc(run->r->arena, 2 * cap * sizeof *bigger);
      memcpy(bigger, names, n * sizeof *names);
      names = bigger;
      cap *= 2;
    }
    const char *name = t->s;
    unsigned name_at = t->offset;
    lx->i++;
    for (const token *sep; (sep = peek(lx)) && (strcmp(sep->s, ".") == 0 ||
                                                strcmp(sep->s, "->") == 0);) {
      lx->i++; /* a field path: pair(s.x), pair(sim->atoms.r.x) */
      const token *f = peek(lx);
      if (!f || !is_identifier(f->s)) {
        cp_diag_at(run, lx->u, CP_ERROR, f ? f->offset : sep->offset,
                   "expected a field name after '%s' in '%s(...)' [%s]", sep->s, clause,
                   cp_rule_name(CP_RULE_PRAGMA));
        return -1;
      }
      name = cp_arena_printf(run->r->arena, "%s%s%s", name, sep->s, f->s);
      lx->i++;
    }
    names[n++] = (cp_clause_name){name, name_at};
    if (accept(lx, ")"))
      break;
    if (!accept(lx, ",")) {
      t = peek(lx);
      cp_diag_at(run, lx->u, CP_ERROR, t ? t->offset : at,
                 "expected ',' or ')' in '%s(...)' [%s]", clause, cp_rule_name(CP_RULE_PRAGMA));
      return -1;
    }
  }
  append_names(run, out, count, names, n);
  return 0;
}

/* `(N)` after accumulate(fixed: N fractional bits, 0 to 62 (a 64-bit integer holds the
 * sum, |sum| < 2^(63-N); cp/accum.cuh), read into *bits; returns 0 or -1 after a diagnostic. */
static int parse_fixed_bits(cp_run *run, pragma_lexer *lx, int *bits) {
  unsigned at = lx->t[lx->i - 1].offset; /* the '(' */
  const token *t = peek(lx);
  int ok = t && t->s[0] >= '0' && t->s[0] <= '9' && strlen(t->s) <= 9;
  for (const char *d = t ? t->s : ""; ok && *d; d++)
    ok = *d >= '0' && *d <= '9';
  if (!ok) {
    cp_diag_at(run, lx->u, CP_ERROR, t ? t->offset : at,
               "expected the number of fractional bits, 0 to 62, in 'accumulate(fixed(...))'%s%s%s "
               "[%s]", t ? ", not '" : "", t ? t->s : "", t ? "'" : "", cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  long n = strtol(t->s, NULL, 10);
  if (n > 62) {
    cp_diag_at(run, lx->u, CP_ERROR, t->offset,
               "'fixed(%s)' has too many fractional bits: 0 to 62 (the sum is a 64-bit integer "
               "count of 2^-bits, so it must stay below 2^(63-bits) in magnitude) [%s]",
               t->s, cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  lx->i++;
  if (!accept(lx, ")")) {
    cp_diag_at(run, lx->u, CP_ERROR, t->offset, "expected ')' after 'fixed(%s' [%s]", t->s,
               cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  *bits = (int)n;
  return 0;
}

/* `(word)` where word is one of `choices` (NULL-terminated); returns its index or -1. Where
 * `bits` is given, the word `fixed` may take its fractional bits, `fixed(N)`. */
static int parse_choice(cp_run *run, pragma_lexer *lx, const char *clause,
                        const char *const *choices, const char *expected, int *bits) {
  unsigned at = lx->t[lx->i - 1].offset;
  const token *t;
  if (!accept(lx, "(") || !(t = peek(lx))) {
    cp_diag_at(run, lx->u, CP_ERROR, at, "expected '(' after '%s' [%s]", clause,
               cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  for (int k = 0; choices[k]; k++) {
    if (strcmp(t->s, choices[k]) == 0) {
      lx->i++;
      if (bits && strcmp(choices[k], "fixed") == 0 && accept(lx, "(") &&
          parse_fixed_bits(run, lx, bits) != 0)
        return -1;
      if (!accept(lx, ")")) {
        cp_diag_at(run, lx->u, CP_ERROR, t->offset, "expected ')' after '%s(%s' [%s]", clause, t->s,
                   cp_rule_name(CP_RULE_PRAGMA));
        return -1;
      }
      return k;
    }
  }
  const char *near = cp_closest_name(t->s, choices);
  cp_diag_at(run, lx->u, CP_ERROR, t->offset, "'%s' takes %s, not '%s'%s%s%s [%s]", clause,
             expected, t->s, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "",
             cp_rule_name(CP_RULE_PRAGMA));
  return -1;
}

static const char *const scope_names[] = {"all", "accumulators", NULL};
static const char *const accum_names[] = {"composite", "fixed", "kahan", "double", NULL};
static const char *const tier_names[] = {"low", "mid", "high", NULL};
static const cp_algo tier_algos[] = {CP_ALGO_FAST, CP_ALGO_MID, CP_ALGO_ACCURATE};

/* A word that is no clause: an error, with the nearest clause name where one is close. */
static void unknown_clause(cp_run *run, pragma_lexer *lx, const char *c, unsigned at) {
  static const char *const clauses[] = {"pair", "nopair", "keep", "scope", "accumulate", "accuracy", NULL};
  const char *near = cp_closest_name(c, clauses);
  if (near)
    cp_diag_at(run, lx->u, CP_ERROR, at,
               "unknown clause '%s' in '#pragma cp composite'; did you mean '%s'? [%s]", c, near,
               cp_rule_name(CP_RULE_PRAGMA));
  else
    cp_diag_at(run, lx->u, CP_ERROR, at,
               "unknown clause '%s' in '#pragma cp composite' (expected pair, nopair, keep, scope, "
               "accumulate or accuracy) [%s]",
               c, cp_rule_name(CP_RULE_PRAGMA));
}

/* accuracy(low|mid|high), its name just read at `at`: once per pragma. */
static int parse_accuracy(cp_run *run, pragma_lexer *lx, cp_pragma *pr, unsigned at) {
  if (pr->tier) {
    cp_diag_at(run, lx->u, CP_ERROR, at, "'accuracy' is given twice [%s]", cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  int k = parse_choice(run, lx, "accuracy", tier_names, "low, mid or high", NULL);
  if (k < 0)
    return -1;
  pr->tier = tier_algos[k];
  pr->tier_offset = at;
  return 0;
}

/* Parses one pragma starting at lx->i (the `#`); returns 0 or -1 after a diagnostic. */
/* pair(x) with nopair(x): one would silently win, so it is an error (-1). */
static int pair_and_nopair(cp_run *run, pragma_lexer *lx, const cp_pragma *pr) {
  for (unsigned i = 0; i < pr->n_nopair; i++)
    for (unsigned j = 0; j < pr->n_pair; j++)
      if (strcmp(pr->nopair[i].name, pr->pair[j].name) == 0) {
        const cp_clause_name *later =
            pr->nopair[i].offset > pr->pair[j].offset ? &pr->nopair[i] : &pr->pair[j];
        cp_diag_at(run, lx->u, CP_ERROR, later->offset,
                   "'%s' is named in both pair() and nopair(); keep one [%s]", later->name,
                   cp_rule_name(CP_RULE_PRAGMA));
        return -1;
      }
  return 0;
}

int cp_parse_pragma(cp_run *run, pragma_lexer *lx, cp_pragma *pr) {
  memset(pr, 0, sizeof *pr);
  pr->offset = lx->t[lx->i].offset;
  pr->end = lx->end_offset;
  pr->scope = lx->u->opt.scope;
  pr->accum = lx->u->opt.accumulate;
  pr->fixed_bits = -1;
  lx->i += 3; /* # pragma cp */
  const token *t = peek(lx);
  if (!t || strcmp(t->s, "composite") != 0) {
    cp_diag_at(run, lx->u, CP_ERROR, t ? t->offset : pr->offset,
               "unknown cp directive%s%s%s (expected '#pragma cp composite') [%s]", t ? " '" : "",
               t ? t->s : "", t ? "'" : "", cp_rule_name(CP_RULE_PRAGMA));
    return -1;
  }
  lx->i++;
  int seen_scope = 0, seen_accum = 0, k;
  while ((t = peek(lx))) {
    const char *c = t->s;
    unsigned at = t->offset;
    lx->i++;
    if (strcmp(c, ",") == 0)
      continue;
    if (strcmp(c, "pair") == 0 || strcmp(c, "nopair") == 0 || strcmp(c, "keep") == 0) {
      cp_clause_name **list = c[0] == 'p' ? &pr->pair : c[0] == 'n' ? &pr->nopair : &pr->keep;
      unsigned *count = c[0] == 'p' ? &pr->n_pair : c[0] == 'n' ? &pr->n_nopair : &pr->n_keep;
      if (parse_names(run, lx, c, list, count) != 0)
        return -1;
    } else if (strcmp(c, "scope") == 0 || strcmp(c, "accumulate") == 0) {
      int is_scope = c[0] == 's';
      if (is_scope ? seen_scope++ : seen_accum++) {
        cp_diag_at(run, lx->u, CP_ERROR, at, "'%s' is given twice [%s]", c,
                   cp_rule_name(CP_RULE_PRAGMA));
        return -1;
      }
      k = parse_choice(run, lx, c, is_scope ? scope_names : accum_names,
                       is_scope ? "all or accumulators" : "composite, fixed, kahan or double",
                       is_scope ? NULL : &pr->fixed_bits);
      if (k < 0)
        return -1;
      if (is_scope)
        pr->scope = (cp_scope)k;
      else
        pr->accum = (cp_accum)k, pr->accum_given = 1;
    } else if (strcmp(c, "accuracy") == 0) {
      if (parse_accuracy(run, lx, pr, at) != 0)
        return -1;
    } else {
      unknown_clause(run, lx, c, at);
      return -1;
    }
  }
  return pair_and_nopair(run, lx, pr);
}

int cp_in_skipped_range(const CXSourceRangeList *skipped, unsigned offset) {
  for (unsigned i = 0; skipped && i < skipped->count; i++) {
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[i]), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(skipped->ranges[i]), NULL, NULL, NULL, &e);
    if (offset >= b && offset < e)
      return 1;
  }
  return 0;
}

/* Unit u's tokens as (spelling, offset) pairs. */
token *cp_tokenize_main(cp_run *run, const cp_unit *u, unsigned *count) {
  const cp_parse *p = &u->p;
  CXSourceLocation b = clang_getLocationForOffset(p->tu, p->main_file, 0);
  CXSourceLocation e = clang_getLocationForOffset(p->tu, p->main_file, (unsigned)u->opt.input_len);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(p->tu, clang_getRange(b, e), &toks, &n);
  token *out = cp_arena_alloc(run->r->arena, (n + 1) * sizeof *out);
  unsigned k = 0;
  for (unsigned i = 0; i < n; i++) {
    if (clang_getTokenKind(toks[i]) == CXToken_Comment)
      continue; /* `#pragma cp composite // why`: a comment is no clause */
    CXString s = clang_getTokenSpelling(p->tu, toks[i]);
    out[k].s = cp_arena_strdup(run->r->arena, clang_getCString(s));
    clang_disposeString(s);
    clang_getSpellingLocation(clang_getTokenLocation(p->tu, toks[i]), NULL, NULL, NULL,
                              &out[k++].offset);
  }
  clang_disposeTokens(p->tu, toks, n);
  *count = k;
  return out;
}

/* Whether only blanks stand before `offset` on its line. A UTF-8 byte order mark before
 * the first line is no text (clang skips it too). */
int cp_starts_line(const cp_options *opt, unsigned offset) {
  const char *t = opt->input_text;
  while (offset > 0 && (t[offset - 1] == ' ' || t[offset - 1] == '\t'))
    offset--;
  return offset == 0 || t[offset - 1] == '\n' || t[offset - 1] == '\r' ||
         (offset == 3 && memcmp(t, "\xEF\xBB\xBF", 3) == 0);
}

/* Whether the line [b, e) of `text` is a `#pragma cp` directive. */
static int is_cp_pragma_line(const char *text, size_t b, size_t e) {
  static const char *const words[] = {"#", "pragma", "cp"};
  size_t k = b;
  for (size_t w = 0; w < 3; w++) {
    while (k < e && (text[k] == ' ' || text[k] == '\t'))
      k++;
    size_t n = strlen(words[w]);
    if (e - k < n || strncmp(text + k, words[w], n) != 0)
      return 0;
    k += n;
    if (w > 0 && k < e && text[k] != ' ' && text[k] != '\t' && text[k] != '\r')
      return 0; /* `#pragma cpx` or `#pragmas` */
  }
  return 1;
}

/* Whether a header's text holds a `#pragma cp` line; its line and column if so. Lines end
 * at LF, CRLF or a lone CR; a UTF-8 byte order mark before the first is no text. */
int cp_find_cp_pragma(const char *text, size_t len, unsigned *line, size_t *b_out,
                      size_t *e_out) {
  *line = 1;
  size_t b = text && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  for (; text && b < len; ++*line) {
    size_t e = b;
    while (e < len && text[e] != '\n' && text[e] != '\r')
      e++;
    if (is_cp_pragma_line(text, b, e)) {
      *b_out = b;
      *e_out = e;
      return 1;
    }
    b = e + (e + 1 < len && text[e] == '\r' && text[e + 1] == '\n' ? 2 : 1);
  }
  return 0;
}

/* ---- annotations cpconvert does not read ------------------------------------------ */

/* Whether `s` holds `word`, in any case. */
static int holds_word(const char *s, const char *word) {
  size_t n = strlen(word);
  for (; *s; s++)
    if (strncasecmp(s, word, n) == 0)
      return 1;
  return 0;
}

/* `#pragma W1 W2 ...` where W1 is not `cp`: a misspelt annotation (`CP`, `cpp`,
 * `cp_composite`, `xx composite`) would leave its function float without a word, so it
 * gets a warning. t[i] is W1; `end` the end of the pragma's line. */
void cp_warn_near_miss(cp_run *run, const cp_unit *u, const token *t, unsigned nt, unsigned i,
                       unsigned end) {
  const char *w = t[i].s, *next = i + 1 < nt && t[i + 1].offset < end ? t[i + 1].s : "";
  if (strcasecmp(w, "cp") != 0 && strcasecmp(w, "cpp") != 0 && strncasecmp(w, "cp_", 3) != 0 &&
      !holds_word(w, "composite") && strcasecmp(next, "composite") != 0)
    return;
  cp_diag_at(run, u, CP_WARNING, t[i].offset,
             "'#pragma %s%s%s' is not a cpconvert annotation, so the function after it is not "
             "converted; did you mean '#pragma cp composite'? [%s]", w, *next ? " " : "", next,
                 cp_rule_name(CP_RULE_PRAGMA));
}

/* `_Pragma("cp composite")`: the operator form reaches clang, not cpconvert, which reads
 * `#pragma cp` lines; a warning rather than a function silently left float. */
void cp_warn_operator_pragma(cp_run *run, const cp_unit *u, const token *t, unsigned nt,
                             unsigned i) {
  if (i + 2 >= nt || strcmp(t[i + 1].s, "(") != 0 || t[i + 2].s[0] != '"')
    return;
  const char *s = t[i + 2].s + 1 + strspn(t[i + 2].s + 1, " \t");
  if (strncmp(s, "cp", 2) != 0 || (s[2] != ' ' && s[2] != '\t' && s[2] != '"'))
    return;
  cp_diag_at(run, u, CP_WARNING, t[i].offset,
             "cpconvert reads '#pragma cp' lines, not _Pragma(%s), so the function it marks is "
             "not converted; write '#pragma cp composite' on the line before the function [%s]",
             t[i + 2].s, cp_rule_name(CP_RULE_PRAGMA));
}
