/* cp/profile_file.cuh - the profile's file (docs/profile.md): the process's list of profiled
 * units, the JSON writer and the merge of the processes of one job.
 *
 * Plain C (tested on the CPU, tests/runtime/check_profile.c); the CUDA side (profile.cuh)
 * only supplies each unit's copy of its device counters, through a function pointer.
 *
 * Units. A unit is what one translation unit contributes: a site table (CP_PROFILE_TABLE)
 * or the unit's recombination sites (report.cuh). Every unit is linked into one list per
 * process, `cp_detail_prof_state`, a weak definition: every translation unit, C or C++,
 * defines it and the linker keeps one, so the units of every file of a program meet there.
 * (An inline function's static would do the same in C++ only, and converted host files may
 * be C.) At write time each unit's `collect` turns its counters into site records; records
 * with the same key (the site's static members, as the converter wrote them) are merged,
 * so a header with sites included by two files counts once per site.
 *
 * The merge. With a non-empty job key (cp_profile_job) and a file of the same job at PATH,
 * the file's sites are read back (the writer's own one-site-per-line format) and merged
 * with this process's, under flock(PATH.lock); counts add, maxima take the larger, means
 * and RMS are weighted (ulps_mean by count, rel_rms by nonzero), `values` are the file's.
 * The result goes to PATH.tmp.PID, renamed onto PATH. PATH.lock is left in place (removing
 * it would let a process lock a file another has just unlinked).
 *
 * Numbers: %.17g, so doubles read back as they were; JSON has no infinity or NaN, so an
 * infinite number is written 1e999 (-1e999), which JSON readers take as infinity, and NaN
 * as null.
 */
#ifndef CP_PROFILE_FILE_CUH
#define CP_PROFILE_FILE_CUH

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "config.cuh"

#ifndef CP_PROFILE_SAMPLE
#define CP_PROFILE_SAMPLE 32
#endif
#ifndef CP_PROFILE_VALUES
#define CP_PROFILE_VALUES 1024
#endif

/* The accuracy tier of CP_ALGO (cp.cuh), as cpconvert --accuracy names it. */
#if !defined(CP_ALGO) || CP_ALGO == 2
#define CP_DETAIL_PROF_TIER "high"
#elif CP_ALGO == 1
#define CP_DETAIL_PROF_TIER "paper"
#elif CP_ALGO == 3
#define CP_DETAIL_PROF_TIER "low"
#else
#define CP_DETAIL_PROF_TIER "mid"
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* A device site's counters (profile.cuh adds to them): elements seen, elements with e != 0,
 * elements measured (v finite and not 0, e finite), the sum of their ulps in fixed point
 * (2^-16 ulp) and the bits of the largest (a float >= 0: the bits order like the values). */
typedef struct cp_prof_counter {
  unsigned long long count, nonzero, measured, ulps_fixed;
  unsigned ulps_max_bits, unused_;
} cp_prof_counter;

/* A host site's counters (cp_prof_launch, cp_prof_count). */
typedef struct cp_prof_host_counter {
  unsigned long long count, bytes;
} cp_prof_host_counter;

/* A site record, as written: the key (static members) and the sums behind the dynamic
 * fields, kept as sums so that records merge exactly. */
enum { CP_PROF_VALUE, CP_PROF_COUNT, CP_PROF_INPUT, CP_PROF_RECOMBINE };
typedef struct cp_prof_site {
  char *key;
  int kind;
  unsigned long long count, nonzero, bytes, copies, elements, changed;
  double ulps_max, ulps_sum, ulps_n; /* ulps_mean = ulps_sum / ulps_n */
  double rel_max, rel2_sum;          /* rel_rms = sqrt(rel2_sum / nonzero) */
  double *values;
  size_t nvalues;
} cp_prof_site;

typedef struct cp_prof_set {
  cp_prof_site *site;
  size_t n, cap;
} cp_prof_set;

typedef struct cp_prof_unit cp_prof_unit;
struct cp_prof_unit {
  cp_prof_unit *next;
  int (*collect)(cp_prof_unit *u, cp_prof_set *set); /* 0, or -1 (out of memory) */
  /* a site table's */
  const char *name; /* the table's */
  const char *const *sites;
  size_t n;
  cp_prof_host_counter *host;
  /* copies the n device counters into dst and sets *backend_dp to the device's backend;
   * 0 or a message. NULL: no device counters (a host file). */
  const char *(*read_device)(cp_prof_counter *dst, size_t n, int *backend_dp);
  int backend_dp;
  const char *tier;
  int registered;
};

typedef struct cp_detail_prof_state_t {
  cp_prof_unit *head, *tail;
  int armed;   /* the write at exit is registered */
  int written; /* the program wrote the profile itself: the exit does not */
} cp_detail_prof_state_t;

__attribute__((weak)) cp_detail_prof_state_t cp_detail_prof_state = {0, 0, 0, 0};

#if defined(__cplusplus)
}
#endif

/* Adds a unit to the process's list (once). */
static inline void cp_detail_prof_register(cp_prof_unit *u) {
  if (u->registered)
    return;
  u->registered = 1;
  u->next = 0;
  if (cp_detail_prof_state.tail)
    cp_detail_prof_state.tail->next = u;
  else
    cp_detail_prof_state.head = u;
  cp_detail_prof_state.tail = u;
}

/* ---- JSON text ---- */

/* s as the inside of a JSON string (no quotes): " and \ escaped, control characters as
 * \u00XX; other bytes (UTF-8) as they are. Returns a malloc'd string or NULL. */
static inline char *cp_detail_prof_json_escape(const char *s) {
  char *out = (char *)malloc(strlen(s) * 6 + 1), *p = out;
  if (!out)
    return NULL;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      *p++ = '\\';
      *p++ = (char)c;
    } else if (c < 0x20) {
      p += sprintf(p, "\\u%04x", c);
    } else {
      *p++ = (char)c;
    }
  }
  *p = '\0';
  return out;
}

static inline char *cp_detail_prof_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = (char *)malloc(n);
  return d ? (char *)memcpy(d, s, n) : NULL;
}

/* One number of the file: %.17g, infinities as +-1e999, NaN as null. */
static inline void cp_detail_prof_num(FILE *f, double x) {
  if (x != x)
    fputs("null", f);
  else if (x > 1.7976931348623157e308 || x < -1.7976931348623157e308)
    fputs(x > 0 ? "1e999" : "-1e999", f);
  else
    fprintf(f, "%.17g", x);
}

/* The kind of a key: its first member, "kind":"K". */
static inline int cp_detail_prof_kind(const char *key) {
  if (strncmp(key, "\"kind\":\"", 8) != 0)
    return CP_PROF_COUNT;
  key += 8;
  if (!strncmp(key, "store\"", 6) || !strncmp(key, "var\"", 4) || !strncmp(key, "drop\"", 5))
    return CP_PROF_VALUE;
  if (!strncmp(key, "input\"", 6))
    return CP_PROF_INPUT;
  if (!strncmp(key, "recombine\"", 10))
    return CP_PROF_RECOMBINE;
  return CP_PROF_COUNT; /* launch, unconverted */
}

/* ---- the set of site records ---- */

/* The record of `key` (taken over: freed if a record has it already); NULL: no memory. */
static inline cp_prof_site *cp_detail_prof_site_of(cp_prof_set *set, char *key) {
  for (size_t i = 0; i < set->n; i++)
    if (strcmp(set->site[i].key, key) == 0) {
      free(key);
      return &set->site[i];
    }
  if (set->n == set->cap) {
    size_t cap = set->cap ? set->cap * 2 : 64;
    cp_prof_site *s = (cp_prof_site *)realloc(set->site, cap * sizeof *s);
    if (!s) {
      free(key);
      return NULL;
    }
    set->site = s;
    set->cap = cap;
  }
  cp_prof_site *s = &set->site[set->n++];
  memset(s, 0, sizeof *s);
  s->key = key;
  s->kind = cp_detail_prof_kind(key);
  return s;
}

/* Adds the sums of b into a; a keeps its values (the first process's). */
static inline void cp_detail_prof_merge_site(cp_prof_site *a, const cp_prof_site *b) {
  a->count += b->count;
  a->nonzero += b->nonzero;
  a->bytes += b->bytes;
  a->copies += b->copies;
  a->elements += b->elements;
  a->changed += b->changed;
  a->ulps_max = b->ulps_max > a->ulps_max ? b->ulps_max : a->ulps_max;
  a->ulps_sum += b->ulps_sum;
  a->ulps_n += b->ulps_n;
  a->rel_max = b->rel_max > a->rel_max ? b->rel_max : a->rel_max;
  a->rel2_sum += b->rel2_sum;
}

static inline void cp_detail_prof_set_free(cp_prof_set *set) {
  for (size_t i = 0; i < set->n; i++) {
    free(set->site[i].key);
    free(set->site[i].values);
  }
  free(set->site);
  set->site = NULL;
  set->n = set->cap = 0;
}

/* ulps as a float's bits (>= 0) and fixed point back to numbers. */
static inline double cp_detail_prof_bits_float(unsigned b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return (double)f;
}

/* A site table's records: host counters, and device counters where the unit has them. */
static inline int cp_detail_prof_collect_table(cp_prof_unit *u, cp_prof_set *set) {
  cp_prof_counter *dev = (cp_prof_counter *)calloc(u->n ? u->n : 1, sizeof *dev);
  if (!dev)
    return -1;
  if (u->read_device) {
    const char *why = u->read_device(dev, u->n, &u->backend_dp);
    if (why) {
      fprintf(stderr, "cpconvert profile: cannot read the device counters of %s: %s\n", u->name, why);
      memset(dev, 0, u->n * sizeof *dev);
    }
  }
  for (size_t i = 0; i < u->n; i++) {
    char *key = cp_detail_prof_strdup(u->sites[i]);
    cp_prof_site *s = key ? cp_detail_prof_site_of(set, key) : NULL;
    if (!s) {
      free(dev);
      return -1;
    }
    cp_prof_site one;
    memset(&one, 0, sizeof one);
    one.count = u->host[i].count + dev[i].count;
    one.bytes = u->host[i].bytes;
    one.nonzero = dev[i].nonzero;
    one.ulps_max = cp_detail_prof_bits_float(dev[i].ulps_max_bits);
    one.ulps_sum = (double)dev[i].ulps_fixed / 65536.0;
    one.ulps_n = (double)dev[i].measured;
    cp_detail_prof_merge_site(s, &one);
  }
  free(dev);
  return 0;
}

/* ---- reading a file back ---- */

/* The number after `"name":` in [p, end), or NAN (null, or absent: *found 0). */
static inline double cp_detail_prof_field(const char *p, const char *end, const char *name,
                                          int *found) {
  char pat[32];
  snprintf(pat, sizeof pat, "\"%s\":", name);
  size_t n = strlen(pat);
  for (; p + n <= end; p++)
    if (memcmp(p, pat, n) == 0) {
      *found = 1;
      return strncmp(p + n, "null", 4) == 0 ? NAN : strtod(p + n, NULL);
    }
  *found = 0;
  return NAN;
}

/* One site line of the writer's format (`{KEY,DYNAMIC}`, a trailing comma allowed) into a
 * record of `set`; -1 if it is not one. */
static inline int cp_detail_prof_read_site(cp_prof_set *set, const char *line, size_t len) {
  while (len && (line[len - 1] == ',' || line[len - 1] == '\r'))
    len--;
  if (len < 2 || line[0] != '{' || line[len - 1] != '}')
    return -1;
  const char *body = line + 1, *end = line + len - 1;
  int kind = cp_detail_prof_kind(body);
  const char *mark = kind == CP_PROF_RECOMBINE ? ",\"copies\":" : ",\"count\":", *dyn = NULL;
  for (const char *p = body; (p = strstr(p, mark)) != NULL && p < end; p++)
    dyn = p; /* the last one: a static `args` object may hold a parameter named count */
  if (!dyn)
    return -1;
  char *key = (char *)malloc((size_t)(dyn - body) + 1);
  if (!key)
    return -1;
  memcpy(key, body, (size_t)(dyn - body));
  key[dyn - body] = '\0';
  cp_prof_site *s = cp_detail_prof_site_of(set, key);
  if (!s)
    return -1;
  cp_prof_site one;
  memset(&one, 0, sizeof one);
  int f;
  double x;
#define CP_DETAIL_PROF_GET(field, name) \
  x = cp_detail_prof_field(dyn, end, name, &f); one.field = f && x == x ? (unsigned long long)x : 0
  CP_DETAIL_PROF_GET(count, "count");
  CP_DETAIL_PROF_GET(nonzero, "nonzero");
  CP_DETAIL_PROF_GET(bytes, "bytes");
  CP_DETAIL_PROF_GET(copies, "copies");
  CP_DETAIL_PROF_GET(elements, "elements");
  CP_DETAIL_PROF_GET(changed, "changed");
#undef CP_DETAIL_PROF_GET
  one.ulps_max = cp_detail_prof_field(dyn, end, "ulps_max", &f);
  double mean = cp_detail_prof_field(dyn, end, "ulps_mean", &f);
  one.ulps_n = (double)one.count;
  one.ulps_sum = f ? mean * (double)one.count : 0.0;
  one.rel_max = cp_detail_prof_field(dyn, end, "rel_max", &f);
  double rms = cp_detail_prof_field(dyn, end, "rel_rms", &f);
  one.rel2_sum = f ? rms * rms * (double)one.nonzero : 0.0;
  cp_detail_prof_merge_site(s, &one);
  const char *v = strstr(dyn, "\"values\":[");
  if (v && v < end && !s->values) {
    v += 10;
    s->values = (double *)malloc(CP_PROFILE_VALUES * sizeof(double) + 1);
    while (s->values && *v != ']' && v < end && s->nvalues < CP_PROFILE_VALUES) {
      char *next;
      double d = strncmp(v, "null", 4) == 0 ? (next = (char *)v + 4, NAN) : strtod(v, &next);
      if (next == v)
        return -1;
      s->values[s->nvalues++] = d;
      v = *next == ',' ? next + 1 : next;
    }
  }
  return 0;
}

/* The job key of this process: the first non-empty of CP_PROFILE_JOB, PMIX_NAMESPACE,
 * OMPI_MCA_ess_base_jobid, SLURM_JOB_ID.SLURM_STEP_ID, PMI_JOBID; "" for none. */
static inline void cp_profile_job(char *buf, size_t size) {
  static const char *const vars[] = {"CP_PROFILE_JOB", "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid"};
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) {
      snprintf(buf, size, "%s", v);
      return;
    }
  }
  const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");
  if (job && *job) {
    snprintf(buf, size, "%s.%s", job, step ? step : "");
    return;
  }
  const char *pmi = getenv("PMI_JOBID");
  if (pmi && *pmi)
    snprintf(buf, size, "%s", pmi);
}

/* Reads the file at `path` into `set` if it is a profile of job `job_json` (the key as the
 * file writes it); returns its process count, 0 when it is absent or another job's or not
 * a profile (it is then replaced), -1 when reading failed. */
static inline long cp_detail_prof_read_file(const char *path, const char *job_json,
                                            cp_prof_set *set) {
  FILE *f = fopen(path, "r");
  if (!f)
    return errno == ENOENT ? 0 : -1;
  size_t cap = 1 << 16, len = 0;
  char *text = (char *)malloc(cap);
  size_t k;
  while (text && (k = fread(text + len, 1, cap - len - 1, f)) > 0) {
    len += k;
    if (len + 1 == cap) {
      char *t = (char *)realloc(text, cap *= 2);
      if (!t)
        free(text);
      text = t;
    }
  }
  int err = ferror(f);
  fclose(f);
  if (!text || err) {
    free(text);
    return -1;
  }
  text[len] = '\0';
  static const char head[] = "{\"format\":\"cp_profile\",\"version\":1,\"job\":\"";
  size_t hl = sizeof head - 1, jl = strlen(job_json);
  long processes = 0;
  if (*job_json && strncmp(text, head, hl) == 0 && strncmp(text + hl, job_json, jl) == 0 &&
      strncmp(text + hl + jl, "\",\"processes\":", 14) == 0)
    processes = strtol(text + hl + jl + 14, NULL, 10);
  char *line = strchr(text, '\n');
  if (processes <= 0 || !line || strncmp(line + 1, "\"sites\":[\n", 10) != 0) {
    free(text);
    return 0;
  }
  cp_prof_set read = {0, 0, 0};
  for (line += 11; *line && *line != ']';) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0'; /* each line is read on its own */
    size_t n = strlen(line);
    if (cp_detail_prof_read_site(&read, line, n) != 0) {
      processes = 0; /* not the writer's format: replaced */
      break;
    }
    line += n + (nl != NULL);
  }
  free(text);
  if (processes > 0) {
    *set = read;
    return processes;
  }
  cp_detail_prof_set_free(&read);
  return 0;
}

/* ---- writing ---- */

static inline void cp_detail_prof_write_site(FILE *f, const cp_prof_site *s) {
  fprintf(f, "{%s", s->key);
  switch (s->kind) {
  case CP_PROF_VALUE:
    fprintf(f, ",\"count\":%llu,\"nonzero\":%llu,\"ulps_max\":", s->count, s->nonzero);
    cp_detail_prof_num(f, s->ulps_max);
    fputs(",\"ulps_mean\":", f);
    cp_detail_prof_num(f, s->ulps_n > 0 ? s->ulps_sum / s->ulps_n : 0.0);
    break;
  case CP_PROF_INPUT:
    fprintf(f, ",\"count\":%llu,\"bytes\":%llu", s->count, s->bytes);
    break;
  case CP_PROF_RECOMBINE:
    fprintf(f, ",\"copies\":%llu,\"elements\":%llu,\"nonzero\":%llu,\"changed\":%llu,\"rel_max\":",
            s->copies, s->elements, s->nonzero, s->changed);
    cp_detail_prof_num(f, s->rel_max);
    fputs(",\"rel_rms\":", f);
    cp_detail_prof_num(f, s->nonzero ? sqrt(s->rel2_sum / (double)s->nonzero) : 0.0);
    fputs(",\"values\":[", f);
    for (size_t i = 0; i < s->nvalues; i++) {
      if (i)
        fputc(',', f);
      cp_detail_prof_num(f, s->values[i]);
    }
    fputc(']', f);
    break;
  default:
    fprintf(f, ",\"count\":%llu", s->count);
  }
  fputc('}', f);
}

/* The whole file at `tmp`; 0 or -1 (errno). */
static inline int cp_detail_prof_write_json(const char *tmp, const char *job_json,
                                            long processes, const cp_prof_set *set) {
  const cp_prof_unit *first = cp_detail_prof_state.head;
  FILE *f = fopen(tmp, "w");
  if (!f)
    return -1;
  fprintf(f, "{\"format\":\"cp_profile\",\"version\":1,\"job\":\"%s\",\"processes\":%ld,"
             "\"sample\":%d,\"backend\":\"%s\",\"tier\":\"%s\",\n\"sites\":[\n",
          job_json, processes, (int)CP_PROFILE_SAMPLE,
          first ? (first->backend_dp ? "dp" : "ff") : CP_BACKEND_NAME,
          first ? first->tier : CP_DETAIL_PROF_TIER);
  for (size_t i = 0; i < set->n; i++) {
    cp_detail_prof_write_site(f, &set->site[i]);
    fputs(i + 1 < set->n ? ",\n" : "\n", f);
  }
  fputs("]}\n", f);
  int err = ferror(f) ? (errno ? errno : EIO) : 0;
  if (fclose(f) != 0 && !err)
    err = errno ? errno : EIO;
  if (err) {
    remove(tmp);
    errno = err;
    return -1;
  }
  return 0;
}

/* Every unit's records, merged by key. */
static inline int cp_detail_prof_collect(cp_prof_set *set) {
  for (cp_prof_unit *u = cp_detail_prof_state.head; u; u = u->next)
    if (u->collect(u, set) != 0) {
      errno = ENOMEM;
      return -1;
    }
  return 0;
}

/* Under the lock: the file's sites of the same job first (merged with ours), then ours. */
static inline int cp_detail_prof_merge_write(const char *path, cp_prof_set *ours) {
  char job[1024], *job_json;
  cp_profile_job(job, sizeof job);
  if (!(job_json = cp_detail_prof_json_escape(job)))
    return -1;
  cp_prof_set all = {0, 0, 0};
  long processes = cp_detail_prof_read_file(path, job_json, &all);
  int rc = processes < 0 ? -1 : 0;
  for (size_t i = 0; rc == 0 && i < ours->n; i++) {
    cp_prof_site *s = cp_detail_prof_site_of(&all, ours->site[i].key);
    ours->site[i].key = NULL; /* taken over */
    if (!s) {
      errno = ENOMEM;
      rc = -1;
    } else {
      cp_detail_prof_merge_site(s, &ours->site[i]);
      if (!s->values && ours->site[i].values) {
        s->values = ours->site[i].values;
        s->nvalues = ours->site[i].nvalues;
        ours->site[i].values = NULL;
      }
    }
  }
  char tmp[4096];
  if (rc == 0 && snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp) {
    errno = ENAMETOOLONG;
    rc = -1;
  }
  if (rc == 0)
    rc = cp_detail_prof_write_json(tmp, job_json, processes + 1, &all);
  if (rc == 0 && rename(tmp, path) != 0) {
    int e = errno;
    remove(tmp);
    errno = e;
    rc = -1;
  }
  cp_detail_prof_set_free(&all);
  free(job_json);
  return rc;
}

/* Writes the profile of every registered unit to `path` (NULL: $CP_PROFILE_OUT, nothing if
 * it is set and empty, else cp_profile.json), merging with the file of another process of
 * the same job. 0, or -1 with errno set and a message on standard error. Once it has
 * succeeded, the write at exit is not made. */
static inline int cp_profile_write(const char *path) {
  if (!path) {
    path = getenv("CP_PROFILE_OUT");
    if (path && !*path)
      return 0;
    if (!path)
      path = "cp_profile.json";
  }
  char lock_path[4096];
  cp_prof_set ours = {0, 0, 0};
  int rc = -1, fd = -1;
  if (snprintf(lock_path, sizeof lock_path, "%s.lock", path) >= (int)sizeof lock_path)
    errno = ENAMETOOLONG;
  else if ((fd = open(lock_path, O_RDWR | O_CREAT, 0666)) < 0 || flock(fd, LOCK_EX) != 0)
    ;
  else if (cp_detail_prof_collect(&ours) == 0)
    rc = cp_detail_prof_merge_write(path, &ours);
  int err = errno;
  if (fd >= 0)
    close(fd); /* releases the lock */
  cp_detail_prof_set_free(&ours);
  if (rc != 0) {
    fprintf(stderr, "cpconvert profile: cannot write %s: %s\n", path, strerror(err));
    errno = err;
  } else {
    cp_detail_prof_state.written = 1;
  }
  return rc;
}

/* At exit, unless the program has written the profile itself (a second write of the same
 * counters would merge them twice). */
static inline void cp_detail_prof_at_exit(void) {
  if (!cp_detail_prof_state.written)
    cp_profile_write(NULL);
}

/* Registers the write at exit, once per process: called by the first launch, count or
 * recombination, after the CUDA runtime has registered its own teardown, so the write runs
 * first and can still copy the device counters. */
static inline void cp_detail_prof_arm(void) {
  if (!cp_detail_prof_state.armed) {
    cp_detail_prof_state.armed = 1;
    atexit(cp_detail_prof_at_exit);
  }
}

#endif /* CP_PROFILE_FILE_CUH */
