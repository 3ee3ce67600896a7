/*
 * glue_files.c: tool/files.c for fuzz_cli, with a reset of what a run keeps for its whole
 * life (the files noted as read), so that one fuzzing process is many short runs.
 */
#include "../tool/files.c"

void fuzz_reset_files(void) {
  for (size_t i = 0; i < n_noted; i++)
    free((char *)noted[i].path);
  free(noted);
  noted = NULL;
  n_noted = 0;
}
