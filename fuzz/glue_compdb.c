/*
 * glue_compdb.c: tool/compdb.c for fuzz_cli, with a reset of the database it loads once
 * a run, so that every fuzzing input loads its own compile_commands.json.
 */
#include "../tool/compdb.c"

void fuzz_reset_compdb(void) {
  for (unsigned i = 0; i < loaded.n; i++)
    free(loaded.by_file[i].real);
  free(loaded.by_file);
  for (unsigned i = 0; i < loaded.n_cmds; i++)
    free_command(&loaded.cmds[i]);
  free(loaded.cmds);
  free(loaded.build_dir);
  memset(&loaded, 0, sizeof loaded);
}
