/*
 * explain_print.c: the error budget (explain.c) as text, the way a compiler tool prints,
 * or as one JSON document (--diagnostics-format json; its schema is in docs/profile.md,
 * "The error budget").
 *
 * Text: one block per output, most changed first; every site row starts with FILE:LINE:
 * so that editors jump there, the columns aligned per list, numbers with 3 significant
 * digits. A list shows its first TEXT_ROWS rows and says how many more the JSON holds.
 */
#include <stdlib.h>
#include <string.h>

#include "explain.h"

enum { TEXT_ROWS = 8, CELLS = 6, CELL = 192 };

void cp_fmt3(char *buf, size_t size, double v) {
  if (v == 0) {
    snprintf(buf, size, "0");
    return;
  }
  snprintf(buf, size, "%#.3g", v);
  size_t n = strlen(buf);
  if (n && buf[n - 1] == '.')
    buf[n - 1] = '\0';
}

static const char *kind_name(const cp_site *s) { return cp_site_kind_names[s->kind]; }

/* ---- text --------------------------------------------------------------------------- */

typedef struct {
  char cell[CELLS][CELL];
  char fix[640];
} row;

/* What a row says after its score. */
static void detail(const cp_budget_item *it, char *buf, size_t size) {
  const cp_site *s = it->site;
  char m[32], x[32];
  cp_fmt3(m, sizeof m, s->ulps_mean);
  cp_fmt3(x, sizeof x, s->ulps_max);
  if (s->kind == CP_SITE_STORE || s->kind == CP_SITE_VAR)
    snprintf(buf, size, "%.0f of %.0f nonzero, mean %s ulp, max %s%s", s->nonzero, s->count, m,
             x, it->shared ? "; device helper: in every output" : "");
  else if (s->kind == CP_SITE_DROP)
    snprintf(buf, size, "%.0f x %s ulp, %s%s%s", s->count, m,
             strcmp(s->why, "call") == 0    ? "passed to "
             : strcmp(s->why, "store") == 0 ? "stored unpaired"
                                            : "converted",
             strcmp(s->why, "call") == 0 ? s->call : "",
             it->shared ? "; device helper: in every output" : "");
  else if (s->kind == CP_SITE_INPUT)
    snprintf(buf, size, "copied in %.0f times (%.0f bytes)", s->count, s->bytes);
  else
    snprintf(buf, size, "passed to %s %.0f times", s->call, s->count);
}

static void fill_row(row *r, const cp_budget_item *it, int lost) {
  const cp_site *s = it->site;
  snprintf(r->cell[0], CELL, "%s:%u:", *s->file ? s->file : "?", s->line);
  snprintf(r->cell[1], CELL, "%s", kind_name(s));
  snprintf(r->cell[2], CELL, "%s", *s->name ? s->name : "-");
  snprintf(r->cell[3], CELL, "%s%s", *s->function ? "in " : "", s->function);
  if (s->kind == CP_SITE_INPUT || s->kind == CP_SITE_UNCONVERTED)
    snprintf(r->cell[4], CELL, "%.0fx", s->count);
  else
    cp_fmt3(r->cell[4], CELL, it->score);
  detail(it, r->cell[5], CELL);
  r->fix[0] = '\0';
  if (lost)
    cp_budget_fix(s, r->fix, sizeof r->fix);
}

static void print_rows(FILE *out, const row *rows, size_t n) {
  size_t w[CELLS] = {0};
  for (size_t i = 0; i < n; i++)
    for (int c = 0; c < CELLS; c++)
      if (strlen(rows[i].cell[c]) > w[c])
        w[c] = strlen(rows[i].cell[c]);
  for (size_t i = 0; i < n; i++) {
    for (int c = 0; c < CELLS - 1; c++)
      fprintf(out, c == 4 ? "%*s  " : "%-*s ", (int)w[c], rows[i].cell[c]);
    fprintf(out, "%s\n", rows[i].cell[CELLS - 1]);
    if (rows[i].fix[0])
      fprintf(out, "    fix: %s\n", rows[i].fix);
  }
}

/* A list under its heading: its first TEXT_ROWS rows, or `none` when it is empty. */
static void print_list(FILE *out, const char *heading, const cp_budget_list *l, int lost,
                       const char *none) {
  if (!l->n) {
    fprintf(out, "  %s: none (%s)\n", heading, none);
    return;
  }
  fprintf(out, "  %s:\n", heading);
  size_t n = l->n < TEXT_ROWS ? l->n : TEXT_ROWS;
  row *rows = calloc(n, sizeof *rows);
  for (size_t i = 0; i < n; i++)
    fill_row(&rows[i], &l->at[i], lost);
  print_rows(out, rows, n);
  free(rows);
  if (l->n > n)
    fprintf(out, "  ... and %zu more (--diagnostics-format json lists them all)\n", l->n - n);
}

static void print_names(FILE *out, const char *what, const char *const *names, size_t n) {
  fprintf(out, "%s", what);
  for (size_t i = 0; i < n; i++)
    fprintf(out, "%s%s", i ? ", " : " ", names[i]);
  if (!n)
    fprintf(out, " none");
}

static void print_output(FILE *out, const cp_budget_output *o) {
  const cp_site *s = o->site;
  char pct[32], mx[32], rms[32];
  cp_fmt3(pct, sizeof pct, 100 * o->changed_fraction);
  cp_fmt3(mx, sizeof mx, s->rel_max);
  cp_fmt3(rms, sizeof rms, s->rel_rms);
  fprintf(out, "\n%s:%u: output %s: composite changed %s%% of %.0f elements (%.0f "
          "recombination%s); |e/v| max %s, rms %s\n", *s->file ? s->file : "?", s->line,
          o->buffer, pct, s->elements, s->copies, s->copies == 1 ? "" : "s", mx, rms);
  print_names(out, o->unattributed ? "  fed by (no launch names its buffer, so every "
                                      "launched kernel counts) kernels" : "  fed by kernels",
              o->kernels, o->n_kernels);
  print_names(out, "; buffers", o->buffers, o->n_buffers);
  fputc('\n', out);
  print_list(out, "where composite kept the most (nonzero/count x mean ulps)", &o->kept, 0,
             "no store or var site feeding it had an error term");
  print_list(out, "where error enters that composite cannot remove (count x mean ulps; inputs "
             "and unconverted readers by count)", &o->lost, 1,
             "no drop, float input copied more than once or unconverted reader");
}

static void print_keep(FILE *out, const cp_budget *b) {
  if (!b->keep.n)
    return;
  fprintf(out, "\nconverted variables whose error never reached an output (keep(NAME) in "
          "FUNCTION leaves a variable float, nopair(NAME) a buffer):\n");
  row *rows = calloc(b->keep.n, sizeof *rows);
  for (size_t i = 0; i < b->keep.n; i++) {
    const cp_site *s = b->keep.at[i].site;
    fill_row(&rows[i], &b->keep.at[i], 0);
    snprintf(rows[i].cell[4], CELL, "%.0f", s->count);
    snprintf(rows[i].cell[5], CELL, "%s: %s(%s) in %s",
             b->keep.at[i].unreached ? "its error reaches no recombined output"
                                     : "never an error term",
             s->kind == CP_SITE_STORE ? "nopair" : "keep", s->name,
             *s->function ? s->function : "?");
  }
  print_rows(out, rows, b->keep.n);
  free(rows);
}

void cp_budget_print_text(FILE *out, const cp_budget *b) {
  char sample[64] = "every execution recorded";
  if (b->sample > 1)
    snprintf(sample, sizeof sample, "1 execution in %.0f recorded (device counts are sampled)",
             b->sample);
  char procs[48] = "";
  if (b->processes > 0)
    snprintf(procs, sizeof procs, "%.0f process%s, ", b->processes,
             b->processes == 1 ? "" : "es");
  fprintf(out, "%s: %zu output%s, %zu sites; %s%s%s%s%s%s\n", b->path, b->n_outputs,
          b->n_outputs == 1 ? "" : "s", b->n_sites, procs, sample,
          *b->backend ? ", backend " : "", b->backend, *b->tier ? ", tier " : "", b->tier);
  for (size_t i = 0; i < b->n_outputs; i++)
    print_output(out, &b->outputs[i]);
  if (!b->n_outputs) {
    fprintf(out, "\nno recombine site: the budget of every site\n");
    print_list(out, "where composite kept the most (nonzero/count x mean ulps)", &b->global.kept,
               0, "no store or var site had an error term");
    print_list(out, "where error enters that composite cannot remove (count x mean ulps; "
               "inputs and unconverted readers by count)", &b->global.lost, 1,
               "no drop, float input copied more than once or unconverted reader");
  }
  print_keep(out, b);
}

/* ---- JSON --------------------------------------------------------------------------- */

static void jstr(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

/* The shortest of %.15g, %.16g, %.17g that reads back as v. */
static void jnum(FILE *out, double v) {
  char buf[40];
  for (int p = 15; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*g", p, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  fputs(buf, out);
}

static void jfield(FILE *out, const char *key, double v) {
  fprintf(out, ", \"%s\": ", key);
  jnum(out, v);
}

static void jitem(FILE *out, const cp_budget_item *it, int lost, int keep) {
  const cp_site *s = it->site;
  char fix[640];
  fprintf(out, "{\"kind\": \"%s\", \"file\": ", kind_name(s));
  jstr(out, s->file);
  fprintf(out, ", \"line\": %u, \"function\": ", s->line);
  jstr(out, s->function);
  fputs(", \"name\": ", out);
  jstr(out, s->name);
  if (s->kind == CP_SITE_DROP || s->kind == CP_SITE_UNCONVERTED) {
    fputs(s->kind == CP_SITE_DROP ? ", \"why\": " : "", out);
    if (s->kind == CP_SITE_DROP)
      jstr(out, *s->why ? s->why : "convert");
    fputs(", \"call\": ", out);
    jstr(out, s->call);
  }
  jfield(out, "count", s->count);
  if (s->kind == CP_SITE_STORE || s->kind == CP_SITE_VAR || s->kind == CP_SITE_DROP) {
    jfield(out, "nonzero", s->nonzero);
    jfield(out, "ulps_max", s->ulps_max);
    jfield(out, "ulps_mean", s->ulps_mean);
  }
  if (s->kind == CP_SITE_INPUT)
    jfield(out, "bytes", s->bytes);
  if (!keep)
    jfield(out, "score", it->score);
  fprintf(out, ", \"shared\": %s", it->shared ? "true" : "false");
  if (lost) {
    cp_budget_fix(s, fix, sizeof fix);
    fputs(", \"fix\": ", out);
    jstr(out, fix);
  }
  if (keep) {
    fprintf(out, ", \"reason\": \"%s\", \"suggestion\": ",
            it->unreached ? "reaches no output" : "no error term");
    char keep_clause[512];
    snprintf(keep_clause, sizeof keep_clause, "%s(%s) in %s",
             s->kind == CP_SITE_STORE ? "nopair" : "keep", s->name, s->function);
    jstr(out, keep_clause);
  }
  fputc('}', out);
}

static void jlist(FILE *out, const char *key, const cp_budget_list *l, int lost, int keep,
                  const char *indent) {
  fprintf(out, "%s\"%s\": [", indent, key);
  for (size_t i = 0; i < l->n; i++) {
    fprintf(out, "%s\n%s  ", i ? "," : "", indent);
    jitem(out, &l->at[i], lost, keep);
  }
  if (l->n)
    fprintf(out, "\n%s", indent);
  fputc(']', out);
}

static void jnames(FILE *out, const char *key, const char *const *names, size_t n) {
  fprintf(out, ", \"%s\": [", key);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ", " : "", out);
    jstr(out, names[i]);
  }
  fputc(']', out);
}

static void joutput(FILE *out, const cp_budget_output *o) {
  const cp_site *s = o->site;
  fputs("    {\"file\": ", out);
  jstr(out, s->file);
  fprintf(out, ", \"line\": %u, \"function\": ", s->line);
  jstr(out, s->function);
  fputs(", \"name\": ", out);
  jstr(out, s->name);
  fputs(", \"buffer\": ", out);
  jstr(out, o->buffer);
  fputs(",\n     ", out);
  fputs("\"copies\": ", out);
  jnum(out, s->copies);
  jfield(out, "elements", s->elements);
  jfield(out, "changed", s->changed);
  jfield(out, "changed_fraction", o->changed_fraction);
  jfield(out, "rel_max", s->rel_max);
  jfield(out, "rel_rms", s->rel_rms);
  fprintf(out, ",\n     \"unattributed\": %s", o->unattributed ? "true" : "false");
  fputs(",\n     \"kernels\": [", out);
  for (size_t i = 0; i < o->n_kernels; i++) {
    fputs(i ? ", " : "", out);
    jstr(out, o->kernels[i]);
  }
  fputc(']', out);
  jnames(out, "buffers", o->buffers, o->n_buffers);
  fputs(",\n", out);
  jlist(out, "kept", &o->kept, 0, 0, "     ");
  fputs(",\n", out);
  jlist(out, "lost", &o->lost, 1, 0, "     ");
  fputc('}', out);
}

void cp_budget_print_json(FILE *out, const cp_budget *b) {
  fputs("{\n  \"format\": \"cp_budget\",\n  \"version\": 1,\n  \"profile\": ", out);
  jstr(out, b->path);
  fputs(",\n  \"job\": ", out);
  jstr(out, b->job);
  fputs(", \"processes\": ", out);
  jnum(out, b->processes);
  jfield(out, "sample", b->sample);
  fputs(", \"backend\": ", out);
  jstr(out, b->backend);
  fputs(", \"tier\": ", out);
  jstr(out, b->tier);
  fprintf(out, ", \"sites\": %zu,\n  \"outputs\": [", b->n_sites);
  for (size_t i = 0; i < b->n_outputs; i++) {
    fputs(i ? ",\n" : "\n", out);
    joutput(out, &b->outputs[i]);
  }
  fputs(b->n_outputs ? "\n  ],\n  \"global\": " : "],\n  \"global\": ", out);
  if (b->n_outputs) {
    fputs("null", out);
  } else {
    fputs("{\n", out);
    jlist(out, "kept", &b->global.kept, 0, 0, "    ");
    fputs(",\n", out);
    jlist(out, "lost", &b->global.lost, 1, 0, "    ");
    fputs("}", out);
  }
  fputs(",\n", out);
  jlist(out, "keep", &b->keep, 0, 1, "  ");
  fputs("\n}\n", out);
}
