/*
 * explain.c: --explain PROFILE, the error budget of a profiled run: reads cp_profile.json
 * (docs/profile.md, version 1) and attributes its sites to the outputs.
 *
 * An output is a recombine site: the buffer B its companion names (`d_fx_err` is B =
 * `d_fx`). A launch whose `args` give a parameter it `writes` the host expression B feeds
 * B with its kernel, and the buffers it passes for the parameters it `reads` feed B in
 * turn (a closure over the launches, each with its own arguments). The store, var and
 * drop sites of those kernels belong to B's budget; so do the input sites that copy into
 * one of those buffers and the unconverted sites that are passed one (or sit in one of
 * those kernels). A site in a function that no launch names (a device helper) belongs to
 * every output's budget, marked shared. Without recombine sites, one global budget holds
 * every site.
 *
 * The file is read strictly (json.c); a file that is no JSON, no cp_profile, of another
 * version, or with a field of the wrong type is a located error (PATH:LINE:COL). Fields
 * the format names may be missing (a string is then "", a number 0); members it does not
 * name are skipped.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

const char *const cp_site_kind_names[] = {"store", "var",  "drop", "launch", "input",
                                          "unconverted", "recombine", NULL};

/* The profile's text, for located errors. */
typedef struct {
  const char *path, *text;
  size_t len;
} source;

/* PATH:LINE:COL: error: MESSAGE, with the line and a caret when the line is short enough
 * to show (a recombine site's `values` make long lines). Returns -1. */
static int located(const source *src, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int located(const source *src, size_t offset, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cp_json j;
  cp_json_init(&j, src->text, src->len);
  unsigned line, col;
  cp_json_where(&j, src->text + offset, &line, &col);
  size_t begin = offset, end = offset;
  while (begin > 0 && src->text[begin - 1] != '\n')
    begin--;
  while (end < src->len && src->text[end] != '\n' && src->text[end] != '\r')
    end++;
  char *text = end - begin <= 160 && !memchr(src->text + begin, '\0', end - begin)
                   ? strndup(src->text + begin, end - begin) : NULL;
  cp_diag d = {CP_ERROR, src->path, line, col, text, msg};
  cp_print_diag(stderr, &d);
  free(text);
  return -1;
}

static const char *type_name(cp_json_type t) {
  static const char *const names[] = {"null", "true or false", "a number", "a string",
                                      "an array", "an object"};
  return names[t];
}

/* A string member: *out its value, "" when absent; -1 after an error. */
static int str_field(const source *src, const cp_json_value *obj, const char *key,
                     const char **out) {
  const cp_json_value *v = cp_json_member(obj, key);
  *out = v && v->type == CP_JSON_STRING ? v->string : "";
  if (v && v->type != CP_JSON_STRING)
    return located(src, v->offset, "\"%s\" is a string, not %s", key, type_name(v->type));
  return 0;
}

/* A number member that is not negative: *out its value, 0 when absent; -1 after an error. */
static int num_field(const source *src, const cp_json_value *obj, const char *key, double *out) {
  const cp_json_value *v = cp_json_member(obj, key);
  *out = v && v->type == CP_JSON_NUMBER ? v->number : 0;
  if (v && v->type != CP_JSON_NUMBER)
    return located(src, v->offset, "\"%s\" is a number, not %s", key, type_name(v->type));
  if (*out < 0)
    return located(src, v->offset, "\"%s\" is a count or a magnitude: not negative", key);
  return 0;
}

/* `args` (an object of strings), `writes` and `reads` (arrays of strings), or NULL. */
static int names_field(const source *src, const cp_json_value *obj, const char *key,
                       const cp_json_value **out) {
  cp_json_type want = strcmp(key, "args") == 0 ? CP_JSON_OBJECT : CP_JSON_ARRAY;
  const cp_json_value *v = cp_json_member(obj, key);
  *out = v;
  if (v && v->type != want)
    return located(src, v->offset, "\"%s\" is %s of strings, not %s", key,
                   want == CP_JSON_OBJECT ? "an object" : "an array", type_name(v->type));
  for (size_t i = 0; v && i < v->n; i++)
    if (v->items[i].type != CP_JSON_STRING)
      return located(src, v->items[i].offset, "\"%s\" holds strings, not %s", key,
                     type_name(v->items[i].type));
  return 0;
}

static int site_kind(const source *src, const cp_json_value *obj, cp_site_kind *kind) {
  const cp_json_value *v = cp_json_member(obj, "kind");
  if (!v)
    return located(src, obj->offset, "a site without \"kind\"");
  for (int k = 0; v->type == CP_JSON_STRING && cp_site_kind_names[k]; k++)
    if (strcmp(v->string, cp_site_kind_names[k]) == 0) {
      *kind = (cp_site_kind)k;
      return 0;
    }
  return located(src, v->offset, "\"kind\" is one of store, var, drop, launch, input, "
                 "unconverted, recombine (format version 1)");
}

static int read_site(const source *src, const cp_json_value *obj, cp_site *s) {
  static const struct {
    const char *key;
    size_t field;
  } strs[] = {{"file", offsetof(cp_site, file)},     {"function", offsetof(cp_site, function)},
              {"name", offsetof(cp_site, name)},     {"why", offsetof(cp_site, why)},
              {"call", offsetof(cp_site, call)},     {"kernel", offsetof(cp_site, kernel)}},
    nums[] = {{"count", offsetof(cp_site, count)},   {"nonzero", offsetof(cp_site, nonzero)},
              {"ulps_max", offsetof(cp_site, ulps_max)},
              {"ulps_mean", offsetof(cp_site, ulps_mean)}, {"bytes", offsetof(cp_site, bytes)},
              {"copies", offsetof(cp_site, copies)}, {"elements", offsetof(cp_site, elements)},
              {"changed", offsetof(cp_site, changed)}, {"rel_max", offsetof(cp_site, rel_max)},
              {"rel_rms", offsetof(cp_site, rel_rms)}};
  if (obj->type != CP_JSON_OBJECT)
    return located(src, obj->offset, "a site is an object, not %s", type_name(obj->type));
  if (site_kind(src, obj, &s->kind) != 0)
    return -1;
  for (size_t k = 0; k < sizeof strs / sizeof strs[0]; k++)
    if (str_field(src, obj, strs[k].key, (const char **)((char *)s + strs[k].field)) != 0)
      return -1;
  for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++)
    if (num_field(src, obj, nums[k].key, (double *)((char *)s + nums[k].field)) != 0)
      return -1;
  double line;
  if (num_field(src, obj, "line", &line) != 0 || names_field(src, obj, "args", &s->args) != 0 ||
      names_field(src, obj, "writes", &s->writes) != 0 ||
      names_field(src, obj, "reads", &s->reads) != 0)
    return -1;
  s->line = line < 4e9 ? (unsigned)line : 0;
  if (s->kind == CP_SITE_DROP && *s->why && strcmp(s->why, "call") != 0 &&
      strcmp(s->why, "store") != 0 && strcmp(s->why, "convert") != 0)
    return located(src, cp_json_member(obj, "why")->offset,
                   "\"why\" is one of call, store, convert");
  return 0;
}

/* The top level: format, version, the run's fields, and the sites. */
static int read_profile(const source *src, cp_budget *b) {
  const cp_json_value *root = b->root, *v;
  if (root->type != CP_JSON_OBJECT)
    return located(src, root->offset, "a profile is one JSON object, not %s",
                   type_name(root->type));
  v = cp_json_member(root, "format");
  if (!v || v->type != CP_JSON_STRING || strcmp(v->string, "cp_profile") != 0)
    return located(src, v ? v->offset : root->offset, "not a profile (expected \"format\": "
                   "\"cp_profile\", as the runtime of --profile output writes it)");
  v = cp_json_member(root, "version");
  if (!v || v->type != CP_JSON_NUMBER)
    return located(src, v ? v->offset : root->offset, "\"version\" is the number of the "
                   "profile format (%s)", v ? "not a number" : "missing");
  if (v->number != 1)
    return located(src, v->offset, "this cpconvert reads version 1 of the profile format, not "
                   "version %g; convert and run with this cpconvert's runtime again", v->number);
  if (str_field(src, root, "job", &b->job) || str_field(src, root, "backend", &b->backend) ||
      str_field(src, root, "tier", &b->tier) || num_field(src, root, "processes", &b->processes) ||
      num_field(src, root, "sample", &b->sample))
    return -1;
  v = cp_json_member(root, "sites");
  if (!v || v->type != CP_JSON_ARRAY)
    return located(src, v ? v->offset : root->offset, "\"sites\" is an array of sites%s",
                   v ? "" : " (missing)");
  b->sites = calloc(v->n + 1, sizeof *b->sites);
  for (b->n_sites = 0; b->n_sites < v->n; b->n_sites++)
    if (read_site(src, &v->items[b->n_sites], &b->sites[b->n_sites]) != 0)
      return -1;
  return 0;
}

/* ---- attribution ------------------------------------------------------------------- */

static int in_set(const char *const *set, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(set[i], s) == 0)
      return 1;
  return 0;
}

/* Adds s unless it is there; 1 when it was added. */
static int add_to_set(const char ***set, size_t *n, const char *s) {
  if (!*s || in_set(*set, *n, s))
    return 0;
  *set = realloc(*set, (*n + 1) * sizeof **set);
  (*set)[(*n)++] = s;
  return 1;
}

/* The host expression a launch passes for parameter `param`, or NULL. */
static const char *arg_of(const cp_site *launch, const char *param) {
  const cp_json_value *v = cp_json_member(launch->args, param);
  return v ? v->string : NULL;
}

/* 1 when `launch` writes one of the buffers of o. */
static int writes_into(const cp_site *launch, const cp_budget_output *o) {
  for (size_t k = 0; launch->writes && k < launch->writes->n; k++) {
    const char *b = arg_of(launch, launch->writes->items[k].string);
    if (b && in_set(o->buffers, o->n_buffers, b))
      return 1;
  }
  return 0;
}

/* The kernels and buffers that feed o's buffer: the closure over the launches. */
static void find_feeders(const cp_budget *b, cp_budget_output *o) {
  add_to_set(&o->buffers, &o->n_buffers, o->buffer);
  for (int grew = 1; grew;) {
    grew = 0;
    for (size_t i = 0; i < b->n_sites; i++) {
      const cp_site *l = &b->sites[i];
      if (l->kind != CP_SITE_LAUNCH || !writes_into(l, o))
        continue;
      grew |= add_to_set(&o->kernels, &o->n_kernels, l->kernel);
      for (size_t k = 0; l->reads && k < l->reads->n; k++) {
        const char *r = arg_of(l, l->reads->items[k].string);
        grew |= r && add_to_set(&o->buffers, &o->n_buffers, r);
      }
    }
  }
  /* Names are matched as written: a buffer reached through a pointer into it, a struct
   * field or a wrapper's parameter matches no launch. Then nothing is known of what feeds
   * it, and every launched kernel counts (so that no site is called unneeded on no
   * evidence). */
  if (o->n_kernels == 0) {
    o->unattributed = 1;
    for (size_t i = 0; i < b->n_launched; i++)
      add_to_set(&o->kernels, &o->n_kernels, b->launched[i]);
  }
}

/* 1 when a launch site names kernel `f`. */
static int launched(const cp_budget *b, const char *f) {
  return in_set(b->launched, b->n_launched, f);
}

/* Whether site s is in o's budget (the global one: every site); *shared when only as a
 * device helper's. */
static int belongs(const cp_budget *b, const cp_budget_output *o, const cp_site *s,
                   int *shared) {
  *shared = 0;
  if (!o->site)
    return 1;
  switch (s->kind) {
  case CP_SITE_STORE: case CP_SITE_VAR: case CP_SITE_DROP:
    if (in_set(o->kernels, o->n_kernels, s->function))
      return 1;
    return *shared = !launched(b, s->function);
  case CP_SITE_INPUT:
    return in_set(o->buffers, o->n_buffers, s->name);
  case CP_SITE_UNCONVERTED:
    return in_set(o->buffers, o->n_buffers, s->name) ||
           in_set(o->kernels, o->n_kernels, s->function);
  default:
    return 0;
  }
}

static void push_item(cp_budget_list *l, const cp_site *s, double score, int shared) {
  l->at = realloc(l->at, (l->n + 1) * sizeof *l->at);
  l->at[l->n++] = (cp_budget_item){s, score, shared, 0};
}

/* Lost sites rank by group (drops, inputs, unconverted readers), then by score. */
static int lost_group(const cp_site *s) {
  return s->kind == CP_SITE_DROP ? 0 : s->kind == CP_SITE_INPUT ? 1 : 2;
}

static int by_place(const cp_site *x, const cp_site *y) {
  int c = strcmp(x->file, y->file);
  if (!c)
    c = (x->line > y->line) - (x->line < y->line);
  if (!c)
    c = strcmp(x->name, y->name);
  return c ? c : (int)x->kind - (int)y->kind;
}

static int by_score(const void *a, const void *b) {
  const cp_budget_item *x = a, *y = b;
  int g = lost_group(x->site) - lost_group(y->site); /* 0 among store and var sites */
  if (g)
    return g;
  if (x->score != y->score)
    return x->score < y->score ? 1 : -1;
  return by_place(x->site, y->site);
}

/* Fills o's kept and lost lists from the sites in its budget. */
static void rank_output(const cp_budget *b, cp_budget_output *o) {
  for (size_t i = 0; i < b->n_sites; i++) {
    const cp_site *s = &b->sites[i];
    int shared;
    if (s->count <= 0 || !belongs(b, o, s, &shared))
      continue;
    double score = s->kind == CP_SITE_DROP ? s->count * s->ulps_mean
                   : s->kind == CP_SITE_STORE || s->kind == CP_SITE_VAR
                       ? s->nonzero / s->count * s->ulps_mean : s->count;
    if ((s->kind == CP_SITE_STORE || s->kind == CP_SITE_VAR) && score > 0)
      push_item(&o->kept, s, score, shared);
    else if ((s->kind == CP_SITE_DROP && score > 0) ||
             (s->kind == CP_SITE_INPUT && s->count > 1) || s->kind == CP_SITE_UNCONVERTED)
      push_item(&o->lost, s, score, shared);
  }
  if (o->kept.n)
    qsort(o->kept.at, o->kept.n, sizeof *o->kept.at, by_score);
  if (o->lost.n)
    qsort(o->lost.at, o->lost.n, sizeof *o->lost.at, by_score);
}

static int by_change(const void *a, const void *b) {
  const cp_budget_output *x = a, *y = b;
  if (x->changed_fraction != y->changed_fraction)
    return x->changed_fraction < y->changed_fraction ? 1 : -1;
  if (x->site->rel_rms != y->site->rel_rms)
    return x->site->rel_rms < y->site->rel_rms ? 1 : -1;
  return by_place(x->site, y->site);
}

/* Whether site s's error reaches an output (with no output: any). */
static int reaches(const cp_budget *b, const cp_site *s) {
  int reached = !b->n_outputs, shared;
  for (size_t k = 0; k < b->n_outputs && !reached; k++)
    reached = belongs(b, &b->outputs[k], s, &shared);
  return reached;
}

/* Whether another site of the same variable (kind, function, name: its other lines)
 * carried an error term that reaches an output: then keeping it float loses that. */
static int needed_elsewhere(const cp_budget *b, const cp_site *s) {
  for (size_t i = 0; i < b->n_sites; i++) {
    const cp_site *o = &b->sites[i];
    if (o != s && o->kind == s->kind && o->nonzero > 0 && strcmp(o->function, s->function) == 0 &&
        strcmp(o->name, s->name) == 0 && reaches(b, o))
      return 1;
  }
  return 0;
}

/* Store and var sites of variables all of whose sites ran and never held a nonzero error
 * term, or (with outputs) whose error reaches none: candidates for keep(NAME). */
static void find_keep(cp_budget *b) {
  for (size_t i = 0; i < b->n_sites; i++) {
    const cp_site *s = &b->sites[i];
    if ((s->kind != CP_SITE_STORE && s->kind != CP_SITE_VAR) || s->count <= 0)
      continue;
    int reached = reaches(b, s);
    if ((s->nonzero == 0 || !reached) && !needed_elsewhere(b, s)) {
      push_item(&b->keep, s, s->count, 0);
      b->keep.at[b->keep.n - 1].unreached = s->nonzero != 0;
    }
  }
  if (b->keep.n)
    qsort(b->keep.at, b->keep.n, sizeof *b->keep.at, by_score);
}

static void analyse(cp_budget *b) {
  b->outputs = calloc(b->n_sites + 1, sizeof *b->outputs);
  for (size_t i = 0; i < b->n_sites; i++)
    if (b->sites[i].kind == CP_SITE_LAUNCH)
      add_to_set(&b->launched, &b->n_launched, b->sites[i].kernel);
  for (size_t i = 0; i < b->n_sites; i++) {
    const cp_site *s = &b->sites[i];
    if (s->kind != CP_SITE_RECOMBINE)
      continue;
    cp_budget_output *o = &b->outputs[b->n_outputs++];
    size_t n = strlen(s->name);
    o->site = s;
    o->buffer = strndup(s->name, n > 4 && strcmp(s->name + n - 4, "_err") == 0 ? n - 4 : n);
    o->changed_fraction = s->elements > 0 ? s->changed / s->elements : 0;
    find_feeders(b, o);
    rank_output(b, o);
  }
  if (b->n_outputs)
    qsort(b->outputs, b->n_outputs, sizeof *b->outputs, by_change);
  else
    rank_output(b, &b->global);
  find_keep(b);
}

int cp_budget_read(const char *path, cp_budget *b) {
  memset(b, 0, sizeof *b);
  b->path = path;
  size_t len = 0;
  errno = 0;
  char *text = cp_read_file(path, CP_MAX_SOURCE, &len);
  if (!text) {
    cp_diag d = {CP_ERROR, path, 0, 0, NULL, cp_strerror(errno)};
    cp_print_diag(stderr, &d);
    return -1;
  }
  source src = {path, text, len};
  cp_json j;
  cp_json_init(&j, text, len);
  b->root = cp_json_parse(&j);
  int rc = b->root ? read_profile(&src, b)
                   : located(&src, (size_t)(j.at - text), "not JSON: expected %s", j.error);
  if (rc == 0)
    analyse(b);
  free(text);
  return rc;
}

static void free_output(cp_budget_output *o) {
  free(o->buffer);
  free(o->kernels);
  free(o->buffers);
  free(o->kept.at);
  free(o->lost.at);
}

void cp_budget_free(cp_budget *b) {
  for (size_t i = 0; i < b->n_outputs; i++)
    free_output(&b->outputs[i]);
  free_output(&b->global);
  free(b->outputs);
  free(b->keep.at);
  free(b->launched);
  free(b->sites);
  cp_json_free(b->root);
}

void cp_budget_fix(const cp_site *s, char *buf, size_t size) {
  if (s->kind == CP_SITE_DROP && strcmp(s->why, "call") == 0)
    snprintf(buf, size, "a composite version of %s (or keep the argument's computation in "
             "float: it loses nothing here)", *s->call ? s->call : "the function called");
  else if (s->kind == CP_SITE_DROP && strcmp(s->why, "store") == 0)
    snprintf(buf, size, "pair the buffer %s (pair(%s))", s->name, s->name);
  else if (s->kind == CP_SITE_DROP)
    snprintf(buf, size, "the value leaves composite precision here (a cast, or a conversion "
             "to float, int or double): convert what takes it too, or compute %s in float",
             *s->name ? s->name : "it");
  else if (s->kind == CP_SITE_INPUT)
    snprintf(buf, size, "the host array behind %s is copied in as float %.0f times: keep it on "
             "the device between steps, or keep its error term (pair it on the host)", s->name,
             s->count);
  else
    snprintf(buf, size, "convert %s too (annotate it)", *s->call ? s->call : "the code called");
}

int cp_explain(const char *profile, const char *html, int json) {
  cp_budget b;
  int status = CP_EXIT_OK;
  if (cp_budget_read(profile, &b) != 0) {
    status = CP_EXIT_ERRORS;
  } else if (html) {
    size_t len = 0;
    char *page = cp_budget_html(&b, &len);
    cp_output out = {html, page, len};
    status = cp_write_files(&out, 1) == 0 ? CP_EXIT_OK : CP_EXIT_ERRORS;
    free(page);
  } else if (json) {
    cp_budget_print_json(stdout, &b);
  } else {
    cp_budget_print_text(stdout, &b);
  }
  cp_budget_free(&b);
  return status;
}
