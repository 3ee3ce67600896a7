/*
 * explain.h: --explain, the error budget of a profiled run (docs/profile.md). explain.c
 * reads cp_profile.json and attributes its sites to the outputs (the recombined
 * buffers); explain_print.c prints the budget as text or JSON, explain_html.c as a page.
 */
#ifndef CPCONVERT_EXPLAIN_H
#define CPCONVERT_EXPLAIN_H

#include <stdio.h>

#include "tool.h"

typedef enum {
  CP_SITE_STORE, CP_SITE_VAR, CP_SITE_DROP, CP_SITE_LAUNCH, CP_SITE_INPUT, CP_SITE_UNCONVERTED,
  CP_SITE_RECOMBINE
} cp_site_kind;
extern const char *const cp_site_kind_names[]; /* indexed by cp_site_kind */

/* One site of the profile. Strings point into the JSON tree; an absent one is "". An
 * absent number is 0. `at` is where the site's object starts in the file. */
typedef struct {
  cp_site_kind kind;
  const char *file, *function, *name, *why, *call, *kernel;
  unsigned line;
  const cp_json_value *args, *writes, *reads; /* launch: object, arrays (or NULL) */
  double count, nonzero, ulps_max, ulps_mean, bytes;
  double copies, elements, changed, rel_max, rel_rms;
} cp_site;

/* A site in a ranking, with the score it is ranked by (the section says which). */
typedef struct {
  const cp_site *site;
  double score;
  int shared;    /* in a function no launch names (a device helper): in every output's budget */
  int unreached; /* keep(): error it carried reaches no recombined output */
} cp_budget_item;

/* A list of items. */
typedef struct {
  cp_budget_item *at;
  size_t n;
} cp_budget_list;

/* One output: a recombine site, the kernels and buffers that feed its buffer, the store
 * and var sites ranked by nonzero/count x ulps_mean (`kept`), and the places where error
 * enters that composite cannot remove (`lost`: drops by count x ulps_mean, then inputs
 * copied more than once and unconverted readers, each by count). */
typedef struct {
  const cp_site *site; /* NULL for the global budget of a profile without recombine sites */
  char *buffer;        /* the companion's name without `_err` */
  double changed_fraction;
  const char **kernels, **buffers;
  size_t n_kernels, n_buffers;
  int unattributed; /* no launch names its buffer (a pointer into it, a field, another
                       function's parameter): every launched kernel counts as feeding it */
  cp_budget_list kept, lost;
} cp_budget_output;

typedef struct {
  const char *path; /* the profile as the user named it */
  const char *job, *backend, *tier;
  double processes, sample;
  cp_site *sites;
  size_t n_sites;
  cp_budget_output *outputs; /* ranked by changed/elements, then rel_rms */
  size_t n_outputs;
  cp_budget_output global; /* every site, when no output exists (n_outputs == 0) */
  cp_budget_list keep;     /* store and var sites that never carried an error to an output */
  const char **launched;   /* the kernels launch sites name, once each */
  size_t n_launched;
  cp_json_value *root;
} cp_budget;

/* explain.c. Reads and analyses profile `path`: 0, or -1 after a located error. */
int cp_budget_read(const char *path, cp_budget *b);
void cp_budget_free(cp_budget *b);
/* What would remove the error entering at a lost site (one sentence, no period). */
void cp_budget_fix(const cp_site *s, char *buf, size_t size);

/* explain_print.c: the budget as text (the default) or one JSON document. */
void cp_budget_print_text(FILE *out, const cp_budget *b);
void cp_budget_print_json(FILE *out, const cp_budget *b);
/* `v` with 3 significant digits ("0.244", "2.03e+05", "24.0"; "0" for 0). */
void cp_fmt3(char *buf, size_t size, double v);

/* explain_html.c: the budget as a self-contained page, as one allocated text. */
char *cp_budget_html(const cp_budget *b, size_t *len);

/* The --explain run: reads the profile, prints the budget or writes the page to `html`.
 * Returns the exit status. */
int cp_explain(const char *profile, const char *html, int json);

#endif
