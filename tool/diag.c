/*
 * diag.c: diagnostics printed the way compilers print them.
 *
 *   kernel.cu:12:9: error: use of undeclared identifier 'x'
 *      12 |   float y = x;
 *         |             ^
 *
 * Tabs in the source line are kept in the caret line, so the caret lines up in any
 * tab width; other control bytes are shown as <U+001B>, as clang shows them.
 */
#include <stdarg.h>
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

static void print_source_line(FILE *out, const char *text) {
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    if (is_shown_escaped(*p))
      fprintf(out, "<U+%04X>", *p);
    else
      fputc(*p, out);
  }
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

void cp_set_diag_level(cp_severity least) { least_printed = least; }

void cp_print_diag(FILE *out, const cp_diag *d) {
  if (d->severity < least_printed)
    return;
  if (d->file && d->line)
    fprintf(out, "%s:%u:%u: ", d->file, d->line, d->col);
  else if (d->file)
    fprintf(out, "%s: ", d->file);
  else
    fputs("cpconvert: ", out);
  fprintf(out, "%s: %s\n", severity_name(d->severity), d->message);
  if (d->line_text && d->line) {
    int w = fprintf(out, "%5u", d->line);
    fputs(" | ", out);
    print_source_line(out, d->line_text);
    fprintf(out, "%*s | ", w, "");
    print_caret(out, d->line_text, d->col);
  }
}

/* `cpconvert: SEVERITY: MESSAGE`, unless below the level printed. */
static void tool_message(cp_severity sev, const char *fmt, va_list ap) {
  if (sev < least_printed)
    return;
  fprintf(stderr, "cpconvert: %s: ", severity_name(sev));
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
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
