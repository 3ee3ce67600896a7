/*
 * fuzz_convert.c: the fuzzing harness over the whole conversion pipeline.
 *
 * One input is one .cu file, converted in memory against the built-in prelude (no CUDA
 * headers, no file system): parse, analyse, edit, apply. Nothing is written. The options
 * come from the input's length, so one corpus covers every algorithm with and without
 * --all while the bytes stay the file the fuzzer mutates.
 *
 * Besides crashes, hangs and sanitizer reports, the harness aborts on a broken contract:
 *  - a run without errors has an output, and it starts with the output marker;
 *  - a run with errors has no output;
 *  - every diagnostic has a message, and a located one a line and a column;
 *  - the output, converted again, is refused (never converted twice).
 *
 * Built two ways (fuzz/CMakeLists.txt): with libFuzzer (clang, -fsanitize=fuzzer) for
 * fuzzing, and with replay.c as main (any compiler) to replay the seeds and every kept
 * regression input in the test suite.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewriter.h"

static void broken(const char *what) {
  fprintf(stderr, "fuzz_convert: contract broken: %s\n", what);
  abort();
}

static cp_result *convert(const char *text, size_t len, size_t selector) {
  cp_options opt = {
      .input = "fuzz.cu",
      .input_text = text,
      .input_len = len,
      .cuda_path = NULL, /* the built-in prelude */
      .algo = (cp_algo)(1 + selector % 3),
      .all = (int)(selector / 3 % 2),
      .header_options = "--algo fuzz",
      .version = "fuzz",
  };
  return cp_convert(&opt);
}

static void check_result(const cp_result *r) {
  if (r->n_errors == 0 && !r->output)
    broken("no error and no output");
  if (r->n_errors != 0 && r->output)
    broken("errors and an output");
  /* a UTF-8 byte order mark of the input stays first, and the marker follows it */
  const char *out = r->output && strncmp(r->output, "\xEF\xBB\xBF", 3) == 0 ? r->output + 3 : r->output;
  if (out && strncmp(out, CP_OUTPUT_MARKER, strlen(CP_OUTPUT_MARKER)) != 0)
    broken("the output does not start with the marker (after a byte order mark)");
  for (size_t i = 0; i < r->n_diags; i++) {
    const cp_diag *d = &r->diags[i];
    if (!d->message || !*d->message)
      broken("a diagnostic without a message");
    if (d->file && d->line == 0 && d->col != 0)
      broken("a diagnostic with a column but no line");
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* libclang reads unsaved files by length, but the rewriter may look for a NUL. */
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  cp_result *r = convert(text, size, size);
  check_result(r);
  if (r->output) {
    cp_result *again = convert(r->output, r->output_len, size);
    check_result(again);
    if (again->n_errors == 0)
      broken("an output was converted again");
    cp_result_free(again);
  }
  cp_result_free(r);
  free(text);
  return 0;
}
