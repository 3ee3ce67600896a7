/*
 * diag.c: diagnostics and source positions.
 *
 * A diagnostic is recorded in the result (the tool prints it) with its file, line,
 * column and the text of its line, for the caret. Stages report at byte offsets of the
 * text of the unit they work on; cp_position turns an offset into a line and column,
 * counting on from the last position asked for, since positions come mostly in source
 * order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void cp_diag_add(cp_result *r, cp_severity sev, const char *file, unsigned line,
                 unsigned col, const char *line_text, const char *fmt, ...) {
  if (r->n_diags == r->cap_diags) {
    r->cap_diags = r->cap_diags ? 2 * r->cap_diags : 16;
    r->diags = cp_arena_grow(r->arena, r->diags, r->n_diags, r->cap_diags, sizeof *r->diags);
  }
  va_list ap;
  va_start(ap, fmt);
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  r->diags[r->n_diags++] = (cp_diag){sev, file, line, col, line_text,
                                     cp_arena_strdup(r->arena, buf)};
  if (sev == CP_ERROR)
    r->n_errors++;
  else if (sev == CP_WARNING)
    r->n_warnings++;
}

const char *cp_line_at(cp_arena *a, const char *text, size_t len, size_t offset) {
  if (!text || offset > len)
    return NULL;
  cp_arena_line *last = cp_arena_last_line(a);
  if (last->line && last->text == text && offset >= last->b && offset <= last->e)
    return last->line;
  size_t b = offset, e = offset;
  while (b > 0 && text[b - 1] != '\n' && text[b - 1] != '\r') /* LF, CRLF, a lone CR */
    b--;
  while (e < len && text[e] != '\n' && text[e] != '\r')
    e++;
  *last = (cp_arena_line){text, NULL, b, e};
  return last->line = cp_arena_strndup(a, text + b, e - b);
}

/* A header the PCH holds (`-include md.h`) is named by the absolute path clang recorded
 * in the PCH; a plain parse names it as written, as cp_pch_build's plain parse reported
 * it among the PCH's headers (p->pch_deps): that name, the same file on disk. */
static const char *pch_name(const cp_parse *p, CXFile file) {
  CXFileUniqueID id, dep_id;
  if (!p || !p->n_pch_deps || clang_getFileUniqueID(file, &id) != 0)
    return NULL;
  for (size_t i = 0; i < p->n_pch_deps; i++) {
    CXFile dep = clang_getFile(p->tu, p->pch_deps[i]);
    if (dep && clang_getFileUniqueID(dep, &dep_id) == 0 && memcmp(&id, &dep_id, sizeof id) == 0)
      return p->pch_deps[i];
  }
  return NULL;
}

static const char *file_name(cp_arena *a, const cp_parse *p, CXFile file) {
  CXString fn = clang_getFileName(file);
  const char *name = clang_getCString(fn);
  const char *written = name && name[0] == '/' ? pch_name(p, file) : NULL;
  if (written)
    name = written;
  while (name && name[0] == '.' && name[1] == '/') /* as the header's output is named */
    name += 2;
  const char *out = cp_arena_strdup(a, name ? name : "");
  clang_disposeString(fn);
  return out;
}

const char *cp_file_name(cp_run *run, CXTranslationUnit tu, CXFile file) {
  const cp_parse *p = NULL; /* the input's parse of `tu`, which knows its PCH's headers */
  for (unsigned i = 0; i < run->n_units && !p; i++)
    if (run->units[i]->p.tu == tu && run->units[i]->p.n_pch_deps)
      p = &run->units[i]->p;
  return file_name(run->r->arena, p, file);
}

void cp_diag_cursor(cp_run *run, cp_severity sev, CXTranslationUnit tu, CXCursor c,
                    const char *fmt, ...) {
  CXFile file;
  unsigned line, col, off;
  clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &col, &off);
  const char *name = cp_file_name(run, tu, file);
  size_t size = 0;
  const char *contents = clang_getFileContents(tu, file, &size);
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cp_diag_add(run->r, sev, name, line, col, cp_line_at(run->r->arena, contents, size, off), "%s",
              msg);
}

const char *cp_line_ending(const char *text, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\n')
      return "\n";
    if (text[i] == '\r')
      return i + 1 < len && text[i + 1] == '\n' ? "\r\n" : "\r";
  }
  return "\n";
}

int cp_line_end_at(const char *text, size_t len, size_t i) {
  return i < len && (text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n')));
}

void cp_position(cp_run *run, const cp_unit *u, unsigned offset, unsigned *line_out,
                 unsigned *col_out) {
  const char *text = u->opt.input_text;
  unsigned line = 1, col = 1, i = 0;
  /* Positions are mostly asked for in source order: count on from the last one, so that
   * many of them in a big file do not each count from the start. */
  if (run->pos_text == text && run->pos_offset <= offset) {
    i = run->pos_offset;
    line = run->pos_line;
    col = run->pos_col;
  }
  for (; i < offset && i < u->opt.input_len; i++) {
    if (cp_line_end_at(text, u->opt.input_len, i)) { /* LF, or a lone CR */
      line++;
      col = 1;
    } else {
      col++;
    }
  }
  run->pos_text = text;
  run->pos_offset = i;
  run->pos_line = *line_out = line;
  run->pos_col = *col_out = col;
}

void cp_rule_diag(cp_run *run, const cp_unit *u, cp_severity sev, unsigned offset, cp_rule rule,
                  const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cp_diag_at(run, u, sev, offset, "%s [%s]", buf, cp_rule_name(rule));
  run->r->applied[rule]++;
}

void cp_diag_at(cp_run *run, const cp_unit *u, cp_severity sev, unsigned offset,
                const char *fmt, ...) {
  const char *text = u->opt.input_text;
  unsigned line, col;
  cp_position(run, u, offset, &line, &col);
  va_list ap;
  va_start(ap, fmt);
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cp_diag_add(run->r, sev, u->opt.input, line, col,
              cp_line_at(run->r->arena, text, u->opt.input_len, offset), "%s", buf);
}
