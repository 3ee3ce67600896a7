/*
 * tool.h: the command line's own pieces (tool/): option parsing, printing diagnostics,
 * reading the input and writing the output. Only tool/ prints or touches files.
 */
#ifndef CPCONVERT_TOOL_H
#define CPCONVERT_TOOL_H

#include <stdio.h>

#include "rewriter.h"

enum { CP_EXIT_OK = 0, CP_EXIT_ERRORS = 1, CP_EXIT_USAGE = 2 };

/* diag.c: prints `file:line:col: severity: message`, the source line and a caret. */
void cp_print_diag(FILE *out, const cp_diag *d);
/* An error of the tool itself (no source location): `cpconvert: error: ...`. */
void cp_tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* diff.c: the unified diff of `in` and `in` with `edits` applied (nothing if no edit). */
void cp_print_diff(FILE *out, const char *old_label, const char *new_label, const char *in,
                   size_t in_len, const cp_edit_list *edits);

/* files.c */
/* Reads a whole file; returns NULL and sets errno on failure. The caller frees. */
char *cp_read_file(const char *path, size_t *len);
/* 1 when both paths name the same existing file. */
int cp_same_file(const char *a, const char *b);
/* Writes `len` bytes to `path` through a temporary file in the same directory and a
 * rename, so `path` holds either its old contents or all of the new ones. Returns 0,
 * or -1 with a message in `err` (size `errsz`). */
int cp_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errsz);
/* The CUDA installation to parse against: `given` if set (NULL if it holds no
 * include/cuda_runtime.h), else the first of $CUDA_PATH, $CUDA_HOME, the prefix of
 * `nvcc` on PATH and /usr/local/cuda that holds it; NULL if none does. The returned
 * string is static or from the environment. */
const char *cp_find_cuda(const char *given);

/* stack.c: cp_convert_files on a thread with a stack deep enough for deeply nested
 * expressions (clang and the rewriter recurse once per level). */
cp_result *cp_convert_deep(const cp_options *opts, int n);

#endif
