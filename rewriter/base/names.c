/*
 * names.c: "did you mean": the known name closest to a misspelt one.
 *
 * The distance is Damerau-Levenshtein's in its restricted form (insertions, deletions,
 * substitutions and swaps of two neighbours, each costing 1), the measure clang and git
 * use for their suggestions. A name is suggested only when the distance is at most a
 * third of its length (at least 1), so that `--scop` suggests --scope and `x` suggests
 * nothing.
 */
#include <string.h>

#include "internal.h"

#define CP_NAME_MAX 64

static size_t min3(size_t a, size_t b, size_t c) {
  size_t m = a < b ? a : b;
  return m < c ? m : c;
}

/* The distance between a and b, both shorter than CP_NAME_MAX. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb) {
  size_t d[CP_NAME_MAX + 1][CP_NAME_MAX + 1];
  for (size_t i = 0; i <= na; i++)
    d[i][0] = i;
  for (size_t j = 0; j <= nb; j++)
    d[0][j] = j;
  for (size_t i = 1; i <= na; i++)
    for (size_t j = 1; j <= nb; j++) {
      size_t cost = a[i - 1] != b[j - 1];
      d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < d[i][j])
        d[i][j] = d[i - 2][j - 2] + 1;
    }
  return d[na][nb];
}

const char *cp_closest_name(const char *s, const char *const *names) {
  size_t ns = strlen(s), best = (size_t)-1;
  const char *found = NULL;
  if (ns >= CP_NAME_MAX)
    return NULL;
  for (size_t k = 0; names[k]; k++) {
    size_t nk = strlen(names[k]);
    if (!nk || nk >= CP_NAME_MAX || strcmp(s, names[k]) == 0)
      continue;
    size_t dist = distance(s, ns, names[k], nk), limit = nk / 3 ? nk / 3 : 1;
    if (dist <= limit && dist < best) {
      best = dist;
      found = names[k];
    }
  }
  return found;
}
