/*
 * verify.c: the tool checks what it writes before it writes it.
 *
 * After the edits are applied, every converted translation unit is parsed again, by the
 * same libclang and with the same command line (and PCH) as its input: the output text
 * stands in for the input at its path, each converted header for the header at its path,
 * and the runtime headers this build embeds are found as <cp/cp.cuh>. Any error clang
 * finds there is cpconvert's own fault (the input parsed without errors), so it is an
 * internal error located twice: at the input line the offending output line came from (an
 * unchanged byte's own place, or where the edit that wrote it was made) and, in its
 * message, at the output line itself. The run then has errors and nothing is written.
 * `--no-verify` (opt->no_verify) skips the pass.
 *
 * The parse is a host-side one, like the input's (--cuda-host-only): device function
 * bodies are type-checked there. A run that converted the device compilation's view (a
 * converted function with an `#if __CUDA_ARCH__` branch, convert.c) is checked in both
 * views, the device one and the host one, since nvcc compiles the output in both.
 */
#include <string.h>

#include "internal.h"

/* Line and column (from 1, bytes) of `offset` in `text`. */
static void line_col(const char *text, size_t len, size_t offset, unsigned *line,
                     unsigned *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < offset && i < len; i++) {
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

typedef struct {
  cp_run *run;
  CXTranslationUnit tu;
  const cp_source *src;  /* [0] the input's output, then the converted headers */
  const unsigned *unit;  /* index into run->units / r->files of each source */
  unsigned n;
  size_t first_diag;     /* this pass's diagnostics start here (for duplicates) */
} verify_ctx;

/* Whether this pass already reported the same message at the same place (a header's
 * error is seen once per translation unit that includes it). */
static int reported(const verify_ctx *v, const char *file, unsigned line, unsigned col,
                    const char *msg) {
  const cp_result *r = v->run->r;
  for (size_t i = v->first_diag; i < r->n_diags; i++) {
    const cp_diag *d = &r->diags[i];
    if (d->line == line && d->col == col && d->file && file && strcmp(d->file, file) == 0 &&
        strstr(d->message, msg))
      return 1;
  }
  return 0;
}

static void report(verify_ctx *v, CXDiagnostic d) {
  cp_result *r = v->run->r;
  CXFile file;
  unsigned line = 0, col = 0, offset = 0;
  clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &line, &col, &offset);
  CXString s = clang_getDiagnosticSpelling(d);
  const char *msg = cp_arena_strdup(r->arena, clang_getCString(s));
  clang_disposeString(s);
  unsigned k = 0;
  while (k < v->n && !(file && clang_File_isEqual(file, clang_getFile(v->tu, v->src[k].path))))
    k++;
  if (k == v->n) { /* a file cpconvert did not write: the runtime, a user header */
    CXString fn = clang_getFileName(file);
    const char *name = file ? cp_arena_strdup(r->arena, clang_getCString(fn)) : NULL;
    clang_disposeString(fn);
    if (!reported(v, name, line, col, msg))
      cp_diag_add(r, CP_ERROR, name, line, col, NULL,
                  "internal error: the converted code does not compile: %s [%s]", msg,
                  cp_rule_name(CP_RULE_VERIFY));
    return;
  }
  const cp_file_result *f = &r->files[v->unit[k]];
  size_t in = cp_edit_origin(r->arena, &f->edits, offset);
  unsigned in_line, in_col;
  line_col(f->input_text, f->input_len, in, &in_line, &in_col);
  if (reported(v, f->path, in_line, in_col, msg))
    return;
  const char *out_text = cp_line_at(r->arena, f->output, f->output_len, offset);
  while (out_text && (*out_text == ' ' || *out_text == '\t'))
    out_text++;
  cp_diag_add(r, CP_ERROR, f->path, in_line, in_col,
              cp_line_at(r->arena, f->input_text, f->input_len, in),
              "internal error: the converted code does not compile: %s (output line %u:%u: "
              "`%s`); nothing is written (--no-verify writes it anyway); please report this "
              "input [%s]",
              msg, line, col, out_text ? out_text : "", cp_rule_name(CP_RULE_VERIFY));
  r->applied[CP_RULE_VERIFY]++;
}

/* Parses the output of input unit `i` with every converted header standing in, as `opt`
 * says (host or device compilation). */
static void verify_unit(cp_run *run, CXIndex index, unsigned i, const cp_options *opt) {
  cp_result *r = run->r;
  cp_source *src = cp_arena_alloc(r->arena, (run->n_units + 1) * sizeof *src);
  unsigned *unit = cp_arena_alloc(r->arena, (run->n_units + 1) * sizeof *unit);
  src[0] = (cp_source){r->files[i].path, r->files[i].output, r->files[i].output_len};
  unit[0] = i;
  unsigned n = 1;
  for (unsigned k = run->n_inputs; k < run->n_units; k++) /* the converted headers */
    if (r->files[k].output) {
      src[n] = (cp_source){r->files[k].path, r->files[k].output, r->files[k].output_len};
      unit[n++] = k;
    }
  verify_ctx v = {run, NULL, src, unit, n, r->n_diags};
  v.tu = cp_parse_output(index, opt, r->arena, src, n, &r->output_pch_refused);
  if (!v.tu) {
    if (cp_parse_out_of_memory())
      cp_diag_add(r, CP_ERROR, r->files[i].path, 0, 0, NULL,
                  "out of memory while libclang parsed the converted code again (the check "
                  "of the output); allow the run more memory (ulimit -v), convert fewer files "
                  "in one run, or skip the check with --no-verify [%s]",
                  cp_rule_name(CP_RULE_VERIFY));
    else
      cp_diag_add(r, CP_ERROR, r->files[i].path, 0, 0, NULL,
                  "internal error: libclang could not parse the converted code again [%s]",
                  cp_rule_name(CP_RULE_VERIFY));
    return;
  }
  unsigned nd = clang_getNumDiagnostics(v.tu);
  for (unsigned d = 0; d < nd; d++) {
    CXDiagnostic diag = clang_getDiagnostic(v.tu, d);
    if (clang_getDiagnosticSeverity(diag) >= CXDiagnostic_Error)
      report(&v, diag);
    clang_disposeDiagnostic(diag);
  }
  clang_disposeTranslationUnit(v.tu);
}

void cp_verify_outputs(cp_run *run) {
  if (run->r->n_errors || run->units[0]->opt.no_verify)
    return;
  CXIndex index = clang_createIndex(0, 0);
  for (unsigned i = 0; i < run->n_inputs; i++) {
    if (!run->r->files[i].output)
      continue;
    cp_options opt = run->units[i]->opt;
    if (opt.progress)
      opt.progress(opt.progress_ctx, "check", opt.input, i + 1, run->n_inputs);
    if (opt.device_parse) { /* converted as the device sees it: check that view, PCH-less */
      cp_options dev = opt;
      dev.output_pch = NULL;
      verify_unit(run, index, i, &dev);
      opt.device_parse = 0; /* and the host compilation's view of the same output */
    }
    verify_unit(run, index, i, &opt);
  }
  clang_disposeIndex(index);
}
