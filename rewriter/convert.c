/*
 * convert.c: one conversion run, from the input's bytes to the output's.
 *
 * Order of work, each step stopping the run on an error:
 *   1. refuse an input that is already an output of cpconvert (its first line);
 *   2. parse with libclang (parse.c); any clang error stops the run, nothing is written;
 *   3. find the `#pragma cp` annotations and the functions they mark (annotate.c);
 *   4. analyse those functions (analyse.c, accum.c) and collect every edit in one list
 *      (function.c, expr.c, call.c), then apply the list once (edit.c).
 * The output exists only when the run produced no error.
 */
#include "rewriter.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void cp_diag_add(cp_result *r, cp_severity sev, const char *file, unsigned line,
                 unsigned col, const char *line_text, const char *fmt, ...) {
  if (r->n_diags == r->cap_diags) {
    size_t cap = r->cap_diags ? 2 * r->cap_diags : 16;
    cp_diag *d = cp_arena_alloc(r->arena, cap * sizeof *d);
    if (r->n_diags)
      memcpy(d, r->diags, r->n_diags * sizeof *d);
    r->diags = d;
    r->cap_diags = cap;
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

/* The end-of-line sequence the input uses (that of its first line), so that inserted
 * lines match the file: CRLF files stay CRLF. */
static const char *line_ending(const char *text, size_t len) {
  const char *nl = memchr(text, '\n', len);
  return nl && nl > text && nl[-1] == '\r' ? "\r\n" : "\n";
}

static size_t bom_length(const char *text, size_t len) {
  return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

static const char *algo_macro(cp_algo algo) {
  switch (algo) {
  case CP_ALGO_PAPER: return "CP_ALGO_PAPER";
  case CP_ALGO_FAST: return "CP_ALGO_FAST";
  case CP_ALGO_ACCURATE: break;
  }
  return NULL; /* the runtime's default */
}

/* Rule `header`: the marker comment, the algorithm selection and the runtime include. */
static void add_header(cp_result *r, const cp_options *opt) {
  const char *nl = line_ending(opt->input_text, opt->input_len);
  const char *algo = algo_macro(opt->algo);
  const char *text = cp_arena_printf(
      r->arena, "%s%s from %s (%s); edit the input, not this file.%s%s%s%s#include <cp/cp.cuh>%s",
      CP_OUTPUT_MARKER, opt->version, opt->input, opt->header_options, nl,
      algo ? "#define CP_ALGO " : "", algo ? algo : "", algo ? nl : "", nl);
  cp_edit_add(r->arena, &r->edits, bom_length(opt->input_text, opt->input_len), 0, text,
              CP_RULE_HEADER);
  r->applied[CP_RULE_HEADER]++;
}

static int already_converted(const cp_options *opt) {
  size_t skip = bom_length(opt->input_text, opt->input_len);
  size_t n = strlen(CP_OUTPUT_MARKER);
  return opt->input_len - skip >= n && memcmp(opt->input_text + skip, CP_OUTPUT_MARKER, n) == 0;
}

/* Diagnostics in source order, as a compiler prints them (stable: same place, same
 * order as found). Only the input's own diagnostics are reordered. */
static void sort_diags(cp_result *r, const char *input) {
  for (size_t i = 1; i < r->n_diags; i++) {
    cp_diag d = r->diags[i];
    if (!d.file || strcmp(d.file, input) != 0)
      continue;
    size_t j = i;
    while (j > 0 && r->diags[j - 1].file && strcmp(r->diags[j - 1].file, input) == 0 &&
           (r->diags[j - 1].line > d.line ||
            (r->diags[j - 1].line == d.line && r->diags[j - 1].col > d.col))) {
      r->diags[j] = r->diags[j - 1];
      j--;
    }
    r->diags[j] = d;
  }
}

void cp_apply_edit(cp_run *run, size_t offset, size_t length, const char *text, cp_rule rule) {
  cp_edit_add(run->r->arena, &run->r->edits, offset, length, text, rule);
  run->r->applied[rule]++;
}

static void record_stats(cp_result *r, const cp_run *run) {
  r->funcs = cp_arena_alloc(r->arena, (run->n_funcs + 1) * sizeof *r->funcs);
  r->n_funcs = run->n_funcs;
  for (unsigned i = 0; i < run->n_funcs; i++) {
    const cp_func *f = &run->funcs[i];
    unsigned paired = 0;
    for (unsigned k = 0; k < f->n_vars; k++)
      paired += f->vars[k].role == CP_VAR_PAIRED;
    r->funcs[i] = (cp_func_stat){f->name, f->is_host ? 2 : f->is_kernel ? 1 : 0, paired};
  }
}

cp_result *cp_convert(const cp_options *opt) {
  cp_arena *arena = cp_arena_new();
  cp_result *r = cp_arena_alloc(arena, sizeof *r);
  memset(r, 0, sizeof *r);
  r->arena = arena;

  if (already_converted(opt)) {
    cp_diag_add(r, CP_ERROR, opt->input, 1, 1,
                cp_line_at(arena, opt->input_text, opt->input_len, 0),
                "this file is an output of cpconvert; convert the original file instead");
    return r;
  }
  cp_parse p;
  if (cp_parse_open(&p, opt, r) == 0) {
    cp_run run = {.opt = opt, .r = r, .p = &p};
    cp_find_functions(&run);
    if (r->n_errors == 0)
      cp_analyse(&run);
    if (r->n_errors == 0)
      cp_convert_functions(&run);
    record_stats(r, &run);
    if (r->n_errors == 0)
      add_header(r, opt);
    cp_parse_deps(&p, r);
  }
  cp_parse_close(&p);
  sort_diags(r, opt->input);
  if (r->n_errors)
    return r;

  const char *why = NULL;
  if (cp_edit_apply(arena, &r->edits, opt->input_text, opt->input_len, &r->output,
                    &r->output_len, &why) != 0) {
    cp_diag_add(r, CP_ERROR, opt->input, 0, 0, NULL, "internal error: %s", why);
    r->output = NULL;
  }
  return r;
}

void cp_result_free(cp_result *r) {
  if (r)
    cp_arena_free(r->arena);
}
