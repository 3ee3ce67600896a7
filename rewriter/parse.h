/*
 * parse.h: parsing one CUDA file with libclang (parse.c), shared by the analysis files.
 */
#ifndef CPCONVERT_PARSE_H
#define CPCONVERT_PARSE_H

#include <clang-c/Index.h>

#include "rewriter.h"

typedef struct {
  CXIndex index;
  CXTranslationUnit tu;
  CXFile main_file;
  const char *const *pch_deps; /* opt->pch_deps when the parse used opt->pch */
  size_t n_pch_deps;
} cp_parse;

/* Parses opt->input (its bytes taken from opt->input_text) and records clang's errors
 * in `r`. Returns 0 when a translation unit exists and had no errors. */
int cp_parse_open(cp_parse *p, const cp_options *opt, cp_result *r);
void cp_parse_close(cp_parse *p);

/* A file's text standing in for the file at `path`. */
typedef struct {
  const char *path;
  const char *text;
  size_t len;
} cp_source;

/* Parses files[0] (a converted input) with opt's command line, files[1..n) standing in for
 * the headers at their paths and the embedded runtime headers reachable as <cp/...>, as
 * the user's build will compile it (opt->output_pch used when clang accepts it; else
 * *pch_refused is set). NULL when libclang
 * makes no translation unit; else the caller disposes of it. */
CXTranslationUnit cp_parse_output(CXIndex index, const cp_options *opt, cp_arena *a,
                                  const cp_source *files, unsigned n, int *pch_refused);
/* Whether the last parse (either of the above) failed because memory ran out. */
int cp_parse_out_of_memory(void);
/* What an output's code starts with: CP_CONVERTED (defined only in converted code, so
 * that the annotated source can tell the builds apart), the runtime's configuration
 * (CP_ALGO, CP_BACKEND, as opt says) and its include, lines ending in `nl`. */
const char *cp_runtime_prologue(cp_arena *a, const cp_options *opt, const char *nl);
/* Adds to r->deps the user headers the input includes that it lacks (for -MD). */
void cp_parse_deps(cp_parse *p, cp_result *r);

/* arena.c: the last line cp_line_at copied into the arena, and where it came from. */
typedef struct {
  const char *text, *line;
  size_t b, e;
} cp_arena_line;
cp_arena_line *cp_arena_last_line(cp_arena *a);

/* diag.c (below parse.c, which quotes the lines of clang's errors): the source line
 * containing byte `offset` of `text`, copied into the arena once for the diagnostics that
 * share it (2 000 errors on one 100 kB pragma line are one copy, not 2 000). */
const char *cp_line_at(cp_arena *a, const char *text, size_t len, size_t offset);
/* The end-of-line sequence of `text`, that of its first line: "\r\n", "\n", or "\r" for
 * the lone CRs of old Mac files (clang ends lines there too), so that inserted lines
 * match the file. */
const char *cp_line_ending(const char *text, size_t len);
/* Whether byte i of `text` ends a line: a '\n', or a '\r' that no '\n' follows. */
int cp_line_end_at(const char *text, size_t len, size_t i);

#endif
