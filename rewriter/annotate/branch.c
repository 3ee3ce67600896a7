/*
 * branch.c: preprocessor branches of converted functions that were not taken.
 *
 * Code in an `#if` branch the preprocessor skipped is not in the AST and is not converted:
 * a warning at the branch, unless it is the double side of a precision switch (a `real`
 * typedef), or a branch on __CUDA_ARCH__, which the run converts in a view of its own
 * (convert.c: the device compilation's, then the host's).
 */
#include <ctype.h>
#include <limits.h>
#include <string.h>

#include "annotate.h"

/* The precision of a math function, by its rules.def row (CP_MATH's prec). */
enum { precision_of_any = 0, precision_of_float = 1, precision_of_double = 2 };

/* What the identifier `w` (length n) names: 1 float (float, float2..4, a float math
 * function of rules.def: sqrtf, __fdividef), 2 double (double, double2..4, a double math
 * function: sqrt, __fma_rn, the bit casts of double), 0 neither (or both: min, max). */
static int precision_word(const char *w, size_t n) {
  static const char *const dbl_casts[] = {"__double_as_longlong", "__longlong_as_double",
                                          "__hiloint2double", "__double2hiint", "__double2loint"};
  for (int p = 1; p <= 2; p++) {
    size_t k = p == 1 ? 5 : 6;
    if (n >= k && strncmp(w, p == 1 ? "float" : "double", k) == 0 &&
        (n == k || (n == k + 1 && w[k] >= '2' && w[k] <= '4')))
      return p;
  }
  for (size_t i = 0; i < sizeof dbl_casts / sizeof *dbl_casts; i++)
    if (strlen(dbl_casts[i]) == n && strncmp(w, dbl_casts[i], n) == 0)
      return 2;
#define CP_MATH(cuda_name, cp_name, nargs, prec)                                             \
  if (n == sizeof #cuda_name - 1 && strncmp(w, #cuda_name, n) == 0)                           \
    return precision_of_##prec;
#include "rules.def"
  return 0;
}

/* What the number `w` (length n) is: 1 a float literal (1.5f, 0x1p3f), 2 a double one
 * (1.5, 1e-3), 0 an integer (0xff is one). */
static int precision_literal(const char *w, size_t n) {
  int hex = n > 1 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'), real = 0;
  for (size_t i = 0; i < n; i++)
    if (hex ? (w[i] == 'p' || w[i] == 'P') : (w[i] == '.' || w[i] == 'e' || w[i] == 'E'))
      real = 1;
  if (!real)
    return 0;
  return w[n - 1] == 'f' || w[n - 1] == 'F' ? 1 : 2;
}

/* The precision tokens of the text [b, e) outside comments and strings: bit 1 a float
 * token, bit 2 a double token (precision_word, precision_literal). */
static int precision_tokens(const char *t, unsigned b, unsigned e) {
  int found = 0;
  for (unsigned i = b; i < e;) {
    unsigned j = i + 1;
    if (t[i] == '/' && j < e && t[j] == '/') {
      while (j < e && t[j] != '\n')
        j++;
    } else if (t[i] == '/' && j < e && t[j] == '*') {
      for (j++; j + 1 < e && !(t[j] == '*' && t[j + 1] == '/'); j++)
        ;
      j += 2;
    } else if (t[i] == '"' || t[i] == '\'') {
      while (j < e && t[j] != t[i] && t[j] != '\n')
        j += t[j] == '\\' ? 2 : 1;
      j++;
    } else if (isalnum((unsigned char)t[i]) || t[i] == '_' || t[i] == '.') {
      int num = isdigit((unsigned char)t[i]) ||
                (t[i] == '.' && i + 1 < e && isdigit((unsigned char)t[i + 1]));
      while (j < e && (isalnum((unsigned char)t[j]) || t[j] == '_' || t[j] == '.' ||
                       (num && (t[j] == '+' || t[j] == '-') && strchr("eEpP", t[j - 1]))))
        j++;
      found |= num ? precision_literal(t + i, j - i) : precision_word(t + i, j - i);
    }
    i = j;
  }
  return found;
}

/* Whether an untaken branch [b, e) is the double side of a precision switch: it names
 * double (a type, a literal like 2.0, a double math function or bit cast) and nothing
 * float. Such a branch is the double build, which is not converted by design. */
static int double_branch(const char *t, unsigned b, unsigned e) {
  return precision_tokens(t, b, e) == 2;
}

/* The directive word of the line starting at `b` (if, ifdef, else, endif...), or "". */
static const char *directive(const char *t, unsigned b, unsigned len, unsigned *word) {
  unsigned i = b;
  while (i < len && (t[i] == ' ' || t[i] == '\t'))
    i++;
  if (i >= len || t[i] != '#')
    return "";
  for (i++; i < len && (t[i] == ' ' || t[i] == '\t'); i++)
    ;
  *word = i;
  return t + i;
}

static int line_names_arch(const char *t, unsigned b, unsigned len) {
  for (unsigned i = b; i + 13 <= len && t[i] != '\n'; i++)
    if (strncmp(t + i, "__CUDA_ARCH__", 13) == 0)
      return 1;
  return 0;
}

/* Whether the untaken branch at `b` belongs to a conditional on __CUDA_ARCH__ (`#if
 * __CUDA_ARCH__ >= 700`, `#ifdef __CUDA_ARCH__`, or the #else/#elif of one): a branch one
 * of CUDA's two compilations takes and the other does not. */
int cp_arch_branch(const char *t, unsigned b, unsigned len) {
  unsigned w = 0;
  const char *d = directive(t, b, len, &w);
  if (line_names_arch(t, b, len))
    return 1;
  if (strncmp(d, "el", 2) != 0)
    return 0;
  int depth = 0; /* back to the #if that opens this chain */
  for (unsigned ls = b; ls > 0;) {
    unsigned p = ls - 1; /* the previous line's start */
    while (p > 0 && t[p - 1] != '\n')
      p--;
    ls = p;
    d = directive(t, ls, len, &w);
    if (strncmp(d, "endif", 5) == 0)
      depth++;
    else if (strncmp(d, "if", 2) == 0 && depth-- == 0)
      return line_names_arch(t, ls, len);
    else if (strncmp(d, "el", 2) == 0 && depth == 0 && line_names_arch(t, ls, len))
      return 1;
  }
  return 0;
}

/* The first of the skipped ranges (in source order) that starts at or after `at`. */
static unsigned first_range_from(const CXSourceRangeList *skipped, unsigned at) {
  unsigned lo = 0, hi = skipped->count;
  while (lo < hi) {
    unsigned mid = (lo + hi) / 2, b;
    clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[mid]), NULL, NULL, NULL, &b);
    if (b < at)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Code of a converted function in a preprocessor branch that was not taken is left as it
 * is: a warning at the branch, so that nobody selects it later and gets float code. Not
 * for the double side of a `real` typedef switch (double_branch): it is the double
 * build, converted by nobody. */
void cp_warn_skipped_branches(cp_run *run, const cp_unit *u, unsigned first,
                              const CXSourceRangeList *skipped) {
  unsigned reported = UINT_MAX;
  for (unsigned f = first; skipped && f < run->n_funcs; f++) {
    if (run->funcs[f].unit != u)
      continue;
    CXSourceRange ext = clang_getCursorExtent(run->funcs[f].cursor);
    unsigned fb, fe;
    clang_getExpansionLocation(clang_getRangeStart(ext), NULL, NULL, NULL, &fb);
    clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &fe);
    for (unsigned i = first_range_from(skipped, fb); i < skipped->count; i++) {
      unsigned b;
      clang_getExpansionLocation(clang_getRangeStart(skipped->ranges[i]), NULL, NULL, NULL, &b);
      if (b >= fe)
        break;
      unsigned be, len = (unsigned)u->opt.input_len;
      clang_getExpansionLocation(clang_getRangeEnd(skipped->ranges[i]), NULL, NULL, NULL, &be);
      /* the run that writes the copies parses as the device compilation does (a branch
       * the host compilation alone takes, skipped there, is the one the copy would miss) */
      if (run->funcs[f].instance && !run->settings->device_parse &&
          cp_arch_branch(u->opt.input_text, b, len)) {
        run->wants_device = 1; /* whatever the branch holds (a double cast too) */
        continue;
      }
      if (run->funcs[f].instance && cp_arch_branch(u->opt.input_text, b, len)) {
        if (b == reported)
          break; /* said for another instance of the same template */
        reported = b;
        /* the copy is written once, from one compilation's view: the other's branch
         * would keep the template's parameters over converted values */
        cp_diag_at(run, u, CP_ERROR, b,
                   "'%s' is converted instance by instance, into one copy written from one of "
                   "CUDA's two compilations, and this branch on __CUDA_ARCH__ is the other's: "
                   "it would stay unconverted in the copy; compute both sides without the "
                   "preprocessor branch, or annotate a function that is not a template [%s]",
                   run->funcs[f].name, cp_rule_name(CP_RULE_TEMPLATE_INSTANCE));
        break;
      }
      if (double_branch(u->opt.input_text, b, be < len ? be : len))
        continue;
      if (!run->settings->device_parse && cp_arch_branch(u->opt.input_text, b, len)) {
        run->wants_device = 1; /* convert as the device compilation sees it (convert.c) */
        continue;
      }
      if (cp_arch_branch(u->opt.input_text, b, len))
        continue; /* the host compilation's branch: converted by the host view (convert.c) */
      cp_diag_at(run, u, CP_WARNING, b,
                 "this preprocessor branch of '%s' was not taken, so it is not converted and "
                 "stays float; convert with the -D options that select it to use it [%s]",
                 run->funcs[f].name, cp_rule_name(CP_RULE_CONVERT));
    }
  }
}
