/*
 * diag.c: diagnostics printed the way compilers print them,
 *
 *   kernel.cu:12:9: error: use of undeclared identifier 'x'
 *      12 |   float y = x;
 *         |             ^
 *
 * or, with --diagnostics-format sarif or json, kept until the run ends and printed as one
 * document on stderr or written to --diagnostics-output FILE (cp_finish_diags): SARIF
 * 2.1.0 for code-scanning services and editors, or a plain JSON list. Errors of the tool
 * itself (no place) join the same document, so that stderr holds nothing else.
 *
 * Tabs in the source line are kept in the caret line, so the caret lines up in any
 * tab width; other control bytes are shown as <U+001B>, as clang shows them.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const char *severity_name(cp_severity s) {
  switch (s) {
  case CP_NOTE: return "note";
  case CP_WARNING: return "warning";
  case CP_ERROR: return "error";
  }
  return "error";
}

/* A control byte of the source line (an escape sequence in a comment would reach the
 * terminal and act there) is printed as clang prints it, <U+001B>; tabs stay. */
static int is_shown_escaped(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

/* `text` with its control bytes (an escape sequence from a file name, a pragma clause or
 * an option would act on the terminal) shown as <U+XXXX>. */
static void print_escaped(FILE *out, const char *text) {
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (is_shown_escaped(*p))
      fprintf(out, "<U+%04X>", *p);
    else
      fputc(*p, out);
  }
}

static void print_source_line(FILE *out, const char *text) {
  print_escaped(out, text);
  fputc('\n', out);
}

static void print_caret(FILE *out, const char *text, unsigned col) {
  size_t n = strlen(text);
  for (unsigned i = 0; i + 1 < col && i < n; i++)
    fputs(text[i] == '\t' ? "\t" : is_shown_escaped((unsigned char)text[i]) ? "        " : " ",
          out);
  fputs("^\n", out);
}

static cp_severity least_printed = CP_NOTE;
static cp_diag_format format = CP_DIAG_TEXT;
static cp_diag *kept; /* the machine formats' diagnostics, copied */
static size_t n_kept, cap_kept;

static unsigned error_limit = 20, errors_printed, errors_held;
static const char *output_path; /* --diagnostics-output: the document's file, or stderr */

void cp_set_diag_level(cp_severity least) { least_printed = least; }
void cp_set_error_limit(unsigned n) { error_limit = n; }
unsigned cp_errors_held_back(void) { return errors_held; }
void cp_set_diag_format(cp_diag_format f) { format = f; }
int cp_diag_is_text(void) { return format == CP_DIAG_TEXT; }
void cp_set_diag_output(const char *path) { output_path = path; }

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* -Wno-RULE, -WRULE, -Werror=RULE, -Wno-error=RULE per rule; -Werror and -Wno-error for
 * every warning (those of no rule too) where the rule's own -W[no-]error= says nothing. */
enum { NOT_SAID, ERROR, NO_ERROR };
static unsigned char silenced[CP_RULE_COUNT], as_error[CP_RULE_COUNT];
static int all_errors;
static unsigned promoted; /* warnings printed as errors */

void cp_set_warning(int rule, cp_warning_control w) {
  if (rule < 0)
    all_errors = w == CP_W_ERROR;
  else if (w == CP_W_OFF || w == CP_W_ON)
    silenced[rule] = w == CP_W_OFF;
  else if (w == CP_W_ERROR)
    as_error[rule] = ERROR, silenced[rule] = 0; /* -Werror=RULE turns it on, as gcc's does */
  else
    as_error[rule] = NO_ERROR;
}

unsigned cp_warnings_as_errors(void) { return promoted; }

static int rule_of(const char *msg);

static void keep(const cp_diag *d) {
  if (n_kept == cap_kept) {
    cap_kept = cap_kept ? 2 * cap_kept : 16;
    kept = realloc(kept, cap_kept * sizeof *kept);
  }
  kept[n_kept++] = (cp_diag){d->severity, dup_or_null(d->file), d->line, d->col,
                             dup_or_null(d->line_text), strdup(d->message)};
}

void cp_print_diag(FILE *out, const cp_diag *d) {
  cp_diag as_err;
  if (d->severity == CP_WARNING) {
    int rule = rule_of(d->message);
    if ((rule >= 0 && silenced[rule]) || least_printed > CP_WARNING)
      return; /* -w: no warning, none made an error either (as gcc's -w -Werror) */
    if (rule >= 0 && as_error[rule] != NOT_SAID ? as_error[rule] == ERROR : all_errors) {
      as_err = *d;
      as_err.severity = CP_ERROR;
      d = &as_err;
      promoted++;
    }
  }
  if (d->severity < least_printed)
    return;
  if (d->severity == CP_ERROR && format == CP_DIAG_TEXT && error_limit &&
      errors_printed == error_limit) {
    errors_held++; /* -ferror-limit: counted, not printed */
    return;
  }
  if (d->severity == CP_ERROR)
    errors_printed++;
  if (format != CP_DIAG_TEXT) {
    keep(d);
    return;
  }
  if (d->file) {
    print_escaped(out, d->file);
    if (d->line)
      fprintf(out, ":%u:%u", d->line, d->col);
    fputs(": ", out);
  } else
    fputs("cpconvert: ", out);
  fprintf(out, "%s: ", severity_name(d->severity));
  print_escaped(out, d->message);
  fputc('\n', out);
  if (d->line_text && d->line) {
    /* a line longer than LONG_LINE shows the window around the column, `...` at the cuts
     * (a 100 kB pragma line is not printed whole with each of its errors) */
    enum { LONG_LINE = 240, BEFORE = 100 };
    const char *text = d->line_text;
    unsigned col = d->col;
    size_t len = strlen(text), from = 0, to = len;
    if (len > LONG_LINE) {
      size_t at = col > len ? len : col ? col - 1 : 0; /* a column past the line: its end */
      from = at > BEFORE ? at - BEFORE : 0;
      while (from > 0 && ((unsigned char)text[from] & 0xC0) == 0x80)
        from--; /* not inside a UTF-8 character */
      to = from + LONG_LINE < len ? from + LONG_LINE : len;
      while (to < len && ((unsigned char)text[to] & 0xC0) == 0x80)
        to++;
    }
    char *shown = malloc(to - from + 8);
    snprintf(shown, to - from + 8, "%s%.*s%s", from ? "..." : "", (int)(to - from), text + from,
             to < len ? "..." : "");
    int w = fprintf(out, "%5u", d->line);
    fputs(" | ", out);
    print_source_line(out, shown);
    fprintf(out, "%*s | ", w, "");
    print_caret(out, shown, (col > len + 1 ? (unsigned)len + 1 : col) - (unsigned)from +
                                (from ? 3 : 0));
    free(shown);
  }
}

static void tool_message(cp_severity s, const char *fmt, va_list ap) {
  char buf[2048];
  vsnprintf(buf, sizeof buf, fmt, ap);
  cp_diag d = {s, NULL, 0, 0, NULL, buf};
  cp_print_diag(stderr, &d);
}

void cp_tool_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tool_message(CP_ERROR, fmt, ap);
  va_end(ap);
}

void cp_tool_warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tool_message(CP_WARNING, fmt, ap);
  va_end(ap);
}

void cp_tool_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tool_message(CP_NOTE, fmt, ap);
  va_end(ap);
}

/* ---- the machine formats ---------------------------------------------------------- */

/* The length of the well-formed UTF-8 character at p (RFC 3629: no overlong form, no
 * surrogate, at most U+10FFFF), or 0. */
static int utf8_length(const unsigned char *p) {
  int n = p[0] < 0x80 ? 1 : p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
        : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xC0) != 0x80)
      return 0;
  if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) ||
      (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))
    return 0;
  return n;
}

/* A JSON string: a byte that is no part of a well-formed UTF-8 character (a Latin-1 line,
 * a path cut inside a character) is written as the code point of the same number, so the
 * document stays valid. */
static void json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    int n;
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", out);
    else if (*p == '\t')
      fputs("\\t", out);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(out, "\\u%04x", *p);
    else if (*p < 0x80)
      fputc(*p, out);
    else if ((n = utf8_length(p)) > 0) {
      fwrite(p, 1, (size_t)n, out);
      p += n - 1;
    } else
      fprintf(out, "\\u%04x", *p);
  }
  fputc('"', out);
}

/* The rule a message names in its last words (`... [pragma]`), or -1. */
static int rule_of(const char *msg) {
  size_t n = strlen(msg);
  if (n < 3 || msg[n - 1] != ']')
    return -1;
  const char *open = strrchr(msg, '[');
  for (int r = 0; open && r < CP_RULE_COUNT; r++) {
    const char *name = cp_rule_name((cp_rule)r);
    if (strlen(name) == (size_t)(msg + n - 1 - open - 1) && strncmp(open + 1, name, strlen(name)) == 0)
      return r;
  }
  return -1;
}

/* The message without its rule (SARIF carries the rule as ruleId). */
static void message_text(FILE *out, const char *msg, int rule) {
  if (rule < 0) {
    json_string(out, msg);
    return;
  }
  char *copy = strdup(msg);
  char *open = strrchr(copy, '[');
  while (open > copy && open[-1] == ' ')
    open--;
  *open = '\0';
  json_string(out, copy);
  free(copy);
}

/* A path as a URI reference: relative paths stay relative, absolute ones are file: URIs;
 * every byte outside RFC 3986's unreserved characters and '/' is percent-encoded. */
static void uri(FILE *out, const char *path) {
  fputs(path[0] == '/' ? "\"file://" : "\"", out);
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      fputc(*p, out);
    else
      fprintf(out, "%%%02X", *p);
  }
  fputc('"', out);
}

/* Column `col` (bytes, 1-based) of `line` in Unicode code points, as SARIF counts. */
static unsigned code_point_column(const char *line, unsigned col) {
  unsigned cp = 1;
  for (unsigned i = 0; line && i + 1 < col && line[i]; i++)
    cp += ((unsigned char)line[i] & 0xC0) != 0x80;
  return line ? cp : col;
}

static const char *sarif_level(cp_severity s) {
  return s == CP_ERROR ? "error" : s == CP_WARNING ? "warning" : "note";
}

static void sarif_result(FILE *out, const cp_diag *d, int rule, int index) {
  fputs("        {", out);
  if (rule >= 0) {
    fputs("\"ruleId\": ", out);
    json_string(out, cp_rule_name((cp_rule)rule));
    fprintf(out, ", \"ruleIndex\": %d, ", index);
  }
  fprintf(out, "\"level\": \"%s\", \"message\": {\"text\": ", sarif_level(d->severity));
  message_text(out, d->message, rule);
  fputc('}', out);
  if (d->file) {
    fputs(",\n         \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
    uri(out, d->file);
    fputc('}', out);
    if (d->line) {
      fprintf(out, ", \"region\": {\"startLine\": %u, \"startColumn\": %u", d->line,
              code_point_column(d->line_text, d->col ? d->col : 1));
      if (d->line_text) {
        fputs(", \"snippet\": {\"text\": ", out);
        json_string(out, d->line_text);
        fputc('}', out);
      }
      fputc('}', out);
    }
    fputs("}}]", out);
  }
  fputc('}', out);
}

/* The rules the results name, once each in the order first named: their index. */
static int rule_index(int *rules, int *n_rules, int rule) {
  for (int k = 0; k < *n_rules; k++)
    if (rules[k] == rule)
      return k;
  rules[*n_rules] = rule;
  return (*n_rules)++;
}

static void print_sarif(FILE *out, int status) {
  int rules[CP_RULE_COUNT], n_rules = 0;
  fputs("{\n  \"$schema\": \"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
        "sarif-schema-2.1.0.json\",\n"
        "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"results\": [\n", out);
  for (size_t i = 0; i < n_kept; i++) {
    int rule = rule_of(kept[i].message);
    sarif_result(out, &kept[i], rule, rule >= 0 ? rule_index(rules, &n_rules, rule) : -1);
    fputs(i + 1 < n_kept ? ",\n" : "\n", out);
  }
  fputs("      ],\n      \"tool\": {\"driver\": {\"name\": \"cpconvert\", \"version\": \""
        CPCONVERT_VERSION "\", \"rules\": [", out);
  for (int k = 0; k < n_rules; k++) {
    fputs(k ? ",\n        {\"id\": " : "\n        {\"id\": ", out);
    json_string(out, cp_rule_name((cp_rule)rules[k]));
    fputs(", \"shortDescription\": {\"text\": ", out);
    json_string(out, cp_rule_summary((cp_rule)rules[k]));
    fputs("}}", out);
  }
  fprintf(out, "]}},\n      \"columnKind\": \"unicodeCodePoints\",\n"
               "      \"invocations\": [{\"executionSuccessful\": %s, \"exitCode\": %d}]\n"
               "    }\n  ]\n}\n",
          status == CP_EXIT_OK ? "true" : "false", status);
}

static void print_json(FILE *out, int status) {
  unsigned errors = 0, warnings = 0;
  fputs("{\n  \"tool\": \"cpconvert " CPCONVERT_VERSION "\",\n  \"diagnostics\": [", out);
  for (size_t i = 0; i < n_kept; i++) {
    const cp_diag *d = &kept[i];
    int rule = rule_of(d->message);
    errors += d->severity == CP_ERROR;
    warnings += d->severity == CP_WARNING;
    fprintf(out, "%s\n    {\"severity\": \"%s\", \"file\": ", i ? "," : "",
            severity_name(d->severity));
    d->file ? json_string(out, d->file) : (void)fputs("null", out);
    fprintf(out, ", \"line\": %u, \"column\": %u, \"rule\": ", d->line, d->col);
    rule >= 0 ? json_string(out, cp_rule_name((cp_rule)rule)) : (void)fputs("null", out);
    fputs(", \"message\": ", out);
    json_string(out, d->message);
    fputs(", \"source_line\": ", out);
    d->line_text ? json_string(out, d->line_text) : (void)fputs("null", out);
    fputc('}', out);
  }
  fprintf(out, "%s],\n  \"errors\": %u,\n  \"warnings\": %u,\n  \"exit_status\": %d\n}\n",
          n_kept ? "\n  " : "", errors, warnings, status);
}

/* The machine format's document, to FILE (atomically, cp_write_files) or on stderr; a
 * FILE that cannot be written is an error on stderr, in text: the document is lost. */
static int print_document(int status) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = output_path ? open_memstream(&text, &len) : stderr;
  if (!f)
    f = stderr;
  if (format == CP_DIAG_SARIF)
    print_sarif(f, status);
  else
    print_json(f, status);
  if (f == stderr)
    return status;
  fclose(f);
  format = CP_DIAG_TEXT; /* cp_write_files' errors print, and are not kept */
  cp_output out = {output_path, text, len};
  if (cp_write_files(&out, 1) != 0)
    status = CP_EXIT_ERRORS;
  free(text);
  return status;
}

int cp_finish_diags(int status) {
  if (format != CP_DIAG_TEXT)
    status = print_document(status);
  for (size_t i = 0; i < n_kept; i++) {
    free((char *)kept[i].file);
    free((char *)kept[i].line_text);
    free((char *)kept[i].message);
  }
  free(kept);
  kept = NULL;
  n_kept = cap_kept = 0;
  return status;
}
