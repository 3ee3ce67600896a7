/*
 * convert.c: one conversion run, from the input's bytes to the output's.
 *
 * Order of work, each step stopping the run on an error:
 *   1. refuse an input that is already an output of cpconvert (its first line);
 *   2. parse with libclang (parse.c); any clang error stops the run, nothing is written;
 *   3. find the `#pragma cp` annotations and the functions they mark (annotate.c);
 *   4. analyse those functions (analyse.c, accum.c) and collect every edit in one list
 *      (function.c, expr.c, call.c), then apply the list once (edit.c).
 * The output exists only when the run produced no error. This file is the top of the
 * rewriter's layers (README.md): it calls the stages; the tables they share (run.c) and
 * the diagnostics (diag.c) lie below all of them.
 */
#include "rewriter.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The end-of-line sequence the input uses, so that inserted lines match the file: CRLF
 * files stay CRLF, CR-only files CR-only. */
static const char *line_ending(const char *text, size_t len) {
  return cp_line_ending(text, len);
}

static size_t bom_length(const char *text, size_t len) {
  return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* `s` as it can stand in the marker's // comment: a line end or another control byte in
 * an input name or a -D value would end the comment and turn the rest into code, and an
 * escape sequence would reach whoever reads the file on a terminal; each is written as
 * \n, \r or \xHH. */
static const char *comment_safe(cp_arena *a, const char *s) {
  size_t n = 0;
  if (!s)
    return "";
  for (const char *p = s; *p; p++)
    n += (unsigned char)*p < 0x20 || *p == 0x7f ? 4 : 1;
  char *out = cp_arena_alloc(a, n + 1), *o = out;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\n' || *p == '\r')
      o += sprintf(o, "\\%c", *p == '\n' ? 'n' : 'r');
    else if (*p < 0x20 || *p == 0x7f)
      o += sprintf(o, "\\x%02x", *p);
    else
      *o++ = (char)*p;
  }
  *o = '\0';
  return out;
}

/* Rule `header`: the marker comment, the algorithm and backend selection and the runtime
 * include (and <cp/mpi.h> where sums over MPI ranks were converted); a header that only
 * gains companion declarations gets the marker line alone. */
static void add_header(cp_run *run, cp_edit_list *edits, const cp_options *opt, int is_header) {
  cp_result *r = run->r;
  cp_options selected = *opt;
  selected.algo = run->algo;
  const char *nl = line_ending(opt->input_text, opt->input_len);
  const char *text = cp_arena_printf(
      r->arena, "%s%s from %s (%s); edit the input, not this file.%s%s%s", CP_OUTPUT_MARKER,
      opt->version, comment_safe(r->arena, opt->input),
      comment_safe(r->arena, opt->header_options), nl,
      is_header ? "" : cp_runtime_prologue(r->arena, &selected, nl),
      edits->per_rule[CP_RULE_MPI] ? cp_arena_printf(r->arena, "#include <cp/mpi.h>%s", nl) : "");
  cp_edit_add(r->arena, edits, bom_length(opt->input_text, opt->input_len), 0, text,
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

/* A function's pragma line as written, without its line end; NULL if it has none. */
static const char *pragma_text(cp_result *r, const cp_func *f) {
  if (!f->pragma || f->auto_conv)
    return NULL;
  const char *text = f->unit->opt.input_text;
  unsigned end = f->pragma->end;
  while (end > f->pragma->offset && (text[end - 1] == '\n' || text[end - 1] == '\r'))
    end--;
  return cp_arena_strndup(r->arena, text + f->pragma->offset, end - f->pragma->offset);
}

/* The functions of the run, for --stats and --suggest (their rule counts come after the
 * conversion). */
static void record_stats(cp_result *r, const cp_run *run) {
  r->funcs = cp_arena_alloc(r->arena, (run->n_funcs + 1) * sizeof *r->funcs);
  r->n_funcs = run->n_funcs;
  for (unsigned i = 0; i < run->n_funcs; i++) {
    const cp_func *f = &run->funcs[i];
    unsigned paired = 0;
    for (unsigned k = 0; k < f->n_vars; k++)
      paired += f->vars[k].role == CP_VAR_PAIRED;
    unsigned line = 0, col = 0;
    clang_getExpansionLocation(clang_getCursorLocation(f->cursor), NULL, &line, &col, NULL);
    r->funcs[i] = (cp_func_stat){f->name, f->is_host ? 2 : f->is_kernel ? 1 : 0, paired,
                                 f->unit->opt.input, line, {0}, col, pragma_text(r, f)};
  }
}

/* --suggest: what the analysis finds that would stop a conversion (a pointer it cannot
 * follow, ...) does not stop the listing; it is reported as a warning. */
static void demote_errors(cp_result *r, size_t first) {
  for (size_t i = first; i < r->n_diags; i++) {
    if (r->diags[i].severity != CP_ERROR)
      continue;
    r->diags[i].severity = CP_WARNING;
    r->n_errors--;
    r->n_warnings++;
  }
}

/* Accuracy tiers (clause accuracy(), option --accuracy): the family the outputs select and,
 * for each function whose tier differs from it, the tier's own runtime names. The outputs
 * select the run's family, but the fast one where a pragma asks for accuracy(low) while the
 * run's family keeps pairs normalized (accurate, mid): the comparisons, fabs, floor ... that
 * every function shares must then read unnormalized pairs too, which the fast family's do
 * (runtime convert.cuh). A function in double has one algorithm: the clause is ignored. */
static void settle_tiers(cp_run *run) {
  cp_algo run_algo = run->settings->algo;
  int normalized = run_algo == CP_ALGO_ACCURATE || run_algo == CP_ALGO_MID;
  run->algo = run_algo;
  for (unsigned i = 0; i < run->n_funcs; i++) {
    const cp_pragma *pr = run->funcs[i].pragma;
    if (pr && pr->tier == CP_ALGO_FAST && normalized && !run->funcs[i].dbl)
      run->algo = CP_ALGO_FAST;
  }
  for (unsigned i = 0; i < run->n_funcs; i++) {
    cp_func *f = &run->funcs[i];
    const cp_pragma *pr = f->pragma;
    if (pr && pr->tier && f->dbl) {
      cp_diag_at(run, f->unit, CP_WARNING, pr->tier_offset,
                 "'accuracy' has no effect on '%s', which is written in double: double-double "
                 "arithmetic has one algorithm [%s]", f->name, cp_rule_name(CP_RULE_PRAGMA));
      continue;
    }
    cp_algo tier = pr && pr->tier ? pr->tier : run_algo;
    if (f->dbl || f->is_host || tier == run->algo)
      continue;
    f->tier_fn = tier == CP_ALGO_FAST ? "cp_low_" : tier == CP_ALGO_MID ? "cp_mid_" : "cp_high_";
  }
}

/* The stages over every unit; stops after the first stage that reports errors. */
static void run_stages(cp_run *run) {
  cp_result *r = run->r;
  for (unsigned i = 0; i < run->n_inputs; i++)
    cp_find_functions(run, run->units[i]);
  for (unsigned i = 0; i < run->n_inputs && !run->settings->suggest && r->n_errors == 0; i++)
    cp_find_helpers(run, run->units[i]);
  for (unsigned before = ~0u; before != run->n_funcs && !run->settings->suggest;) {
    before = run->n_funcs; /* again while one input's host code reaches another's */
    for (unsigned i = 0; i < run->n_inputs; i++)
      cp_find_host_functions(run, run->units[i]);
  }
  size_t first_diag = r->n_diags;
  if (r->n_errors == 0)
    cp_analyse(run);
  settle_tiers(run);
  r->algo_lowered = run->algo != run->settings->algo;
  if (run->settings->suggest)
    demote_errors(r, first_diag);
  record_stats(r, run);
  if (r->n_errors == 0 && run->settings->suggest)
    for (unsigned i = 0; i < run->n_funcs; i++)
      cp_find_hotspots(run, &run->funcs[i], i);
  else if (r->n_errors == 0) {
    cp_convert_functions(run);
    if (r->n_errors == 0)
      cp_check_dropped(run);
  }
  for (unsigned i = 0; i < run->n_funcs; i++)
    memcpy(r->funcs[i].applied, run->funcs[i].applied, sizeof run->funcs[i].applied);
}

/* Rule `header` with --o-dir: a user header between an input and a header the run
 * writes converted (main.cu includes sim.h, which includes atom.h) is written too, as it
 * is, so that the output tree holds the whole chain; else sim.h, found in the input
 * tree, would include the unconverted atom.h beside it. */
typedef struct {
  cp_run *run;
  CXTranslationUnit tu;
} chain_ctx;

static int converted_header(cp_run *run, CXFile file) {
  CXFileUniqueID id, other;
  if (clang_getFileUniqueID(file, &id) != 0)
    return 0;
  for (unsigned i = run->n_inputs; i < run->n_units; i++) {
    cp_unit *u = run->units[i]; /* reached first through another input, perhaps */
    if (u->is_header && u->edits.count && u->p.main_file &&
        clang_getFileUniqueID(u->p.main_file, &other) == 0 && memcmp(&id, &other, sizeof id) == 0)
      return 1;
  }
  return 0;
}

static void chain_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth,
                            CXClientData data) {
  chain_ctx *c = data;
  if (depth < 2 || !converted_header(c->run, file))
    return;
  for (unsigned i = 0; i + 1 < depth; i++) { /* stack[depth - 1] is in the input itself */
    CXFile via = NULL;
    clang_getExpansionLocation(stack[i], &via, NULL, NULL, NULL);
    if (via && !clang_Location_isInSystemHeader(stack[i]))
      cp_unit_for_file(c->run, c->tu, via);
  }
}

static void add_include_chains(cp_run *run) {
  if (!run->units[0]->opt.edit_headers)
    return;
  for (unsigned i = 0; i < run->n_inputs; i++) {
    chain_ctx c = {run, run->units[i]->p.tu};
    clang_getInclusions(c.tu, chain_inclusion, &c);
  }
}

/* Applies each unit's edits; the outputs go to result->files. */
static void finish_files(cp_run *run) {
  cp_result *r = run->r;
  r->files = cp_arena_alloc(r->arena, (run->n_units + 1) * sizeof *r->files);
  r->n_files = run->n_units;
  for (unsigned i = 0; i < run->n_units; i++) {
    cp_unit *u = run->units[i];
    cp_file_result *f = &r->files[i];
    memset(f, 0, sizeof *f);
    f->path = u->opt.input;
    f->input_text = u->opt.input_text;
    f->input_len = u->opt.input_len;
    f->is_header = u->is_header;
    /* --profile: the sites numbered and the table declared after the runtime include (a
     * header with sites includes the runtime as one that defines converted code does);
     * the host compilation's view keeps its markers for the run it joins (add_host_view) */
    const char *nl = line_ending(f->input_text, f->input_len);
    const char *table = r->n_errors == 0 && !u->opt.host_view ? cp_prof_resolve(run, u, nl) : NULL;
    if (r->n_errors == 0)
      add_header(run, &u->edits, &u->opt, u->is_header && !u->has_funcs && !table);
    if (table)
      cp_edit_add(r->arena, &u->edits, bom_length(f->input_text, f->input_len), 0, table,
                  CP_RULE_PROFILE);
    if (r->n_errors == 0 && u->opt.line_directives)
      cp_add_line_directives(r->arena, &u->edits, f->input_text, f->input_len, f->path,
                             line_ending(f->input_text, f->input_len));
    r->applied[CP_RULE_LINE] += u->edits.per_rule[CP_RULE_LINE];
    f->edits = u->edits;
    const char *why = NULL;
    if (r->n_errors == 0 && cp_edit_apply(r->arena, &f->edits, f->input_text, f->input_len,
                                          &f->output, &f->output_len, &why) != 0) {
      cp_diag_add(r, CP_ERROR, f->path, 0, 0, NULL, "internal error: %s", why);
      f->output = NULL;
    }
  }
  if (run->n_units) {
    r->edits = r->files[0].edits;
    r->output = r->n_errors ? NULL : r->files[0].output;
    r->output_len = r->files[0].output_len;
  }
}

int cp_is_header_path(const char *path) {
  static const char *const ext[] = {".h", ".cuh", ".hpp", ".hh", ".hxx", ".inl"};
  const char *dot = strrchr(path, '.');
  for (size_t i = 0; dot && !strchr(dot, '/') && i < sizeof ext / sizeof ext[0]; i++)
    if (strcmp(dot, ext[i]) == 0)
      return 1;
  return 0;
}

/* A header given on the command line beside .cu files: clang cannot parse it alone (it
 * relies on what its includers declare before it), so it is not an input of its own but
 * a header unit, converted through the inputs that include it (run.c matches it by file
 * identity). Returns how many of opts[] are such headers; they are moved to the end. */
static unsigned header_inputs(const cp_options *opts, int n, const cp_options **order) {
  int sources = 0;
  for (int i = 0; i < n; i++)
    sources += !cp_is_header_path(opts[i].input);
  unsigned k = 0, h = (unsigned)sources;
  for (int i = 0; i < n; i++) {
    int hdr = sources > 0 && cp_is_header_path(opts[i].input);
    order[hdr ? h++ : k++] = &opts[i];
  }
  return sources > 0 ? (unsigned)(n - sources) : 0;
}

/* A header named on the command line that no input includes has nothing to be
 * converted through: say so, rather than write it unchanged. */
typedef struct {
  CXFileUniqueID id;
  CXFile found;
} find_ctx;

static void find_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth,
                           CXClientData data) {
  (void)stack;
  find_ctx *c = data;
  CXFileUniqueID id;
  if (depth > 0 && !c->found && clang_getFileUniqueID(file, &id) == 0 &&
      memcmp(&id, &c->id, sizeof id) == 0)
    c->found = file;
}

static void check_header_inputs(cp_run *run) {
  for (unsigned i = run->n_inputs; i < run->n_units; i++)
    for (unsigned k = 0; k < run->n_inputs && run->units[i]->is_header && !run->units[i]->p.tu;
         k++) { /* included, with nothing to convert: written as it is (with --o-dir) */
      CXTranslationUnit tu = run->units[k]->p.tu;
      CXFile file = tu ? clang_getFile(tu, run->units[i]->opt.input) : NULL;
      find_ctx c = {.found = NULL};
      if (file && clang_getFileUniqueID(file, &c.id) == 0)
        clang_getInclusions(tu, find_inclusion, &c);
      if (c.found)
        cp_unit_for_file(run, tu, c.found);
    }
  for (unsigned i = run->n_inputs; i < run->n_units; i++)
    if (run->units[i]->is_header && !run->units[i]->p.tu)
      cp_diag_add(run->r, CP_ERROR, run->units[i]->opt.input, 0, 0, NULL,
                  "'%s' is a header that none of the .cu files converted with it includes; "
                  "a header is converted through the files that include it, so give those "
                  "files too", run->units[i]->opt.input);
}

/* Whether offset `at` lies in one of the ranges a parse skipped. */
static int in_skipped(const CXSourceRangeList *sk, size_t at) {
  for (unsigned i = 0; sk && i < sk->count; i++) {
    unsigned b, e;
    clang_getExpansionLocation(clang_getRangeStart(sk->ranges[i]), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(sk->ranges[i]), NULL, NULL, NULL, &e);
    if (at >= b && at < e)
      return 1;
  }
  return 0;
}

/* A copy of the run's options for a second run: in device or host mode, without the
 * host-mode PCH (it does not fit a device parse, and a host-view run is a side run). */
static cp_options *rerun_options(const cp_options *opts, int n, int device, int host_view) {
  cp_options *o = malloc(((size_t)n + 1) * sizeof *o);
  for (int i = 0; o && i < n; i++) {
    o[i] = opts[i];
    o[i].device_parse = device;
    o[i].host_view = host_view;
    o[i].pch = NULL;
  }
  return o;
}

/* A run in device mode converts what the device compilation sees; the branches only the
 * host compilation takes (the #else of `#ifdef __CUDA_ARCH__`) are converted by a run of
 * the same files in host mode, whose edits inside those branches join this run's, in the
 * inputs and in the headers the run writes (a kernel defined in a header). Both
 * views of the result are verified (verify.c), so a disagreement is an error, never
 * silent; the host view of device code is compiled by nvcc's host pass but never run. */
/* A helper that converted code calls only inside a branch the device compilation skips
 * (the #else of a __CUDA_ARCH__ test): the device view does not convert it, or converts it
 * (annotated) without seeing a call, so its parameters take roles no call gave them (a
 * written `float *` paired where the call passes a composite array). The host view saw
 * the calls: its edits of the whole function, the twin written after it included, replace
 * the device view's. Not when the helper has __CUDA_ARCH__ branches of its own, which
 * one view alone sees: the device view's conversion stands, and where it does not convert
 * the helper at all, it is refused, located. */

/* Whether converted code of the device view calls g. */
static int calls_func(cp_run *run, const cp_node *n, const cp_func *g) {
  if (n->kind == CXCursor_CallExpr && cp_func_of(run, cp_callee(n->cur)) == g)
    return 1;
  for (unsigned i = 0; i < n->nkids; i++)
    if (calls_func(run, n->kids[i], g))
      return 1;
  return 0;
}

static int device_called(cp_run *run, const cp_func *g) {
  for (unsigned i = 0; i < run->n_funcs; i++)
    if (!run->funcs[i].is_host && run->funcs[i].body && calls_func(run, run->funcs[i].body, g))
      return 1;
  return 0;
}

/* Whether `name(` is written in a branch the device parse skipped, in any unit. */
static int called_in_skipped(cp_run *run, const char *name) {
  size_t n = strlen(name);
  int found = 0;
  for (unsigned u = 0; u < run->n_units && !found; u++) {
    cp_unit *unit = run->units[u];
    if (!unit->p.tu || !unit->p.main_file)
      continue;
    const char *t = unit->opt.input_text;
    CXSourceRangeList *sk = clang_getSkippedRanges(unit->p.tu, unit->p.main_file);
    for (unsigned i = 0; sk && i < sk->count && !found; i++) {
      unsigned b, e;
      clang_getExpansionLocation(clang_getRangeStart(sk->ranges[i]), NULL, NULL, NULL, &b);
      clang_getExpansionLocation(clang_getRangeEnd(sk->ranges[i]), NULL, NULL, NULL, &e);
      for (unsigned k = b; k + n < e && !found; k++) {
        unsigned j = k + (unsigned)n;
        while (j < e && (t[j] == ' ' || t[j] == '\t'))
          j++;
        found = memcmp(t + k, name, n) == 0 && (k == 0 || !(isalnum((unsigned char)t[k - 1]) ||
                                                            t[k - 1] == '_')) &&
                j < e && t[j] == '(';
      }
    }
    clang_disposeSourceRangeList(sk);
  }
  return found;
}

/* Edits at [b, e] (an insertion at e: the twin written after a function) out of a list. */
static void drop_edits(cp_edit_list *l, size_t b, size_t e) {
  size_t k = 0;
  for (size_t i = 0; i < l->count; i++)
    if (l->items[i].offset >= b && l->items[i].offset <= e)
      l->per_rule[l->items[i].rule]--;
    else
      l->items[k++] = l->items[i];
  l->count = k;
}

static int names_arch(const char *t, size_t b, size_t e) {
  for (size_t i = b; i + 13 <= e; i++)
    if (memcmp(t + i, "__CUDA_ARCH__", 13) == 0)
      return 1;
  return 0;
}

/* The host view's conversion of helper hf, where the device view saw no converted call of
 * it: taken whole (1), left to the device view (0), or refused (-1, said). */
static int take_host_helper(cp_run *run, const cp_result *h, const cp_func_stat *hf) {
  cp_unit *u = NULL;
  for (unsigned i = 0; i < run->n_units && !u; i++)
    if (run->units[i]->p.tu && strcmp(run->units[i]->opt.input, hf->file) == 0)
      u = run->units[i];
  CXTranslationUnit tu = u ? u->p.tu : NULL;
  CXFile file = u ? u->p.main_file : NULL;
  for (unsigned i = 0; i < run->n_inputs && !file; i++) /* a header the device view never */
    if ((tu = run->units[i]->p.tu))                      /* reached: the helper's calls are */
      file = clang_getFile(tu, hf->file);                /* all in skipped branches */
  if (!file)
    return 0;
  CXCursor fn = clang_getCursor(tu, clang_getLocation(tu, file, hf->line, hf->col));
  if (clang_getCursorKind(fn) != CXCursor_FunctionDecl || !clang_isCursorDefinition(fn))
    return 0;
  cp_func *g = cp_func_of(run, fn);
  if (g && (device_called(run, g) || !called_in_skipped(run, hf->name)))
    return 0; /* the device view has its calls, or neither view has any */
  if (!u && !(u = cp_unit_for_file(run, tu, file)))
    return 0; /* a header, without --o-dir: the host view did not convert it either */
  unsigned b = cp_extent_begin(fn), e = cp_extent_end(fn);
  if (names_arch(u->opt.input_text, b, e)) {
    if (g)
      return 0;
    cp_diag_add(run->r, CP_ERROR, cp_arena_strdup(run->r->arena, hf->file), hf->line, hf->col,
                NULL, "'%s' is called from converted code only inside a branch that CUDA's "
                "device compilation skips (the #else of a __CUDA_ARCH__ test), and has "
                "__CUDA_ARCH__ branches of its own: neither of CUDA's two compilations sees "
                "both the calls and the whole helper, so it cannot be converted; move its "
                "__CUDA_ARCH__ branches into its callers [%s]", hf->name,
                cp_rule_name(CP_RULE_AUTO_CONVERT));
    return -1;
  }
  drop_edits(&u->edits, b, e);
  for (size_t k = 0; k < h->n_files; k++)
    for (size_t i = 0; strcmp(h->files[k].path, hf->file) == 0 && i < h->files[k].edits.count; i++) {
      const cp_edit *ed = &h->files[k].edits.items[i];
      if (ed->offset >= b && ed->offset <= e && ed->rule != CP_RULE_HEADER)
        cp_edit_add(run->r->arena, &u->edits, ed->offset, ed->length,
                    cp_arena_strdup(run->r->arena, ed->text), ed->rule);
    }
  u->has_funcs |= u->is_header; /* it now defines converted code: it includes cp.cuh */
  return 1;
}

/* The host view's notes and warnings at a helper taken from it (take_host_helper). */
static void host_helper_diags(cp_run *run, const cp_result *h, const cp_func_stat *hf) {
  for (size_t i = 0; i < h->n_diags; i++) {
    const cp_diag *d = &h->diags[i];
    if (d->severity != CP_ERROR && d->file && strcmp(d->file, hf->file) == 0 &&
        d->line == hf->line)
      cp_diag_add(run->r, d->severity, cp_arena_strdup(run->r->arena, d->file), d->line, d->col,
                  d->line_text ? cp_arena_strdup(run->r->arena, d->line_text) : NULL,
                  "%s (in the host compilation's view)", d->message);
  }
}

/* Whether helper hf lies in a branch the device parse skipped (defined under
 * `#if !defined(__CUDA_ARCH__) || ...`): the host view's edits of that branch, the helper's
 * conversion among them, join the run's as every skipped branch's do. */
static int skipped_helper(cp_run *run, const cp_func_stat *hf) {
  for (unsigned i = 0; i < run->n_units; i++) {
    cp_unit *u = run->units[i];
    if (!u->p.tu || !u->p.main_file || strcmp(u->opt.input, hf->file) != 0)
      continue;
    unsigned at = 0;
    clang_getExpansionLocation(clang_getLocation(u->p.tu, u->p.main_file, hf->line, hf->col),
                               NULL, NULL, NULL, &at);
    CXSourceRangeList *sk = clang_getSkippedRanges(u->p.tu, u->p.main_file);
    int in = in_skipped(sk, at);
    clang_disposeSourceRangeList(sk);
    return in;
  }
  return 0;
}

/* Every device function the host view converts: those only its calls reach come from it. */
static int host_only_helpers(cp_run *run, const cp_result *h) {
  int refused = 0;
  for (size_t i = 0; i < h->n_funcs; i++) {
    const cp_func_stat *hf = &h->funcs[i];
    if (hf->kind != 0)
      continue;
    size_t k = 0;
    while (k < run->r->n_funcs &&
           (strcmp(run->r->funcs[k].name, hf->name) != 0 || run->r->funcs[k].line != hf->line ||
            strcmp(run->r->funcs[k].file, hf->file) != 0))
      k++;
    int taken = take_host_helper(run, h, hf);
    refused |= taken < 0;
    if ((taken > 0 || (taken == 0 && skipped_helper(run, hf))) && k == run->r->n_funcs)
      host_helper_diags(run, h, hf);
  }
  return refused;
}

/* The declaration offsets of the locals this (device) view carries as accumulate() says,
 * in the input `input`: the host view carries them too (accum.c). */
static void carried_locals(cp_run *run, cp_options *o) {
  size_t count = 0, cap = 8;
  unsigned *offs = cp_arena_alloc(run->r->arena, cap * sizeof *offs);
  for (unsigned i = 0; i < run->n_funcs; i++) {
    const cp_func *f = &run->funcs[i];
    if (!f->unit || strcmp(f->unit->opt.input, o->input) != 0)
      continue;
    for (unsigned k = 0; k < f->n_vars; k++) {
      CXSourceLocation loc = clang_getCursorLocation(f->vars[k].decl);
      unsigned off = 0;
      if (f->vars[k].role != CP_VAR_ACCUM || !clang_Location_isFromMainFile(loc))
        continue;
      clang_getExpansionLocation(loc, NULL, NULL, NULL, &off);
      if (count == cap) {
        unsigned *more = cp_arena_alloc(run->r->arena, 2 * cap * sizeof *more);
        memcpy(more, offs, cap * sizeof *offs);
        offs = more;
        cap *= 2;
      }
      offs[count++] = off;
    }
  }
  o->carried = offs;
  o->n_carried = count;
}

/* Whether the host view converts a function of `path` inside a range `sk` lists. */
static int defines_in(const cp_result *h, const char *path, CXTranslationUnit tu, CXFile file,
                      const CXSourceRangeList *sk) {
  for (size_t i = 0; i < h->n_funcs; i++) {
    unsigned at = 0;
    if (strcmp(h->funcs[i].file, path) != 0)
      continue;
    clang_getExpansionLocation(clang_getLocation(tu, file, h->funcs[i].line, h->funcs[i].col),
                               NULL, NULL, NULL, &at);
    if (in_skipped(sk, at))
      return 1;
  }
  return 0;
}

/* A header whose code only the host compilation sees (helpers defined under
 * `#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 300`) and which the device view has no
 * other reason to write: the host view's edits there need its unit. A header unit that
 * gains functions so includes the runtime, as one that defines them does. */
static void host_view_headers(cp_run *run, const cp_result *h) {
  for (size_t k = 0; k < h->n_files; k++) {
    const cp_file_result *hf = &h->files[k];
    CXTranslationUnit tu = NULL;
    CXFile file = NULL;
    for (unsigned i = 0; i < run->n_inputs && !file && hf->is_header; i++)
      if ((tu = run->units[i]->p.tu))
        file = clang_getFile(tu, hf->path);
    if (!file)
      continue;
    CXSourceRangeList *sk = clang_getSkippedRanges(tu, file);
    int skipped = 0;
    for (size_t e = 0; e < hf->edits.count && !skipped; e++) {
      const cp_edit *ed = &hf->edits.items[e];
      skipped = ed->rule != CP_RULE_HEADER && in_skipped(sk, ed->offset);
    }
    cp_unit *u = skipped ? cp_unit_for_file(run, tu, file) : NULL;
    if (u && u->is_header && !u->has_funcs)
      u->has_funcs = defines_in(h, hf->path, tu, file, sk);
    clang_disposeSourceRangeList(sk);
  }
}

static void add_host_view(cp_run *run, const cp_options *opts, int n) {
  cp_options *host = rerun_options(opts, n, 0, 1);
  if (!host)
    return;
  for (int i = 0; i < n; i++)
    carried_locals(run, &host[i]);
  cp_result *h = cp_convert_joint(host, n, NULL);
  if (h->n_errors == 0)
    host_view_headers(run, h);
  if (h->n_errors == 0 && host_only_helpers(run, h)) {
    cp_result_free(h);
    free(host);
    return;
  }
  for (size_t i = 0; i < h->n_diags; i++) /* its errors are the run's: nothing is merged */
    if (h->diags[i].severity == CP_ERROR)
      cp_diag_add(run->r, CP_ERROR,
                  h->diags[i].file ? cp_arena_strdup(run->r->arena, h->diags[i].file) : NULL,
                  h->diags[i].line, h->diags[i].col,
                  h->diags[i].line_text ? cp_arena_strdup(run->r->arena, h->diags[i].line_text)
                                        : NULL,
                  "%s (in the host compilation's view)", h->diags[i].message);
  for (unsigned u = 0; h->n_errors == 0 && u < run->n_units; u++) { /* headers too */
    cp_unit *unit = run->units[u];
    if (!unit->p.tu || !unit->p.main_file)
      continue;
    CXSourceRangeList *sk = clang_getSkippedRanges(unit->p.tu, unit->p.main_file);
    for (size_t k = 0; k < h->n_files; k++) {
      if (strcmp(unit->opt.input, h->files[k].path) != 0)
        continue;
      for (size_t e = 0; e < h->files[k].edits.count; e++) {
        const cp_edit *ed = &h->files[k].edits.items[e];
        if (ed->rule != CP_RULE_HEADER && in_skipped(sk, ed->offset))
          cp_edit_add(run->r->arena, &unit->edits, ed->offset, ed->length,
                      cp_arena_strdup(run->r->arena, ed->text), ed->rule);
      }
    }
    clang_disposeSourceRangeList(sk);
  }
  cp_result_free(h);
  free(host);
}

/* A converted function has code only CUDA's device compilation sees (`#if __CUDA_ARCH__`):
 * the run starts again with every input parsed as the device compilation parses it, so
 * that code converts (the host compilation's view is checked by verify.c too). The
 * host-mode PCH does not fit that parse. */
static cp_result *convert_for_device(cp_result *first, const cp_options *opts, int n) {
  cp_options *dev = rerun_options(opts, n, 1, 0);
  if (!dev)
    return first;
  cp_result_free(first);
  cp_result *r = cp_convert_joint(dev, n, NULL);
  free(dev);
  r->device_view = 1;
  return r;
}

cp_result *cp_convert_joint(const cp_options *opts, int n, cp_links *links) {
  cp_arena *arena = cp_arena_new();
  cp_result *r = cp_arena_alloc(arena, sizeof *r);
  memset(r, 0, sizeof *r);
  r->arena = arena;
  cp_run run;
  memset(&run, 0, sizeof run);
  run.r = r;
  const cp_options **order = cp_arena_alloc(arena, ((size_t)n + 1) * sizeof *order);
  unsigned n_headers = header_inputs(opts, n, order);
  for (int i = 0; i < n; i++) {
    cp_unit *u = cp_unit_new(&run);
    u->opt = *order[i];
    u->is_header = i >= n - (int)n_headers;
    if (already_converted(order[i]))
      cp_diag_add(r, CP_ERROR, order[i]->input, 1, 1,
                  cp_line_at(arena, order[i]->input_text, order[i]->input_len, 0),
                  "this file is an output of cpconvert; convert the original file instead");
  }
  run.n_inputs = (unsigned)n - n_headers;
  run.settings = &run.units[0]->opt;
  for (unsigned i = 0; i < run.n_inputs && r->n_errors == 0; i++) {
    if (opts[0].progress && !opts[0].host_view)
      opts[0].progress(opts[0].progress_ctx, opts[0].device_parse ? "parse (device view)" : "parse",
                       run.units[i]->opt.input, i + 1, run.n_inputs);
    run.units[i]->parsed = cp_parse_open(&run.units[i]->p, &run.units[i]->opt, r) == 0;
  }
  if (r->n_errors == 0) {
    run_stages(&run);
    check_header_inputs(&run);
  }
  for (unsigned i = 0; i < run.n_inputs; i++) /* after errors too: files the tool never writes */
    if (run.units[i]->p.tu)
      cp_parse_deps(&run.units[i]->p, r);
  int retry = run.wants_device && !opts[0].device_parse && !opts[0].host_view;
  if (r->n_errors == 0 && !opts[0].suggest && !retry) {
    if (opts[0].device_parse)
      add_host_view(&run, opts, n);
    add_include_chains(&run);
    finish_files(&run);
    if (!opts[0].host_view)
      cp_verify_outputs(&run);
    if (r->n_errors)
      r->output = NULL;
  }
  for (unsigned i = 0; links && i < run.n_inputs; i++)
    cp_unit_links(run.units[i], &links[i]);
  for (unsigned i = 0; i < run.n_inputs; i++)
    cp_parse_close(&run.units[i]->p);
  if (retry)
    return convert_for_device(r, opts, n);
  sort_diags(r, opts[0].input);
  return r;
}

void cp_result_free(cp_result *r) {
  if (r)
    cp_arena_free(r->arena);
}
