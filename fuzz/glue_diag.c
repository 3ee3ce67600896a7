/*
 * glue_diag.c: tool/diag.c for fuzz_cli, with a reset of what a run keeps for its whole
 * life (the format, the least severity printed, the error limit and its counts), so that
 * every fuzzing input starts as a fresh run.
 */
#include "../tool/diag.c"

void fuzz_reset_diag(void) {
  format = CP_DIAG_TEXT;
  cp_finish_diags(CP_EXIT_OK); /* in the text format: frees what was kept, prints nothing */
  least_printed = CP_NOTE;
  error_limit = 20;
  errors_printed = errors_held = 0;
}
