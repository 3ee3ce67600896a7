/*
 * state.c: the state of one pass of host/ over host code, at the bottom of the folder.
 *
 * A pass (host.c over a host function, instances.c over a host function that launches
 * with a struct it asks about, fields.c over a declaration site) keeps what it has seen in
 * one `host` (state.h): the run, the unit whose text it reads and edits, the function, the
 * MPI calls found before the walk, the companions declared for them, the instances asked
 * about. Every file of host/ reads and edits through it, so it sits below them all and
 * calls none of them: host.c, which walks a host function with the others, stays the
 * entrance that nothing in the folder calls.
 */
#include <string.h>

#include "state.h"

void cp_host_start(host *h, cp_run *run, cp_unit *u, cp_func *f) {
  memset(h, 0, sizeof *h);
  h->run = run;
  h->u = u;
  h->f = f;
}

/* `s` with every whole-word `name` replaced by `repl`: a statement's text with a buffer
 * renamed to its companion (to_companion). */
const char *cp_host_replace_word(host *h, const char *s, const char *name, const char *repl) {
  size_t n = strlen(name), r = strlen(repl), count = 0;
  for (const char *p = strstr(s, name); p; p = strstr(p + n, name))
    count++;
  char *out = cp_arena_alloc(arena(h), strlen(s) + count * r + 1), *o = out;
  for (const char *p = s; *p;) {
    if (strncmp(p, name, n) == 0 && (p == s || !cp_ident_char(p[-1])) && !cp_ident_char(p[n])) {
      memcpy(o, repl, r);
      o += r;
      p += n;
    } else {
      *o++ = *p++;
    }
  }
  *o = '\0';
  return out;
}
