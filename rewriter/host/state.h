/*
 * state.h: what the files of host/ share: the state of one pass over host code and what
 * it is read and edited through (state.c, the bottom of the folder), and the functions
 * each file gives the files after it: the text of statements and calls (statement.c),
 * unpaired instances (instances.c), the MPI calls a pass follows (mpi.c), arrays of device
 * pointers (addresses.c), calls cpconvert does not convert (unconverted.c). host.c, the
 * entrance, walks each host function with them; no file calls it back.
 */
#ifndef CPCONVERT_HOST_STATE_H
#define CPCONVERT_HOST_STATE_H

#include "internal.h"

/* What an MPI call does with a float host buffer (mpi.c). */
typedef enum { MPI_USE_SUM, MPI_USE_SEND, MPI_USE_RECV, MPI_USE_OTHER } mpi_kind;

typedef struct {
  mpi_kind kind;
  CXCursor var;          /* the buffer's variable: the send buffer of a sum, or the receive
                            buffer under MPI_IN_PLACE */
  const char *name;
  const cp_node *call;
  const char *api;
  int arg;               /* the buffer's argument */
  int kept;              /* moved with its companion NAME_err */
  int dropped;           /* a copy back recombined it although this call moves it: warn */
  int fixed;             /* sums: of accumulate(fixed) values, summed as 64-bit integers */
  const char *why;       /* dropped: why, for the warning */
} mpi_use;

#define MAX_COMPANIONS 64
#define MAX_INSTANCES 64

/* A local struct variable and whether it is an unpaired instance (instances.c). */
typedef struct {
  CXCursor var;
  int yes;
} instance;

/* One pass: over a host function (host.c, and instances.c following a struct into the
 * host functions that launch with it), or over a declaration site (fields.c). */
typedef struct {
  cp_run *run;
  cp_unit *u; /* the unit whose text is edited: f's, or a declaration site's */
  cp_func *f;
  mpi_use *mpi;
  int n_mpi, cap_mpi;
  CXCursor comp[MAX_COMPANIONS]; /* host variables given a NAME_err for MPI */
  int n_comp;
  instance unpaired[MAX_INSTANCES]; /* local struct variables asked about (instances.c) */
  int n_unpaired;
  int depth; /* instances.c: host functions entered to follow a struct parameter */
} host;

/* state.c: h set for a pass of `run` over unit `u` (function `f`), nothing seen yet. */
void cp_host_start(host *h, cp_run *run, cp_unit *u, cp_func *f);

static inline cp_arena *arena(host *h) { return h->run->r->arena; }
static inline const char *text(host *h) { return h->u->opt.input_text; }
/* An edit of h's unit that is one application of `rule`. */
static inline void edit(host *h, size_t offset, size_t length, const char *repl, cp_rule rule) {
  cp_apply_edit(h->run, &h->u->edits, offset, length, repl, rule);
}

static inline const char *err_of(host *h, const char *name) {
  return cp_arena_printf(arena(h), "%s" CP_ERR_SUFFIX, name);
}

static inline int is_paired(const cp_var *v) { return v && v->role == CP_VAR_PAIRED; }

static inline const char *line_end(host *h) {
  return cp_line_ending(text(h), h->u->opt.input_len);
}

static inline const char *spelling_of(host *h, CXCursor c) {
  return cp_cursor_spelling(arena(h), c);
}

/* state.c: `s` with every whole-word `name` replaced by `repl`. */
const char *cp_host_replace_word(host *h, const char *s, const char *name, const char *repl);
/* `text` with every whole word `name` renamed to its companion NAME_err. */
static inline const char *to_companion(host *h, const char *text, const char *name) {
  return cp_host_replace_word(h, text, name, err_of(h, name));
}

/* ---- unpaired instances (instances.c) ---------------------------------------------- */

/* The buffer `n` is rooted at (cp_host_buffer), except a paired field of a local struct
 * variable that no converted function sees (an unpaired instance): NULL. */
cp_var *cp_host_root(host *h, const cp_node *n);
/* Whether local struct variable `var` is an unpaired instance. */
int cp_host_unpaired_instance(host *h, CXCursor var);

/* ---- calls cpconvert does not convert (unconverted.c) ------------------------------ */

/* The call `call` of `name`, a function cpconvert does not convert, with
 * paired buffers among its arguments: the warnings where their errors are lost. */
void cp_host_other_call(host *h, cp_node *call, const char *name);
/* A lambda in host code that stores into a paired buffer it captures. */
void cp_host_lambda(host *h, const cp_node *lambda);

/* ---- statements and calls as text (statement.c) ------------------------------------ */

typedef struct {
  const char *stmt;   /* the statement's text, without its ';' */
  unsigned b, e;      /* the call NAME(...) within it */
  const char *arg[12]; /* its arguments' texts, trimmed */
  int nargs;
} call_text;

/* The statement of a host function that contains `n`; NULL outside any statement. */
const cp_node *cp_host_statement_of(const cp_node *n);
/* The offset just past the ';' that ends statement `s`. */
unsigned cp_host_statement_end(host *h, const cp_node *s);
/* The blanks that start the line of `offset`. */
const char *cp_host_indent_of(host *h, unsigned offset);
/* Where a new line goes after `offset`. */
unsigned cp_host_line_insert_point(host *h, unsigned offset);
/* The text of statement `s`, ending in its ';'. */
const char *cp_host_statement_text(host *h, const cp_node *s);
/* Adds `stmts` (each a complete statement) as new lines after statement `s`. */
void cp_host_insert_after(host *h, const cp_node *s, const char *stmts, cp_rule rule);
/* What inserting `lines` (lines of code, separated by a line end and the indentation of the
 * line holding offset `like`) at offset `at` writes: new lines in that indentation where
 * the rest of the line at `at` is blank, else the same code on that line after a space
 * (`CK(cudaFree(p.x)); CK(cudaFree(p.x_err)); CK(cudaFree(p.v));`), so that the input's
 * lines stay as they were. */
const char *cp_host_added_text(host *h, unsigned at, unsigned like, const char *lines);
/* `n` bytes of `s`, blanks trimmed at both ends. */
const char *cp_host_trim(host *h, const char *s, size_t n);
/* The statement with its call replaced by `call`, as a complete statement. */
const char *cp_host_with_call(host *h, const call_text *ct, const char *call);
/* --profile: the launch `call`'s grid written `(forms, grid)`; 0 where it cannot be. */
int cp_host_prof_grid(host *h, const cp_node *call, const char *forms);
/* Whether statement `s` can be repeated for a companion (cp_host_statement_text): 1, or 0
 * after a located error naming its first side effect besides the operation `op` (k++ in
 * an argument, `sent +=` around a call, `, n++` after it): the copy would do it twice.
 * `what` names the operation in the message ("the swap of 'a'"). */
int cp_host_repeatable(host *h, const cp_node *s, const cp_node *op, const char *what);
/* Whether evaluating `n` twice equals evaluating it once: no store, ++/--, or call that is
 * not pure. */
int cp_host_side_effect_free(host *h, const cp_node *n);
/* An error of rule host-pair at `n`. */
void cp_host_error(host *h, const cp_node *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The statement holding `call` and its text; reports and returns NULL if there is none. */
const cp_node *cp_host_statement_for(host *h, const cp_node *call, const char *api, call_text *ct);
/* The declaration statement of a local variable. */
const cp_node *cp_host_decl_of(const cp_node *n, CXCursor var);

/* ---- initializer lists of structs with companion fields (lists.c) ------------------- */

/* A positional initializer list `n` of a struct that gains companion fields: the
 * companions' values inserted at their places among the elements. */
void cp_host_init_list(host *h, const cp_node *n);

/* ---- arrays of the addresses of device pointers (addresses.c) ---------------------- */

/* `float **fields[3] = {&p.px, ...}` (a VarDecl `n`): the companion array after it; a call
 * `name` through such an array: cudaMalloc and cudaFree followed by the same for the
 * companion, anything else refused. Whether the call was one (handled). */
int cp_host_address_call(host *h, cp_node *n, const char *name);
/* Whether `var` is an array of device pointers, `float4 *dPos[2]` (addresses.c); paired, it
 * is one buffer whose companion is an array of the same shape, each element allocated,
 * copied, freed and passed beside its value's with the same index. */
int cp_host_pointer_array(CXCursor var);
/* `ELEM NAME_err[N] = init;` for such an array (no initializer when `init` is NULL). */
const char *cp_host_array_decl(host *h, CXCursor var, const char *init);

/* ---- MPI calls on host copies of paired buffers (mpi.c) ---------------------------- */

/* The float variable an argument names (`&x`, `x`, `&x[0]`, `p + k`), else a null cursor. */
CXCursor cp_mpi_var(const cp_node *n);
/* Records the MPI calls on float host variables in `n`, before the walk. */
void cp_mpi_find_uses(host *h, cp_node *n);
/* At a device-to-host copy of paired buffer `src` into `dst` (statement `s`): whether the
 * MPI sums and sends of dst that follow keep its residuals. */
int cp_mpi_keeps(host *h, const cp_node *dst, const cp_node *s, const cp_var *src, int can_keep);
/* The kept receive that last filled host variable `v` before offset `at`, or NULL. */
const mpi_use *cp_mpi_received_pairs(host *h, CXCursor v, unsigned at);
/* An MPI call with recorded float buffers: converted, or warned about. */
void cp_mpi_convert(host *h, cp_node *call, const char *api, int nargs);
/* An MPI call cpconvert does not convert: only the warnings. */
void cp_mpi_other(host *h, cp_node *call);
/* mpi.c: MPI_Sendrecv between two paired device buffers (CUDA-aware MPI): the same exchange
 * of the companions after it; whether it was one. */
int cp_mpi_device_sendrecv(host *h, cp_node *call, const char *name);
/* free(p) or delete[] p of a host variable with a companion: the same for the companion. */
void cp_mpi_host_free(host *h, cp_node *n);

#endif
