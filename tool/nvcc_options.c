/*
 * nvcc_options.c: nvcc's own options, as `nvcc --help` of CUDA 13.0 lists them (143), and
 * the ones of CUDA 12 and the undocumented ones builds still pass (-Xcudafe, -Xfatbin,
 * --fatbin-options), for the flags after `--` and the compile commands of -p: which take a
 * value, and the macros nvcc defines for them. None of them reaches the parser; where nvcc
 * defines a macro for an option (measured with `nvcc -E -Xcompiler -dM`), the parser gets
 * the same definition, so it takes the branch of `#if` that nvcc takes. tests/cli/
 * nvcc_options.py checks the table against the installed nvcc's --help.
 */
#include <string.h>

#include "tool.h"

enum { ALONE, VALUE, KEPT /* a parser flag: compdb.c maps it (-D, -I, ...) */ };

static const struct nvcc_option {
  const char *name, *short_name;
  int kind;
} options[] = {
    {"--cuda", "-cuda", ALONE},
    {"--cubin", "-cubin", ALONE},
    {"--fatbin", "-fatbin", ALONE},
    {"--ptx", "-ptx", ALONE},
    {"--optix-ir", "-optix-ir", ALONE},
    {"--ltoir", "-ltoir", ALONE},
    {"--preprocess", "-E", ALONE},
    {"--generate-dependencies", "-M", ALONE},
    {"--generate-nonsystem-dependencies", "-MM", ALONE},
    {"--generate-dependencies-with-compile", "-MD", ALONE},
    {"--generate-nonsystem-dependencies-with-compile", "-MMD", ALONE},
    {"--dependency-output", "-MF", VALUE}, /* its file: not shown by --help */
    {"--generate-dependency-targets", "-MP", ALONE},
    {"--compile", "-c", ALONE},
    {"--device-c", "-dc", ALONE},
    {"--device-w", "-dw", ALONE},
    {"--device-link", "-dlink", ALONE},
    {"--link", "-link", ALONE},
    {"--lib", "-lib", ALONE},
    {"--run", "-run", ALONE},
    {"--output-file", "-o", VALUE},
    {"--pre-include", "-include", KEPT},
    {"--objdir-as-tempdir", "-objtemp", ALONE},
    {"--library", "-l", VALUE},
    {"--define-macro", "-D", KEPT},
    {"--undefine-macro", "-U", KEPT},
    {"--include-path", "-I", KEPT},
    {"--system-include", "-isystem", KEPT},
    {"--library-path", "-L", VALUE},
    {"--output-directory", "-odir", VALUE},
    {"--compiler-bindir", "-ccbin", VALUE},
    {"--allow-unsupported-compiler", "-allow-unsupported-compiler", ALONE},
    {"--archiver-binary", "-arbin", VALUE},
    {"--cudart", "-cudart", VALUE},
    {"--cudadevrt", "-cudadevrt", VALUE},
    {"--libdevice-directory", "-ldir", VALUE},
    {"--target-directory", "-target-dir", VALUE},
    {"--use-local-env", "-use-local-env", ALONE},
    {"--force-cl-env-setup", "-force-cl-env-setup", ALONE},
    {"--profile", "-pg", ALONE},
    {"--debug", "-g", ALONE},
    {"--device-debug", "-G", ALONE},
    {"--generate-line-info", "-lineinfo", ALONE},
    {"--optimization-info", "-opt-info", VALUE},
    {"--optimize", "-O", VALUE},
    {"--Ofast-compile", "-Ofc", VALUE},
    {"--dopt", "-dopt", VALUE},
    {"--dlink-time-opt", "-dlto", ALONE},
    {"--lto", "-lto", ALONE},
    {"--gen-opt-lto", "-gen-opt-lto", ALONE},
    {"--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", VALUE},
    {"--ftemplate-depth", "-ftemplate-depth", VALUE},
    {"--no-exceptions", "-noeh", ALONE},
    {"--shared", "-shared", ALONE},
    {"--x", "-x", VALUE},
    {"--std", "-std", KEPT},
    {"--no-host-device-initializer-list", "-nohdinitlist", ALONE},
    {"--no-host-device-move-forward", "-nohdmoveforward", ALONE},
    {"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", ALONE},
    {"--extended-lambda", "-extended-lambda", ALONE},
    {"--expt-extended-lambda", "-expt-extended-lambda", ALONE},
    {"--machine", "-m", VALUE},
    {"--m64", "-m64", ALONE},
    {"--compiler-options", "-Xcompiler", VALUE},
    {"--linker-options", "-Xlinker", VALUE},
    {"--archive-options", "-Xarchive", VALUE},
    {"--ptxas-options", "-Xptxas", VALUE},
    {"--nvlink-options", "-Xnvlink", VALUE},
    {"--static-global-template-stub", "-static-global-template-stub", VALUE},
    {"--device-entity-has-hidden-visibility", "-device-entity-has-hidden-visibility", VALUE},
    {"--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler", ALONE},
    {"--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker", ALONE},
    {"--forward-unknown-opts", "-forward-unknown-opts", ALONE},
    {"--dont-use-profile", "-noprof", ALONE},
    {"--dryrun", "-dryrun", ALONE},
    {"--verbose", "-v", ALONE},
    {"--threads", "-t", VALUE},
    {"--split-compile", "-split-compile", VALUE},
    {"--split-compile-extended", "-split-compile-extended", VALUE},
    {"--fdevice-syntax-only", "-fdevice-syntax-only", ALONE},
    {"--fdevice-time-trace", "-fdevice-time-trace", VALUE},
    {"--keep", "-keep", ALONE},
    {"--keep-dir", "-keep-dir", VALUE},
    {"--save-temps", "-save-temps", ALONE},
    {"--clean-targets", "-clean", ALONE},
    {"--time", "-time", VALUE},
    {"--run-args", "-run-args", VALUE},
    {"--input-drive-prefix", "-idp", VALUE},
    {"--dependency-drive-prefix", "-ddp", VALUE},
    {"--drive-prefix", "-dp", VALUE},
    {"--dependency-target-name", "-MT", VALUE},
    {"--no-align-double", NULL, ALONE},
    {"--no-device-link", "-nodlink", ALONE},
    {"--gpu-architecture", "-arch", VALUE},
    {"--gpu-code", "-code", VALUE},
    {"--generate-code", "-gencode", VALUE},
    {"--relocatable-device-code", "-rdc", VALUE},
    {"--entries", "-e", VALUE},
    {"--maxrregcount", "-maxrregcount", VALUE},
    {"--use_fast_math", "-use_fast_math", ALONE},
    {"--ftz", "-ftz", VALUE},
    {"--prec-div", "-prec-div", VALUE},
    {"--prec-sqrt", "-prec-sqrt", VALUE},
    {"--fmad", "-fmad", VALUE},
    {"--extra-device-vectorization", "-extra-device-vectorization", ALONE},
    {"--default-stream", "-default-stream", VALUE},
    {"--disable-warnings", "-w", ALONE},
    {"--keep-device-functions", "-keep-device-functions", ALONE},
    {"--source-in-ptx", "-src-in-ptx", ALONE},
    {"--restrict", "-restrict", ALONE},
    {"--Wreorder", "-Wreorder", ALONE},
    {"--Wdefault-stream-launch", "-Wdefault-stream-launch", ALONE},
    {"--Wmissing-launch-bounds", "-Wmissing-launch-bounds", ALONE},
    {"--Wext-lambda-captures-this", "-Wext-lambda-captures-this", ALONE},
    {"--Wno-deprecated-declarations", "-Wno-deprecated-declarations", ALONE},
    {"--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets", ALONE},
    {"--Werror", "-Werror", VALUE},
    {"--resource-usage", "-res-usage", ALONE},
    {"--extensible-whole-program", "-ewp", ALONE},
    {"--no-compress", "-no-compress", ALONE},
    {"--qpp-config", "-qpp-config", ALONE},
    {"--compile-as-tools-patch", "-astoolspatch", ALONE},
    {"--list-gpu-code", "-code-ls", ALONE},
    {"--list-gpu-arch", "-arch-ls", ALONE},
    {"--display-error-number", "-err-no", ALONE},
    {"--no-display-error-number", "-no-err-no", ALONE},
    {"--diag-error", "-diag-error", VALUE},
    {"--diag-suppress", "-diag-suppress", VALUE},
    {"--diag-warn", "-diag-warn", VALUE},
    {"--host-linker-script", "-hls", VALUE},
    {"--augment-host-linker-script", "-aug-hls", ALONE},
    {"--relocatable-link", "-r", ALONE},
    {"--brief-diagnostics", "-brief-diag", VALUE},
    {"--jump-table-density", "-jtd", VALUE},
    {"--relocatable-ptx", "-reloc-ptx", ALONE},
    {"--device-stack-protector", "-device-stack-protector", VALUE},
    {"--compress-mode", "-compress-mode", VALUE},
    {"--frandom-seed", "-frandom-seed", VALUE},
    {"--sanitize", "-sanitize", VALUE},
    {"--jobserver", "-jobserver", ALONE},
    {"--help", "-h", ALONE},
    {"--version", "-V", ALONE},
    {"--options-file", "-optf", KEPT}, /* read as @FILE where the tool reads files */
    /* CUDA 12's and the undocumented ones */
    {"--fatbin-options", "-Xfatbin", VALUE},
    {"--cudafe-options", "-Xcudafe", VALUE},
    {"--expt-extended-lambda", "-expt-extended-lambda", ALONE},
    {"--use-fast-math", NULL, ALONE},
    {"--gpu-name", NULL, VALUE},
};

/* The kinds of -Werror: its value is taken only when it is one of them (so that a clang
 * `-Werror` followed by another flag keeps that flag). */
static const char *const werror_kinds[] = {
    "all-warnings", "cross-execution-space-call", "reorder", "default-stream-launch",
    "missing-launch-bounds", "ext-lambda-captures-this", "deprecated-declarations", NULL};

static int werror_value(const char *v) {
  while (v && *v) {
    size_t n = strcspn(v, ",");
    int ok = 0;
    for (int k = 0; werror_kinds[k]; k++)
      ok |= strlen(werror_kinds[k]) == n && strncmp(v, werror_kinds[k], n) == 0;
    if (!ok)
      return 0;
    v += n + (v[n] == ',');
  }
  return v != NULL;
}

/* `a` is `name` or `name=VALUE`, name in its --long or -short form; nvcc takes a long
 * name with one dash too (-use_fast_math). *value: after '=', or NULL. */
static int named(const char *a, const char *name, const char **value) {
  if (!name)
    return 0;
  for (int dashes = 0; dashes < 2; dashes++) {
    const char *n = name + (dashes && name[0] == '-' && name[1] == '-');
    size_t len = strlen(n);
    if (strncmp(a, n, len) == 0 && (a[len] == 0 || a[len] == '=')) {
      *value = a[len] == '=' ? a + len + 1 : NULL;
      return 1;
    }
  }
  return 0;
}

/* The macro nvcc defines for option `name` with value `v` (NULL: none). */
static const char *macro_of(const char *name, const char *v) {
  static const struct {
    const char *name, *value, *define;
  } macros[] = {
      {"--extended-lambda", NULL, "-D__CUDACC_EXTENDED_LAMBDA__=1"},
      {"--expt-extended-lambda", NULL, "-D__CUDACC_EXTENDED_LAMBDA__=1"},
      {"--expt-relaxed-constexpr", NULL, "-D__CUDACC_RELAXED_CONSTEXPR__=1"},
      {"--device-c", NULL, "-D__CUDACC_RDC__=1"},
      {"--dlink-time-opt", NULL, "-D__CUDACC_RDC__=1"},
      {"--relocatable-device-code", "true", "-D__CUDACC_RDC__=1"},
      {"--device-debug", NULL, "-D__CUDACC_DEBUG__=1"},
      {"--default-stream", "per-thread", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"},
      {"--no-exceptions", NULL, "-fno-exceptions"},
  };
  for (size_t k = 0; k < sizeof macros / sizeof macros[0]; k++)
    if (strcmp(name, macros[k].name) == 0 &&
        (!macros[k].value || (v && strcmp(v, macros[k].value) == 0)))
      return macros[k].define;
  return NULL;
}

int cp_nvcc_option(const char *a, const char *next, const char **define) {
  *define = NULL;
  if (a[0] != '-')
    return 0;
  for (size_t k = 0; k < sizeof options / sizeof options[0]; k++) {
    const struct nvcc_option *o = &options[k];
    const char *v;
    if (!named(a, o->name, &v) && !named(a, o->short_name, &v))
      continue;
    if (o->kind == KEPT)
      return 0;
    int apart = o->kind == VALUE && !v && next;
    if (apart && strcmp(o->name, "--Werror") == 0)
      apart = werror_value(next);
    *define = macro_of(o->name, apart ? next : v);
    return 1 + apart;
  }
  /* a library joined to its option: -lcudart, -L/opt/lib (link flags, which clang would
   * warn about) */
  return (a[1] == 'l' || a[1] == 'L') && a[2] ? 1 : 0;
}
