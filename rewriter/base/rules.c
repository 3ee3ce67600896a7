/* rules.c: the tables generated from rules.def: names and summaries of the rules, and
 * the CUDA names the atomic and shuffle rules know. */
#include <string.h>

#include "internal.h"

static const char *const rule_names[] = {
#define CP_RULE(id, name, summary) name,
#include "rules.def"
};

static const char *const rule_summaries[] = {
#define CP_RULE(id, name, summary) summary,
#include "rules.def"
};

const char *cp_rule_name(cp_rule r) { return r < CP_RULE_COUNT ? rule_names[r] : "?"; }

const char *cp_rule_summary(cp_rule r) { return r < CP_RULE_COUNT ? rule_summaries[r] : "?"; }

static const struct {
  const char *name;
  int sign;
} atomic_table[] = {
#define CP_ATOMIC(name, sign) {#name, sign},
#include "rules.def"
};

int cp_atomic_sign(const char *name) {
  for (size_t i = 0; i < sizeof atomic_table / sizeof atomic_table[0]; i++)
    if (strcmp(atomic_table[i].name, name) == 0)
      return atomic_table[i].sign;
  return 0;
}

static const char *const warp_shuffles[] = {
#define CP_SHUFFLE(name) #name,
#include "rules.def"
};

static const char *const group_shuffles[] = {
#define CP_GROUP_SHUFFLE(method) #method,
#include "rules.def"
};

static int in_list(const char *const *list, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(list[i], name) == 0)
      return 1;
  return 0;
}

int cp_is_warp_shuffle(const char *name) {
  return in_list(warp_shuffles, sizeof warp_shuffles / sizeof *warp_shuffles, name);
}

int cp_is_group_shuffle(const char *name) {
  return in_list(group_shuffles, sizeof group_shuffles / sizeof *group_shuffles, name);
}
