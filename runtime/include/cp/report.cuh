/* cp/report.cuh - the error report: what the error terms held when they were added in.
 *
 * Built with -DCP_REPORT (no source change: the converted program's own calls are
 * measured), every recombination (cp_recombine and its async, double and symbol forms,
 * cp_recombine_host) first measures, over the n elements it is about to recombine:
 *
 *   max and RMS of |e / v|   the error term relative to the value, over elements with
 *                            v != 0 (an element whose value is 0 has no relative error);
 *   changed                  the elements where RN(v + e) != v: the error term changed the
 *                            float (double) result the host receives.
 *
 * Each call site (the file and line of the call, the companion it reads) prints its first
 * CP_REPORT_LINES recombinations on standard error as they happen (default 10; the
 * environment variable CP_REPORT_LINES overrides it, 0 for none) and one summary line of
 * all of them at exit. The values recombined are those of the build without CP_REPORT, bit
 * for bit (tests/runtime/check_report.c): the report only reads.
 *
 * Built with -DCP_PROFILE (profile.cuh), every recombination is measured the same way
 * without printing (unless CP_REPORT is defined too), the site also keeps the recombined
 * values of the first CP_PROFILE_VALUES elements of its last recombination, and the
 * translation unit's table of sites joins the process's profile units (profile_file.cuh),
 * which cp_profile_write writes as `recombine` sites.
 *
 * Plain C (tested on the CPU); one table of call sites per translation unit. The sites of
 * stream-ordered recombinations (cp_recombine_async) are recorded when the copy is
 * enqueued and measured in the host function that adds the errors; the counters are not
 * locked, so two host threads recombining at the same site at once may lose a count.
 */
#ifndef CP_REPORT_CUH
#define CP_REPORT_CUH

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.cuh"
#include "convert.cuh"

#ifndef CP_REPORT_LINES
#define CP_REPORT_LINES 10
#endif
#define CP_REPORT_SITES 256

/* The recombinations are measured under the report, the profile, or both. */
#if defined(CP_REPORT) || defined(CP_PROFILE)
#define CP_DETAIL_MEASURE 1
#else
#define CP_DETAIL_MEASURE 0
#endif
#if defined(CP_PROFILE)
#include "profile_file.cuh"
#endif

/* What one or more recombinations measured. */
typedef struct {
  size_t copies, elements, nonzero, changed;
  double max_rel, sum_rel2; /* over the `nonzero` elements with v != 0 */
} cp_error_stats;

/* A call site: where the recombination was written and the arguments it was given. */
typedef struct {
  const char *file, *args;
  int line;
} cp_report_site;

/* Measures n float pairs (v[i], e[i]) into s; changes nothing. Exact: |e / v| in double is
 * the quotient of two floats rounded once, RN(v + e) is the recombination itself. */
static inline void cp_error_stats_add(cp_error_stats *s, const float *v, const float *e,
                                      size_t n) {
  s->copies++;
  s->elements += n;
  for (size_t i = 0; i < n; i++) {
    if (e[i] != 0.0f && cp_fadd_rn(v[i], e[i]) != v[i])
      s->changed++;
    if (v[i] == 0.0f)
      continue;
    double rel = fabs((double)e[i] / (double)v[i]);
    s->nonzero++;
    s->sum_rel2 += rel * rel;
    s->max_rel = rel > s->max_rel ? rel : s->max_rel;
  }
}

/* The same for n double pairs (buffers of converted double kernels). */
static inline void cp_error_stats_add_double(cp_error_stats *s, const double *v, const double *e,
                                             size_t n) {
  s->copies++;
  s->elements += n;
  for (size_t i = 0; i < n; i++) {
    if (e[i] != 0.0 && cp_dd_to_double(cp_make_double(v[i], e[i])) != v[i])
      s->changed++;
    if (v[i] == 0.0)
      continue;
    double rel = fabs(e[i] / v[i]);
    s->nonzero++;
    s->sum_rel2 += rel * rel;
    s->max_rel = rel > s->max_rel ? rel : s->max_rel;
  }
}

static inline double cp_error_stats_rms(const cp_error_stats *s) {
  return s->nonzero ? sqrt(s->sum_rel2 / (double)s->nonzero) : 0.0;
}

/* One report line: "WHAT: N elements, |error/value| max M rms R, error changed C of N". */
static inline void cp_error_stats_print(FILE *out, const cp_error_stats *s) {
  fprintf(out, "%zu element%s, |error/value| max %.3g rms %.3g, error changed %zu of %zu\n",
          s->elements, s->elements == 1 ? "" : "s", s->max_rel, cp_error_stats_rms(s), s->changed,
          s->elements);
}

#if CP_DETAIL_MEASURE
typedef struct {
  cp_report_site site;
  cp_error_stats all;
#if defined(CP_PROFILE)
  double *values; /* the last recombination's first CP_PROFILE_VALUES results (malloc'd) */
  size_t nvalues;
#endif
} cp_detail_report_row;

/* The table of call sites of this translation unit; the last row collects any beyond it. */
static cp_detail_report_row cp_detail_report_rows[CP_REPORT_SITES + 1];
static size_t cp_detail_report_n;
/* The site of the call being made (set by the macros in host.cuh, taken by the function
 * it wraps; line 0: none). */
static __thread cp_report_site cp_detail_report_pending;

/* The second of the call's arguments as written: the companion (`x_err`) for the
 * cp_recombine functions, the host array of errors for cp_recombine_host. */
static inline void cp_detail_report_name(char *buf, size_t size, const char *args) {
  const char *p = args, *start = args;
  int depth = 0, arg = 0;
  for (; *p; p++) {
    if (*p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == ')' || *p == ']' || *p == '}')
      depth--;
    else if (*p == ',' && depth == 0 && ++arg == 1)
      start = p + 1;
    else if (*p == ',' && depth == 0)
      break;
  }
  while (*start == ' ')
    start++;
  size_t len = (size_t)(arg ? p - start : 0);
  if (len == 0) { /* one argument only: the whole text */
    start = args;
    len = strlen(args);
  }
  snprintf(buf, size, "%.*s", (int)len, start);
}

static inline void cp_detail_report_label(FILE *out, const cp_report_site *site) {
  char name[128];
  cp_detail_report_name(name, sizeof name, site->args);
  fprintf(out, "cp report: %s:%d %s: ", site->file, site->line, name);
}

#if defined(CP_REPORT)
static inline void cp_detail_report_summary(void) {
  for (size_t i = 0; i < cp_detail_report_n; i++) {
    const cp_detail_report_row *row = &cp_detail_report_rows[i];
    cp_detail_report_label(stderr, &row->site);
    fprintf(stderr, "%zu cop%s in all, ", row->all.copies, row->all.copies == 1 ? "y" : "ies");
    cp_error_stats_print(stderr, &row->all);
  }
}
#endif

#if defined(CP_PROFILE)
/* This unit's rows as `recombine` sites of the profile (the key as docs/profile.md). */
static inline int cp_detail_report_collect(cp_prof_unit *u, cp_prof_set *set) {
  (void)u;
  for (size_t i = 0; i < cp_detail_report_n + (cp_detail_report_n == CP_REPORT_SITES); i++) {
    const cp_detail_report_row *row = &cp_detail_report_rows[i];
    if (!row->site.file) /* the row of the sites beyond the table, unused */
      continue;
    char name[128];
    cp_detail_report_name(name, sizeof name, row->site.args);
    char *file = cp_detail_prof_json_escape(row->site.file), *nm = cp_detail_prof_json_escape(name);
    size_t size = (file ? strlen(file) : 0) + (nm ? strlen(nm) : 0) + 128;
    char *key = file && nm ? (char *)malloc(size) : NULL;
    if (key)
      snprintf(key, size, "\"kind\":\"recombine\",\"file\":\"%s\",\"line\":%d,\"function\":\"\","
               "\"name\":\"%s\"", file, row->site.line, nm);
    free(file);
    free(nm);
    cp_prof_site *s = key ? cp_detail_prof_site_of(set, key) : NULL;
    if (!s)
      return -1;
    cp_prof_site one;
    memset(&one, 0, sizeof one);
    one.copies = row->all.copies;
    one.elements = row->all.elements;
    one.nonzero = row->all.nonzero;
    one.changed = row->all.changed;
    one.rel_max = row->all.max_rel;
    one.rel2_sum = row->all.sum_rel2;
    cp_detail_prof_merge_site(s, &one);
    if (!s->values && row->nvalues) {
      if (!(s->values = (double *)malloc(row->nvalues * sizeof(double))))
        return -1;
      memcpy(s->values, row->values, row->nvalues * sizeof(double));
      s->nvalues = row->nvalues;
    }
  }
  return 0;
}

static cp_prof_unit cp_detail_report_unit = {0, cp_detail_report_collect, "recombinations", 0, 0, 0, 0, 0, "", 0};

/* The recombined values of the first CP_PROFILE_VALUES elements, as the recombination
 * computes them (host.cuh): RN(v + e), v itself where e is 0 (-0 kept). */
static inline void cp_detail_report_values(cp_detail_report_row *row, const void *v,
                                           const void *e, size_t n, int is_double) {
  if (n > CP_PROFILE_VALUES)
    n = CP_PROFILE_VALUES;
  if (!row->values && !(row->values = (double *)malloc(CP_PROFILE_VALUES * sizeof(double))))
    return;
  for (size_t i = 0; i < n; i++) {
    if (is_double) {
      double a = ((const double *)v)[i], b = ((const double *)e)[i];
      row->values[i] = b != 0.0 ? cp_dd_to_double(cp_make_double(a, b)) : a;
    } else {
      float a = ((const float *)v)[i], b = ((const float *)e)[i];
      row->values[i] = (double)(b != 0.0f ? cp_fadd_rn(a, b) : a);
    }
  }
  row->nvalues = n;
}
#endif

static inline cp_detail_report_row *cp_detail_report_row_of(const cp_report_site *site) {
  static const cp_report_site unknown = {"(unknown)", "(a recombination called through a pointer)", 0};
  if (!site)
    site = &unknown;
  for (size_t i = 0; i < cp_detail_report_n; i++) {
    cp_detail_report_row *row = &cp_detail_report_rows[i];
    if (row->site.line == site->line && strcmp(row->site.file, site->file) == 0 &&
        strcmp(row->site.args, site->args) == 0)
      return row;
  }
  if (cp_detail_report_n == 0) {
#if defined(CP_REPORT)
    atexit(cp_detail_report_summary);
#endif
#if defined(CP_PROFILE)
    cp_detail_report_unit.backend_dp = CP_BACKEND_IS_DP;
    cp_detail_report_unit.tier = CP_DETAIL_PROF_TIER;
    cp_detail_prof_register(&cp_detail_report_unit);
#endif
  }
  if (cp_detail_report_n == CP_REPORT_SITES) {
    static const cp_report_site more = {"(more sites)", "(the sites beyond the table)", 0};
    cp_detail_report_rows[CP_REPORT_SITES].site = more;
    return &cp_detail_report_rows[CP_REPORT_SITES];
  }
  cp_detail_report_rows[cp_detail_report_n].site = *site;
  return &cp_detail_report_rows[cp_detail_report_n++];
}

static inline long cp_detail_report_lines(void) {
#if defined(CP_REPORT)
  const char *env = getenv("CP_REPORT_LINES");
  return env && *env ? strtol(env, NULL, 10) : CP_REPORT_LINES;
#else
  return 0; /* the profile alone prints nothing */
#endif
}

/* Measures one recombination of n pairs at `site` (NULL: unknown) and prints it while the
 * site has printed fewer than CP_REPORT_LINES. `is_double` says what v and e point to. */
static inline void cp_detail_report(const cp_report_site *site, const void *v, const void *e,
                                    size_t n, int is_double) {
  cp_detail_report_row *row = cp_detail_report_row_of(site);
  cp_error_stats one = {0, 0, 0, 0, 0.0, 0.0};
  if (is_double)
    cp_error_stats_add_double(&one, (const double *)v, (const double *)e, n);
  else
    cp_error_stats_add(&one, (const float *)v, (const float *)e, n);
  row->all.copies++;
  row->all.elements += one.elements;
  row->all.nonzero += one.nonzero;
  row->all.changed += one.changed;
  row->all.sum_rel2 += one.sum_rel2;
  row->all.max_rel = one.max_rel > row->all.max_rel ? one.max_rel : row->all.max_rel;
#if defined(CP_PROFILE)
  cp_detail_report_values(row, v, e, n, is_double);
  cp_detail_prof_arm();
#endif
  if ((long)row->all.copies <= cp_detail_report_lines()) {
    cp_detail_report_label(stderr, &row->site);
    fprintf(stderr, "copy %zu: ", row->all.copies);
    cp_error_stats_print(stderr, &one);
  }
}

static inline void cp_detail_report_set(const char *file, const char *args, int line) {
  cp_detail_report_pending.file = file;
  cp_detail_report_pending.args = args;
  cp_detail_report_pending.line = line;
}

/* The pending site, taken once (a recombination inside another one is not counted twice);
 * `taken` is where it is kept. NULL if none is pending: a call not written in the source
 * (through a pointer to the function). */
static inline const cp_report_site *cp_detail_report_take(cp_report_site *taken) {
  *taken = cp_detail_report_pending;
  cp_detail_report_pending.line = 0;
  return taken->line ? taken : NULL;
}
#endif

#endif /* CP_REPORT_CUH */
