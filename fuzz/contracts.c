/*
 * contracts.c: what fuzz_cli.c checks the tool's output against, written apart from the
 * tool's own code so that a shared mistake cannot hide itself:
 *  - fuzz_json_check: a strict RFC 8259 validator (one value, nothing but white space
 *    around it; strings of well-formed UTF-8 (RFC 3629: no overlong form, no surrogate,
 *    nothing past U+10FFFF) with no raw control byte; escapes as the RFC lists them, a
 *    \u surrogate only as a high-low pair; numbers in the RFC's grammar).
 *  - fuzz_writes_file: whether clang, given a list of flags as libclang is (its driver,
 *    then cc1), would write a file: a dependency file, a trace, saved temporaries, a
 *    diagnostics or statistics file, a module cache or dependency directory, an output.
 *    From clang's option table (and `-fmodules`, seen writing the modules it builds into
 *    the user's cache): the value a flag takes apart (`-D X`, `-MF X`) is no
 *    flag; `-Xclang X` and `-Xpreprocessor X` hand X to cc1; `-Wp,A,B` hands A and B to
 *    the preprocessor (the driver turns `-Wp,-MD,F` into `-MD -MF F`); `-Xarch_host X`
 *    reads X as a driver flag.
 */
#include <stddef.h>
#include <string.h>

typedef struct {
  const unsigned char *p, *end;
  const char *why;
} reader;

static int fail(reader *r, const char *why) {
  if (!r->why)
    r->why = why;
  return 0;
}

static void blank(reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

static int hex4(reader *r, unsigned *u) {
  *u = 0;
  for (int i = 0; i < 4; i++, r->p++) {
    if (r->p >= r->end)
      return fail(r, "a \\u escape cut short");
    unsigned c = *r->p;
    unsigned d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
               : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 16;
    if (d == 16)
      return fail(r, "a \\u escape with a non-hex digit");
    *u = *u * 16 + d;
  }
  return 1;
}

/* One UTF-8 character of 2-4 bytes at r->p (RFC 3629, table 3-7 of Unicode). */
static int utf8_char(reader *r) {
  const unsigned char *p = r->p;
  size_t left = (size_t)(r->end - p);
  unsigned c = p[0], lo = 0x80, hi = 0xBF;
  int n;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  else
    return fail(r, "a byte that starts no UTF-8 character");
  if (left < (size_t)n)
    return fail(r, "a UTF-8 character cut short");
  if (p[1] < lo || p[1] > hi)
    return fail(r, "an ill-formed UTF-8 character");
  for (int i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xBF)
      return fail(r, "an ill-formed UTF-8 character");
  r->p += n;
  return 1;
}

static int string(reader *r) {
  r->p++; /* the opening quote */
  for (;;) {
    if (r->p >= r->end)
      return fail(r, "a string not closed");
    unsigned c = *r->p;
    if (c == '"') {
      r->p++;
      return 1;
    }
    if (c < 0x20)
      return fail(r, "a raw control byte in a string");
    if (c >= 0x80) {
      if (!utf8_char(r))
        return 0;
      continue;
    }
    r->p++;
    if (c != '\\')
      continue;
    if (r->p >= r->end)
      return fail(r, "an escape cut short");
    c = *r->p++;
    if (c == 'u') {
      unsigned u, v;
      if (!hex4(r, &u))
        return 0;
      if (u >= 0xDC00 && u <= 0xDFFF)
        return fail(r, "a lone low surrogate escape");
      if (u >= 0xD800 && u <= 0xDBFF) {
        if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
          return fail(r, "a lone high surrogate escape");
        r->p += 2;
        if (!hex4(r, &v))
          return 0;
        if (v < 0xDC00 || v > 0xDFFF)
          return fail(r, "a high surrogate escape without its low one");
      }
    } else if (!strchr("\"\\/bfnrt", (int)c) || c == 0) {
      return fail(r, "an escape RFC 8259 does not have");
    }
  }
}

static int digits(reader *r) {
  const unsigned char *start = r->p;
  while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
    r->p++;
  return r->p > start;
}

static int number(reader *r) {
  if (*r->p == '-')
    r->p++;
  if (r->p < r->end && *r->p == '0')
    r->p++;
  else if (!(r->p < r->end && *r->p >= '1' && *r->p <= '9' && digits(r)))
    return fail(r, "a malformed number");
  if (r->p < r->end && *r->p == '.') {
    r->p++;
    if (!digits(r))
      return fail(r, "a malformed fraction");
  }
  if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
    r->p++;
    if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
      r->p++;
    if (!digits(r))
      return fail(r, "a malformed exponent");
  }
  return 1;
}

static int word(reader *r, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
    return fail(r, "an unknown word");
  r->p += n;
  return 1;
}

static int value(reader *r, int depth) {
  blank(r);
  if (r->p >= r->end)
    return fail(r, "a value missing");
  if (depth > 512)
    return fail(r, "nesting past 512");
  switch (*r->p) {
  case '"': return string(r);
  case 't': return word(r, "true");
  case 'f': return word(r, "false");
  case 'n': return word(r, "null");
  case '[':
  case '{': {
    char close = *r->p == '[' ? ']' : '}';
    r->p++;
    blank(r);
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return 1;
    }
    for (;;) {
      if (close == '}') {
        blank(r);
        if (r->p >= r->end || *r->p != '"')
          return fail(r, "an object member without a string name");
        if (!string(r))
          return 0;
        blank(r);
        if (r->p >= r->end || *r->p != ':')
          return fail(r, "a member name without ':'");
        r->p++;
      }
      if (!value(r, depth + 1))
        return 0;
      blank(r);
      if (r->p < r->end && *r->p == ',') {
        r->p++;
        continue;
      }
      if (r->p < r->end && *r->p == close) {
        r->p++;
        return 1;
      }
      return fail(r, "no ',' or closing bracket after a value");
    }
  }
  default:
    if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9'))
      return number(r);
    return fail(r, "no JSON value");
  }
}

/* NULL when text[0, len) is one valid JSON document, else what is wrong; *at is its offset. */
const char *fuzz_json_check(const char *text, size_t len, size_t *at) {
  reader r = {(const unsigned char *)text, (const unsigned char *)text + len, NULL};
  if (value(&r, 0)) {
    blank(&r);
    if (r.p != r.end)
      fail(&r, "more after the value");
  }
  *at = (size_t)((const char *)r.p - text);
  return r.why;
}

/* ---- flags that make clang write a file ------------------------------------------ */

static int begins(const char *a, const char *prefix) {
  return strncmp(a, prefix, strlen(prefix)) == 0;
}

static int one_of(const char *a, const char *const *list) {
  for (int k = 0; list[k]; k++)
    if (strcmp(a, list[k]) == 0)
      return 1;
  return 0;
}

/* cc1's own: -dependency-file F, -dependency-dot F, -header-include-file F,
 * -module-dependency-dir D (copies every header read), -serialize-diagnostic-file F,
 * -stats-file=F, -ftime-trace=F, -fmodules-cache-path=D, -o F. */
static int cc1_writes(const char *a) {
  static const char *const prefixes[] = {
      "-dependency-file", "-dependency-dot", "-header-include-file", "-module-dependency-dir",
      "-serialize-diagnostic-file", "-stats-file", "-ftime-trace", "-fmodules-cache-path", "-o",
      NULL};
  for (int k = 0; prefixes[k]; k++)
    if (begins(a, prefixes[k]))
      return 1;
  return 0;
}

static int driver_writes(const char *a, int depth) {
  static const char *const exact[] = {
      "-M", "-MM", "-MD", "-MMD", "--dependencies", "--user-dependencies",
      "--write-dependencies", "--write-user-dependencies", "-serialize-diagnostics",
      "-fmodules", /* builds the modules it imports into $XDG_CACHE_HOME/clang/ModuleCache */
      NULL};
  static const char *const prefixes[] = {
      "-o", "--output", "-MF", "-MJ", "-save-temps", "--save-temps", "-save-stats",
      "--save-stats", "-ftime-trace", "-fcrash-diagnostics", "-fproc-stat-report",
      "-fmodules-cache-path", "-fmodule-output", "--serialize-diagnostics", NULL};
  if (one_of(a, exact))
    return 1;
  for (int k = 0; prefixes[k]; k++)
    if (begins(a, prefixes[k]))
      return 1;
  if (begins(a, "-Wp,") && depth < 4) { /* each comma-separated word, to the preprocessor */
    char buf[4096];
    size_t n = strlen(a + 4);
    if (n >= sizeof buf)
      return 1; /* too long to look into: counted as writing */
    memcpy(buf, a + 4, n + 1);
    for (char *w = buf, *comma; w; w = comma ? comma + 1 : NULL) {
      comma = strchr(w, ',');
      if (comma)
        *comma = '\0';
      if (driver_writes(w, depth + 1) || cc1_writes(w))
        return 1;
    }
  }
  return 0;
}

/* The index of the first flag of flags[0, n) that makes clang write a file, or -1. */
int fuzz_writes_file(const char *const *flags, int n) {
  /* driver flags whose value comes apart, as the next argument */
  static const char *const with_value[] = {
      "-D", "-U", "-I", "-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix",
      "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-cxx-isystem", "-F", "-x", "-o",
      "--output", "-MF", "-MT", "-MQ", "-MJ", "-target", "-arch", "-Xlinker", "-Xassembler",
      "-Xanalyzer", "-Xcuda-ptxas", "-Xcuda-fatbinary", "-include-pch", "-ivfsoverlay",
      "-mllvm", "-working-directory", "--sysroot", "-serialize-diagnostics",
      "--serialize-diagnostics", NULL};
  for (int i = 0; i < n; i++) {
    const char *a = flags[i], *next = i + 1 < n ? flags[i + 1] : NULL;
    if (driver_writes(a, 0))
      return i;
    if (!next)
      break;
    if (strcmp(a, "-Xclang") == 0 || strcmp(a, "-Xpreprocessor") == 0) {
      if (cc1_writes(next) || driver_writes(next, 0))
        return i;
      i++;
    } else if (begins(a, "-Xarch_") || strcmp(a, "-Xopenmp-target") == 0) {
      if (driver_writes(next, 0))
        return i;
      i++;
    } else if (one_of(a, with_value)) {
      i++;
    }
  }
  return -1;
}

/* 1 when s[0, n) is well-formed UTF-8 throughout. */
int fuzz_utf8_valid(const char *s, size_t n) {
  reader r = {(const unsigned char *)s, (const unsigned char *)s + n, NULL};
  while (r.p < r.end)
    if (*r.p < 0x80)
      r.p++;
    else if (!utf8_char(&r))
      return 0;
  return 1;
}
