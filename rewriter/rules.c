/* rules.c: names and summaries of the rules, generated from rules.def. */
#include "rewriter.h"

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
