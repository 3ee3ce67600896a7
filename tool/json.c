/*
 * json.c: a strict reader of RFC 8259 JSON, for the files the tool reads that other
 * programs write: compile_commands.json (compdb.c, which walks the text with the cursor
 * functions as it goes) and the runtime's cp_profile.json (explain.c, which reads the
 * whole document as a tree, cp_json_parse).
 *
 * A recursive descent, nesting at most CP_JSON_DEPTH deep. Nothing beyond the RFC is
 * accepted: no comments, no trailing commas, no NaN or Infinity, no leading zeros or
 * '+', no control characters or U+0000 in strings (no C string could hold the last).
 * Every failure keeps the first thing expected and where (cp_json.error, .at), which the
 * caller turns into a line and a column (cp_json_where).
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

void cp_json_init(cp_json *j, const char *text, size_t len) {
  *j = (cp_json){text, text + len, text, NULL, NULL};
}

int cp_json_fail(cp_json *j, const char *what) {
  if (!j->error)
    j->error = what, j->at = j->s;
  return 0;
}

void cp_json_space(cp_json *j) {
  while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r'))
    j->s++;
}

int cp_json_take(cp_json *j, char c) {
  cp_json_space(j);
  if (j->s < j->end && *j->s == c) {
    j->s++;
    return 1;
  }
  return 0;
}

void cp_json_where(const cp_json *j, const char *at, unsigned *line, unsigned *col) {
  *line = 1, *col = 1;
  for (const char *p = j->start; p < at && p < j->end; p++)
    *line += *p == '\n', *col = *p == '\n' ? 1 : *col + 1;
}

static int hex4(const char *p, const char *end, unsigned *v) {
  *v = 0;
  for (int k = 0; k < 4; k++, p++) {
    if (p >= end)
      return 0;
    int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
            : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
    if (d < 0)
      return 0;
    *v = *v * 16 + (unsigned)d;
  }
  return 1;
}

/* Code point u as UTF-8 at o; returns the byte after it. */
static char *put_utf8(char *o, unsigned u) {
  if (u < 0x80) {
    *o++ = (char)u;
  } else if (u < 0x800) {
    *o++ = (char)(0xC0 | u >> 6);
    *o++ = (char)(0x80 | (u & 0x3F));
  } else if (u < 0x10000) {
    *o++ = (char)(0xE0 | u >> 12);
    *o++ = (char)(0x80 | (u >> 6 & 0x3F));
    *o++ = (char)(0x80 | (u & 0x3F));
  } else {
    *o++ = (char)(0xF0 | u >> 18);
    *o++ = (char)(0x80 | (u >> 12 & 0x3F));
    *o++ = (char)(0x80 | (u >> 6 & 0x3F));
    *o++ = (char)(0x80 | (u & 0x3F));
  }
  return o;
}

/* One escape at p (p[0] == '\\', before `close`) decoded at *o; returns the length read,
 * 0 when it is none. \uXXXX pairs of surrogates join; a lone one is U+FFFD. */
static int escape(const char *p, const char *close, char **o) {
  const char *esc = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *k = p[1] ? strchr(esc, p[1]) : NULL;
  if (k) {
    *(*o)++ = to[k - esc];
    return 2;
  }
  unsigned u, lo;
  if (p[1] != 'u' || !hex4(p + 2, close, &u) || u == 0)
    return 0;
  int n = 6;
  if (u >= 0xD800 && u < 0xDC00 && p[6] == '\\' && p[7] == 'u' && hex4(p + 8, close, &lo) &&
      lo >= 0xDC00 && lo < 0xE000) {
    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
    n = 12;
  } else if (u >= 0xD800 && u < 0xE000) {
    u = 0xFFFD;
  }
  *o = put_utf8(*o, u);
  return n;
}

char *cp_json_string(cp_json *j) {
  cp_json_space(j);
  if (j->s >= j->end || *j->s != '"')
    return cp_json_fail(j, "a string"), NULL;
  const char *p = ++j->s, *close = p;
  while (close < j->end && *close != '"')
    close += *close == '\\' ? 2 : 1;
  if (close >= j->end)
    return cp_json_fail(j, "the end of the string"), NULL;
  char *out = malloc((size_t)(close - p) + 1), *o = out;
  while (p < close) {
    unsigned char c = (unsigned char)*p;
    int n = 1;
    if (c < 0x20) {
      j->s = p;
      free(out);
      return cp_json_fail(j, "no control character in a string"), NULL;
    }
    if (c != '\\')
      *o++ = *p;
    else if (!(n = escape(p, close, &o))) {
      j->s = p;
      free(out);
      return cp_json_fail(j, "an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX (not "
                             "\\u0000)"), NULL;
    }
    p += n;
  }
  *o = '\0';
  j->s = close + 1;
  return out;
}

static int is_digit(const char *p, const char *end) { return p < end && *p >= '0' && *p <= '9'; }

/* A number as RFC 8259 spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, within
 * the range of a double. */
static int number(cp_json *j, double *v) {
  const char *p = j->s, *e = j->end;
  p += p < e && *p == '-';
  if (!is_digit(p, e))
    return cp_json_fail(j, "a value");
  if (*p == '0' && is_digit(p + 1, e))
    return j->s = p + 1, cp_json_fail(j, "no leading zero in a number");
  while (is_digit(p, e))
    p++;
  if (p < e && *p == '.') {
    if (!is_digit(++p, e))
      return j->s = p, cp_json_fail(j, "a digit after '.'");
    while (is_digit(p, e))
      p++;
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    p++;
    p += p < e && (*p == '+' || *p == '-');
    if (!is_digit(p, e))
      return j->s = p, cp_json_fail(j, "a digit in the exponent");
    while (is_digit(p, e))
      p++;
  }
  char buf[64];
  size_t n = (size_t)(p - j->s);
  if (n >= sizeof buf) /* 63 digits are more than a double holds; the rest is zeros or noise */
    return cp_json_fail(j, "a number of at most 63 characters");
  memcpy(buf, j->s, n);
  buf[n] = '\0';
  *v = strtod(buf, NULL);
  if (*v > 1.79769313486231570815e308 || *v < -1.79769313486231570815e308)
    return cp_json_fail(j, "a number within the range of a double");
  j->s = p;
  return 1;
}

static int word(cp_json *j, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(j->end - j->s) < n || strncmp(j->s, w, n) != 0)
    return 0;
  j->s += n;
  return 1;
}

int cp_json_skip(cp_json *j, int depth) {
  cp_json_value *v = cp_json_value_at(j, depth);
  cp_json_free(v);
  return v != NULL;
}

static void add_item(cp_json_value *v, cp_json_value *item, char *key) {
  if ((v->n & (v->n - 1)) == 0) { /* 0, 1, 2, 4, ...: full */
    size_t cap = v->n ? 2 * v->n : 1;
    v->items = realloc(v->items, cap * sizeof *v->items);
    if (v->type == CP_JSON_OBJECT)
      v->keys = realloc(v->keys, cap * sizeof *v->keys);
  }
  if (v->type == CP_JSON_OBJECT)
    v->keys[v->n] = key;
  v->items[v->n++] = *item;
  free(item);
}

/* The members or elements of an array or object at j->s ('[' or '{'), into v. */
static int container(cp_json *j, cp_json_value *v, int depth) {
  char close = *j->s == '[' ? ']' : '}';
  j->s++;
  if (cp_json_take(j, close))
    return 1;
  do {
    char *key = NULL;
    if (v->type == CP_JSON_OBJECT) {
      cp_json_space(j);
      const char *at = j->s;
      if (j->s < j->end && *j->s != '"')
        return cp_json_fail(j, "a member name (a string)");
      if (!(key = cp_json_string(j)))
        return 0;
      if (cp_json_member(v, key)) {
        free(key);
        j->s = at;
        return cp_json_fail(j, "a member name not used before in this object");
      }
      if (!cp_json_take(j, ':')) {
        free(key);
        return cp_json_fail(j, "':'");
      }
    }
    cp_json_value *item = cp_json_value_at(j, depth + 1);
    if (!item) {
      free(key);
      return 0;
    }
    add_item(v, item, key);
  } while (cp_json_take(j, ','));
  return cp_json_take(j, close) || cp_json_fail(j, close == ']' ? "',' or ']'" : "',' or '}'");
}

cp_json_value *cp_json_value_at(cp_json *j, int depth) {
  cp_json_space(j);
  if (depth > CP_JSON_DEPTH)
    return cp_json_fail(j, "less deeply nested values"), NULL;
  if (j->s >= j->end)
    return cp_json_fail(j, "a value"), NULL;
  cp_json_value *v = calloc(1, sizeof *v);
  v->offset = (size_t)(j->s - j->start);
  int ok = 1;
  if (*j->s == '"') {
    v->type = CP_JSON_STRING;
    ok = (v->string = cp_json_string(j)) != NULL;
  } else if (*j->s == '[' || *j->s == '{') {
    v->type = *j->s == '[' ? CP_JSON_ARRAY : CP_JSON_OBJECT;
    ok = container(j, v, depth);
  } else if (word(j, "true") || word(j, "false")) {
    v->type = CP_JSON_BOOL;
    v->boolean = j->s[-1] == 'e' && j->s[-2] == 'u';
  } else if (word(j, "null")) {
    v->type = CP_JSON_NULL;
  } else {
    v->type = CP_JSON_NUMBER;
    ok = number(j, &v->number);
  }
  if (!ok) {
    cp_json_free(v);
    return NULL;
  }
  return v;
}

cp_json_value *cp_json_parse(cp_json *j) {
  cp_json_value *v = cp_json_value_at(j, 0);
  cp_json_space(j);
  if (v && j->s != j->end) {
    cp_json_fail(j, "nothing after the value");
    cp_json_free(v);
    return NULL;
  }
  return v;
}

static void free_contents(cp_json_value *v) {
  for (size_t i = 0; i < v->n; i++) {
    free_contents(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
}

void cp_json_free(cp_json_value *v) {
  if (!v)
    return;
  free_contents(v);
  free(v);
}

const cp_json_value *cp_json_member(const cp_json_value *obj, const char *key) {
  for (size_t i = 0; obj && obj->type == CP_JSON_OBJECT && i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0)
      return &obj->items[i];
  return NULL;
}
