/*
 * explain_html.c: the error budget as one self-contained HTML page (--explain PROFILE
 * -o FILE.html): inline CSS, one inline SVG bar chart per output (where its error comes
 * from, and where composite kept the most), the same lists as the text with their fixes,
 * and the keep() candidates. No script, font, image or style sheet is fetched: the page
 * reads the same offline, attached to a bug report or archived with a run.
 *
 * Bars scale within their group: drops by count x mean ulps, inputs and unconverted
 * readers by count, store and var sites by nonzero/count x mean ulps (different units,
 * never drawn against each other).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdlib.h>
#include <string.h>

#include "explain.h"

enum { CHART_ROWS = 12, ROW_H = 18, LABEL_W = 330, BAR_W = 300, CHART_W = 760 };

/* Text as HTML text or attribute value. */
static void hesc(FILE *out, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&#39;", out); break;
    default: fputc(*s, out);
    }
  }
}

static const char *const style =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:62em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;font-family:monospace}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;text-align:left;"
    "vertical-align:top}th{border-bottom:1px solid #999}td.n{text-align:right;"
    "font-variant-numeric:tabular-nums}td.fix{color:#555;font-style:italic}"
    "code,td.loc{font-family:monospace}svg text{font:12px monospace}"
    ".lost{fill:#c0392b}.kept{fill:#2e86c1}.input{fill:#d68910}.unconverted{fill:#7d3c98}";

/* The largest score among items [0, n) of l of the same group as item k. */
static double group_max(const cp_budget_list *l, size_t n, size_t k) {
  double m = 0;
  for (size_t i = 0; i < n; i++)
    if (l->at[i].site->kind == l->at[k].site->kind && l->at[i].score > m)
      m = l->at[i].score;
  return m;
}

static const char *bar_class(const cp_site *s) {
  return s->kind == CP_SITE_INPUT         ? "input"
         : s->kind == CP_SITE_UNCONVERTED ? "unconverted"
         : s->kind == CP_SITE_DROP        ? "lost"
                                          : "kept";
}

/* What a bar shows on hover: the site, and for a lost one its fix. */
static void bar_title(FILE *out, const cp_budget_item *it) {
  char text[800], fix[640] = "";
  const cp_site *s = it->site;
  if (s->kind == CP_SITE_DROP || s->kind == CP_SITE_INPUT || s->kind == CP_SITE_UNCONVERTED)
    cp_budget_fix(s, fix, sizeof fix);
  snprintf(text, sizeof text, "%s:%u: %s %s in %s%s%s", s->file, s->line,
           cp_site_kind_names[s->kind], s->name, *s->function ? s->function : "?",
           *fix ? "; fix: " : "", fix);
  hesc(out, text);
}

/* One panel of the chart from y on: a title and a bar per item; returns the y after it. */
static int panel(FILE *out, const char *title, const cp_budget_list *l, int y) {
  fprintf(out, "<text x=\"0\" y=\"%d\" font-weight=\"bold\">", y + 13);
  hesc(out, title);
  fputs(l->n ? "</text>\n" : " (none)</text>\n", out);
  y += ROW_H + 4;
  size_t n = l->n < CHART_ROWS ? l->n : CHART_ROWS;
  for (size_t i = 0; i < n; i++, y += ROW_H) {
    const cp_site *s = l->at[i].site;
    double m = group_max(l, n, i), w = m > 0 ? BAR_W * l->at[i].score / m : 0;
    char label[256], v[32];
    snprintf(label, sizeof label, "%s:%u %s %s", s->file, s->line, cp_site_kind_names[s->kind],
             s->name);
    if (s->kind == CP_SITE_INPUT || s->kind == CP_SITE_UNCONVERTED)
      snprintf(v, sizeof v, "%.0fx", s->count);
    else
      cp_fmt3(v, sizeof v, l->at[i].score);
    size_t n_label = strlen(label); /* 45 characters fill LABEL_W: a long path by its end */
    fprintf(out, "<text x=\"0\" y=\"%d\">%s", y + 13, n_label > 45 ? "..." : "");
    hesc(out, n_label > 45 ? label + n_label - 42 : label);
    fprintf(out, "</text><rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\">"
                 "<title>", bar_class(s), LABEL_W, y + 3, w < 1 ? 1 : w, ROW_H - 5);
    bar_title(out, &l->at[i]);
    fprintf(out, "</title></rect><text x=\"%.1f\" y=\"%d\">%s</text>\n",
            LABEL_W + (w < 1 ? 1 : w) + 6, y + 13, v);
  }
  return y + 8;
}

/* The chart of one output (or of the global budget): where error enters, where composite
 * kept the most. */
static void chart(FILE *out, const cp_budget_output *o) {
  size_t rows = (o->lost.n < CHART_ROWS ? o->lost.n : CHART_ROWS) +
                (o->kept.n < CHART_ROWS ? o->kept.n : CHART_ROWS);
  int h = (int)(rows + 2) * ROW_H + 2 * (4 + 8) + 4;
  fprintf(out, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", CHART_W,
          h, CHART_W, h);
  int y = panel(out, "where error enters that composite cannot remove", &o->lost, 0);
  panel(out, "where composite kept the most (nonzero/count x mean ulps)", &o->kept, y);
  fputs("</svg>\n", out);
}

static void table(FILE *out, const cp_budget_list *l, int lost) {
  if (!l->n)
    return;
  fputs("<table><tr><th>where</th><th>site</th><th>function</th><th>score</th>"
        "<th>count</th><th>nonzero</th><th>mean ulps</th><th>max ulps</th></tr>\n", out);
  for (size_t i = 0; i < l->n; i++) {
    const cp_site *s = l->at[i].site;
    char v[5][32];
    cp_fmt3(v[0], sizeof v[0], l->at[i].score);
    snprintf(v[1], sizeof v[1], "%.0f", s->count);
    snprintf(v[2], sizeof v[2], "%.0f", s->nonzero);
    cp_fmt3(v[3], sizeof v[3], s->ulps_mean);
    cp_fmt3(v[4], sizeof v[4], s->ulps_max);
    fputs("<tr><td class=\"loc\">", out);
    hesc(out, s->file);
    fprintf(out, ":%u</td><td>%s <code>", s->line, cp_site_kind_names[s->kind]);
    hesc(out, s->name);
    fputs("</code></td><td><code>", out);
    hesc(out, s->function);
    fputs(l->at[i].shared ? "</code> (helper: every output)" : "</code>", out);
    fputs("</td>", out);
    for (int k = 0; k < 5; k++)
      fprintf(out, "<td class=\"n\">%s</td>", k >= 2 && s->kind >= CP_SITE_LAUNCH ? "" : v[k]);
    fputs("</tr>\n", out);
    if (lost) {
      char fix[640];
      cp_budget_fix(s, fix, sizeof fix);
      fputs("<tr><td></td><td class=\"fix\" colspan=\"7\">fix: ", out);
      hesc(out, fix);
      fputs("</td></tr>\n", out);
    }
  }
  fputs("</table>\n", out);
}

static void names(FILE *out, const char *what, const char *const *list, size_t n) {
  fprintf(out, "%s", what);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ", <code>" : " <code>", out);
    hesc(out, list[i]);
    fputs("</code>", out);
  }
  if (!n)
    fputs(" none", out);
}

static void output_section(FILE *out, const cp_budget_output *o) {
  const cp_site *s = o->site;
  char pct[32], mx[32], rms[32];
  cp_fmt3(pct, sizeof pct, 100 * o->changed_fraction);
  cp_fmt3(mx, sizeof mx, s->rel_max);
  cp_fmt3(rms, sizeof rms, s->rel_rms);
  fputs("<section>\n<h2>", out);
  hesc(out, s->file);
  fprintf(out, ":%u: output ", s->line);
  hesc(out, o->buffer);
  fprintf(out, "</h2>\n<p>Composite changed %s%% of %.0f elements (%.0f recombination%s); "
          "|e/v| max %s, rms %s.<br>", pct, s->elements, s->copies, s->copies == 1 ? "" : "s",
          mx, rms);
  names(out, "Fed by kernels", o->kernels, o->n_kernels);
  names(out, "; buffers", o->buffers, o->n_buffers);
  fputs(".</p>\n", out);
  chart(out, o);
  fputs("<h3>Where error enters that composite cannot remove</h3>\n", out);
  table(out, &o->lost, 1);
  fputs("<h3>Where composite kept the most</h3>\n", out);
  table(out, &o->kept, 0);
  fputs("</section>\n", out);
}

static void keep_section(FILE *out, const cp_budget *b) {
  if (!b->keep.n)
    return;
  fputs("<section>\n<h2>Converted variables whose error never reached an output</h2>\n"
        "<table><tr><th>where</th><th>site</th><th>count</th><th>why</th><th>suggestion</th>"
        "</tr>\n", out);
  for (size_t i = 0; i < b->keep.n; i++) {
    const cp_site *s = b->keep.at[i].site;
    fputs("<tr><td class=\"loc\">", out);
    hesc(out, s->file);
    fprintf(out, ":%u</td><td>%s <code>", s->line, cp_site_kind_names[s->kind]);
    hesc(out, s->name);
    fprintf(out, "</code></td><td class=\"n\">%.0f</td><td>%s</td><td><code>keep(", s->count,
            b->keep.at[i].unreached ? "its error reaches no recombined output"
                                    : "never an error term");
    hesc(out, s->name);
    fputs(")</code> in <code>", out);
    hesc(out, s->function);
    fputs("</code></td></tr>\n", out);
  }
  fputs("</table>\n</section>\n", out);
}

char *cp_budget_html(const cp_budget *b, size_t *len) {
  char *text = NULL;
  FILE *out = open_memstream(&text, len);
  if (!out)
    return NULL;
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error "
        "budget: ", out);
  hesc(out, b->path);
  fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>Error budget of <code>", style);
  hesc(out, b->path);
  fprintf(out, "</code></h1>\n<p>%zu output%s, %zu sites; ", b->n_outputs,
          b->n_outputs == 1 ? "" : "s", b->n_sites);
  if (b->processes > 0)
    fprintf(out, "%.0f process%s; ", b->processes, b->processes == 1 ? "" : "es");
  if (b->sample > 1)
    fprintf(out, "1 execution in %.0f recorded (device counts are sampled)", b->sample);
  else
    fputs("every execution recorded", out);
  fputs("; backend ", out);
  hesc(out, *b->backend ? b->backend : "?");
  fputs(", tier ", out);
  hesc(out, *b->tier ? b->tier : "?");
  fputs(".</p>\n", out);
  for (size_t i = 0; i < b->n_outputs; i++)
    output_section(out, &b->outputs[i]);
  if (!b->n_outputs) {
    fputs("<section>\n<h2>No recombine site: the budget of every site</h2>\n", out);
    chart(out, &b->global);
    table(out, &b->global.lost, 1);
    table(out, &b->global.kept, 0);
    fputs("</section>\n", out);
  }
  keep_section(out, b);
  fputs("</body>\n</html>\n", out);
  fclose(out);
  return text;
}
