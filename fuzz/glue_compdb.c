/*
 * glue_compdb.c: tool/compdb.c for fuzz_cli, with a reset of the database it loads once
 * a run, so that every fuzzing input loads its own compile_commands.json.
 */
#include "../tool/compdb.c"

void fuzz_reset_compdb(void) {
  for (unsigned i = 0; i < loaded.n; i++)
    free(loaded.by_file[i].real);
  free(loaded.by_file);
  if (loaded.cmds)
    clang_CompileCommands_dispose(loaded.cmds);
  if (loaded.db)
    clang_CompilationDatabase_dispose(loaded.db);
  free(loaded.build_dir);
  memset(&loaded, 0, sizeof loaded);
}
