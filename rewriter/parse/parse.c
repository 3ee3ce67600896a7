/*
 * parse.c: runs libclang over the input as CUDA and reports clang's errors.
 *
 * The file is parsed in CUDA host mode (--cuda-host-only): kernels, device functions
 * and host code all appear in one AST, with __CUDA_ARCH__ undefined, as a host
 * compiler sees the file. Two header set-ups:
 *
 *  - Installed CUDA (opt->cuda_path): CUDA 13 moved CCCL (cuda/std/..., thrust/, cub/)
 *    to include/cccl, which nvcc searches implicitly; so does this parse. libclang hands
 *    its resource directory to the compiler but not to the driver, which builds the CUDA
 *    include path from it: unless it is named (-resource-dir, opt->clang_resources), the
 *    driver leaves out clang's cuda_wrappers/ (the device placement new, among others),
 *    and thrust and CUB do not parse. Clang 22 knows CUDA up to 12.9:
 *    -Wunknown-cuda-version is silenced. Where the parser is clang 16 (CP_CUDA_STANDIN),
 *    two more things: its CUDA wrapper includes texture_fetch_functions.h, which CUDA 13
 *    no longer ships, so an empty stand-in, given to clang as an in-memory file in a
 *    virtual directory searched with -idirafter, takes its place; and it refuses CCCL's
 *    variadic __host__ __device__ helpers unless told -fcuda-allow-variadic-functions
 *    (nvcc accepts them). Clang 22 needs neither.
 *  - No CUDA (cuda_path NULL): -nocudainc, and the built-in prelude (prelude/
 *    cuda_runtime.h, embedded at build time) is included implicitly, as nvcc includes
 *    cuda_runtime.h.
 *
 * The input's bytes come from the caller (the tool read them once), passed as an
 * unsaved file, so the text the edits apply to is exactly the text clang parsed.
 *
 * Precompiled headers: nearly all of a parse is the CUDA headers every file includes
 * (clang's implicit -include __clang_cuda_runtime_wrapper.h, or the prelude). cp_pch_build
 * parses an empty file with exactly the input's command line and saves the AST; a parse
 * given opt->pch adds -include-pch, so clang loads those declarations instead of parsing
 * them, and the implicit include that follows is skipped by its include guard. The PCH
 * is written by libclang to the path the tool chose: the one file the rewriter writes,
 * because only libclang can serialise an AST; where, when and under which name (a
 * temporary renamed into place) stay the tool's decisions. A PCH that clang refuses
 * (built by another libclang, for other flags, truncated, garbage), or any error in a
 * parse that used one, means the file is parsed again without it, so what the rewriter
 * sees and reports never depends on the cache.
 */
#define _GNU_SOURCE /* memfd_create */
#include "parse.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "prelude_cooperative_groups.inc"
#include "prelude_cuda_runtime.inc"

typedef struct {
  const char *path, *text;
  unsigned long len;
} cp_embedded;
#include "runtime_headers.inc"

#ifndef CP_LIBCLANG_MAJOR
#error "CP_LIBCLANG_MAJOR: the libclang release this is built with (cmake/FindLibclang.cmake)"
#endif
/* Tested with 16 and 22: what clang 16 needs for CUDA 13, and 22 does not (see above). */
#define CP_CUDA_STANDIN (CP_LIBCLANG_MAJOR < 22)

#define CP_VIRTUAL_DIR "/cpconvert-builtin"

#if CP_CUDA_STANDIN
static const char standin_path[] = CP_VIRTUAL_DIR "/cuda-standin/texture_fetch_functions.h";
#endif
static const char prelude_dir[] = CP_VIRTUAL_DIR "/prelude";
static const char prelude_path[] = CP_VIRTUAL_DIR "/prelude/cuda_runtime.h";
static const char prelude_cuda_h[] = CP_VIRTUAL_DIR "/prelude/cuda.h";
static const char prelude_dlp_h[] = CP_VIRTUAL_DIR "/prelude/device_launch_parameters.h";
static const char prelude_cg_h[] = CP_VIRTUAL_DIR "/prelude/cooperative_groups.h";
static const char include_prelude[] = "#include <cuda_runtime.h>\n";
static const char pch_main[] = CP_VIRTUAL_DIR "/pch.cu"; /* the empty file a PCH is built of */
static const char runtime_dir[] = CP_VIRTUAL_DIR "/runtime"; /* <cp/cp.cuh>, for verify.c */

static const char *algo_macro(cp_algo algo) {
  switch (algo) {
  case CP_ALGO_PAPER: return "CP_ALGO_PAPER";
  case CP_ALGO_FAST: return "CP_ALGO_FAST";
  case CP_ALGO_MID: return "CP_ALGO_MID";
  case CP_ALGO_ACCURATE: break;
  }
  return NULL; /* the runtime's default */
}

static const char *backend_macro(cp_backend backend) {
  switch (backend) {
  case CP_BE_FF: return "CP_BACKEND_FF";
  case CP_BE_DP: return "CP_BACKEND_DP";
  case CP_BE_AUTO: break;
  }
  return NULL; /* the runtime's default: chosen per architecture */
}

/* `#define NAME VALUE` and a line end, or "" when value is NULL (the runtime's default). */
static const char *define_line(cp_arena *a, const char *name, const char *value, const char *nl) {
  return value ? cp_arena_printf(a, "#define %s %s%s", name, value, nl) : "";
}

const char *cp_runtime_prologue(cp_arena *a, const cp_options *opt, const char *nl) {
  return cp_arena_printf(a, "%s%s%s%s#include <cp/cp.cuh>%s",
                         define_line(a, "CP_CONVERTED", "1", nl), /* docs/runtime.md */
                         define_line(a, "CP_ALGO", algo_macro(opt->algo), nl),
                         define_line(a, "CP_BACKEND", backend_macro(opt->backend), nl),
                         define_line(a, "CP_PROFILE", opt->profile ? "1" : NULL, nl), nl);
}

/* -fopenmp (-fopenmp=LIB) is parsed as -D_OPENMP=202011, the value clang gives it: in the
 * AST of an OpenMP parse, the statements inside a directive (`#pragma omp parallel { ... }`)
 * are a captured region that libclang's cursors do not reach, so host code there (the
 * launches, cudaMalloc of a paired buffer) could not be converted. Without the flag the
 * directive is an unknown pragma and the block a plain statement; with _OPENMP defined, the
 * `#ifdef _OPENMP` branches are still the ones read. The output keeps every pragma. */
static const char *openmp_flag(const char *arg) {
  return strcmp(arg, "-fopenmp") == 0 || strncmp(arg, "-fopenmp=", 9) == 0 ? "-D_OPENMP=202011" : arg;
}

/* Whether the parser's flags include a header before the file (-include, -imacros). */
static int forces_include(const cp_options *opt) {
  for (int i = 0; i < opt->n_clang_args; i++) {
    const char *a = opt->clang_args[i];
    if ((strncmp(a, "-include", 8) == 0 && strncmp(a, "-include-pch", 12) != 0) ||
        strncmp(a, "--include", 9) == 0 || strncmp(a, "-imacros", 8) == 0 ||
        strncmp(a, "--imacros", 9) == 0)
      return 1;
  }
  return 0;
}

/* The header set-up: the installed CUDA (the header comment above) or the prelude. Appends
 * to args from k; returns the new count. */
static int header_args(cp_arena *a, const cp_options *opt, const char **args, int k) {
  if (!opt->cuda_path) {
    args[k++] = "-nocudainc";
    args[k++] = "-nocudalib";
    args[k++] = "--no-cuda-version-check";
    args[k++] = "-isystem";
    args[k++] = prelude_dir;
    args[k++] = "-include";
    args[k++] = prelude_path;
    return k;
  }
  args[k++] = cp_arena_printf(a, "--cuda-path=%s", opt->cuda_path);
  args[k++] = "-isystem"; /* CUDA 13 keeps CCCL (cuda/std, thrust, cub) there; as nvcc */
  args[k++] = cp_arena_printf(a, "%s/include/cccl", opt->cuda_path);
  if (opt->clang_resources) { /* the driver's CUDA include path starts there */
    args[k++] = "-resource-dir";
    args[k++] = opt->clang_resources;
  }
  args[k++] = "-Wno-unknown-cuda-version";
  /* clang's wrapper includes __clang_cuda_texture_intrinsics.h, which implements
   * __nv_tex_surf_handler, the one call in the bodies of CUDA's tex1Dfetch<T>, tex2D<T>,
   * surf2Dwrite, ... templates, with ~750 declarations of internal linkage that every
   * parse on the PCH reads back at its end (clang's check for unused ones): a quarter of
   * the parse. The conversion reads those templates' declarations, never their bodies:
   * the header is skipped by its guard, and the handler left a no-op on its pointer. */
  args[k++] = "-D__CLANG_CUDA_TEXTURE_INTRINSICS_H__";
  args[k++] = "-D__nv_tex_surf_handler(op, ptr, ...)=((void)(ptr))";
  if (CP_CUDA_STANDIN) {
    args[k++] = "-Xclang"; /* CCCL declares variadic __host__ __device__ helpers */
    args[k++] = "-fcuda-allow-variadic-functions";
    args[k++] = "-idirafter";
    args[k++] = CP_VIRTUAL_DIR "/cuda-standin";
  }
  return k;
}

/* The clang command line: CUDA set-up first, then the user's -I/-D/extra flags, so
 * that a user's -std= or --cuda-gpu-arch= comes later and wins. */
static const char **build_args(cp_arena *a, const cp_options *opt, const char *pch,
                               int runtime, int *n) {
  const char **args = cp_arena_alloc(a, (size_t)(opt->n_clang_args + 32) * sizeof *args);
  int k = 0;
  args[k++] = "-x";
  args[k++] = "cuda";
  args[k++] = opt->device_parse ? "--cuda-device-only" : "--cuda-host-only";
  args[k++] = "--cuda-gpu-arch=sm_90";
  args[k++] = "-std=c++17";
  /* nvcc accepts a sized `extern __shared__ float4 s[N]` at file scope in whole-program
   * mode; clang accepts it only with relocatable device code. Parsing is all it changes. */
  args[k++] = "-fgpu-rdc";
  /* A PCH normally leaves the template instantiations its headers ask for to every parse
   * that loads it, which performs them at its end: half the time of a warm parse. Built
   * with this flag, the PCH holds them. A parse without a PCH is the same either way. Not
   * where the flags force-include a header: a template of the user's instantiated at the
   * PCH's end could see other overloads (by argument-dependent lookup) than at the end of
   * the file, and the parse on the PCH must be the plain parse. */
  if (!forces_include(opt))
    args[k++] = "-fpch-instantiate-templates";
  k = header_args(a, opt, args, k);
  for (int i = 0; i < opt->n_clang_args; i++)
    args[k++] = openmp_flag(opt->clang_args[i]);
  if (runtime) { /* last, so that a user's own -I to another runtime does not win */
    args[k++] = "-isystem";
    args[k++] = runtime_dir;
    /* a sum of n terms becomes n nested calls: clang stops at 256 brackets, nvcc does not */
    args[k++] = "-fbracket-depth=1000000";
  }
  if (pch) {
    args[k++] = "-include-pch";
    args[k++] = pch;
  }
  *n = k;
  return args;
}

static void record_clang_diag(cp_parse *p, CXDiagnostic d, cp_result *r) {
  enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
  if (sev < CXDiagnostic_Error)
    return; /* clang's warnings are about the user's C++, not the conversion */
  CXSourceLocation loc = clang_getDiagnosticLocation(d);
  CXFile file;
  unsigned line = 0, col = 0, offset = 0;
  clang_getExpansionLocation(loc, &file, &line, &col, &offset);
  CXString msg = clang_getDiagnosticSpelling(d);
  const char *fname = NULL, *text = NULL;
  if (file) {
    CXString fn = clang_getFileName(file);
    fname = cp_arena_strdup(r->arena, clang_getCString(fn));
    clang_disposeString(fn);
    size_t size = 0;
    const char *contents = clang_getFileContents(p->tu, file, &size);
    text = cp_line_at(r->arena, contents, size, offset);
  }
  cp_diag_add(r, CP_ERROR, fname, line, col, text, "%s", clang_getCString(msg));
  clang_disposeString(msg);
}

/* Whether the last parse stopped because memory ran out (cp_parse_out_of_memory). */
static int out_of_memory;

int cp_parse_out_of_memory(void) { return out_of_memory; }

/* clang_parseTranslationUnit2 with what libclang itself prints held back: when memory
 * runs out, LLVM prints "LLVM ERROR: out of memory" and stops, libclang's crash recovery
 * catches that and prints a crash dump meant for a bug report. stderr goes to a memory
 * file meanwhile; after the parse its text is printed as it came, unless it tells of
 * memory running out, which the caller reports in its own words. */
static enum CXErrorCode quiet_parse(CXIndex index, const char *main, const char *const *args,
                                    int nargs, struct CXUnsavedFile *files, unsigned n,
                                    unsigned flags, CXTranslationUnit *tu) {
  fflush(stderr);
  int held = memfd_create("cpconvert-libclang-stderr", MFD_CLOEXEC);
  int saved = held >= 0 ? dup(2) : -1;
  if (saved >= 0 && dup2(held, 2) < 0) {
    close(saved);
    saved = -1;
  }
  enum CXErrorCode ec = clang_parseTranslationUnit2(index, main, args, nargs, files, n, flags, tu);
  out_of_memory = 0;
  if (saved >= 0) {
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[65536];
    ssize_t got = pread(held, text, sizeof text - 1, 0);
    if (got > 0) {
      text[got] = '\0';
      out_of_memory = strstr(text, "out of memory") || strstr(text, "Allocation failed") ||
                      strstr(text, "bad_alloc");
      if (!out_of_memory || ec == CXError_Success)
        fwrite(text, 1, (size_t)got, stderr);
    }
  }
  if (held >= 0)
    close(held);
  return ec;
}

/* One libclang parse of `main` (bytes `text`) with the input's command line, plus
 * -include-pch `pch` when not NULL. `extra` files stand in for the files at their paths
 * (converted headers); with `runtime`, the embedded runtime headers are found as <cp/...>. */
static enum CXErrorCode parse_tu(CXIndex index, const cp_options *opt, cp_arena *a,
                                 const char *main, const char *text, size_t len,
                                 const char *pch, unsigned flags, const cp_source *extra,
                                 unsigned n_extra, int runtime, CXTranslationUnit *tu) {
  int nargs = 0;
  const char **args = build_args(a, opt, pch, runtime, &nargs);
  const struct CXUnsavedFile fixed[] = {
      {main, text, len},
#if CP_CUDA_STANDIN
      {standin_path, "", 0},
#endif
      {prelude_path, cp_prelude_cuda_runtime_h, cp_prelude_cuda_runtime_h_len},
      {prelude_cuda_h, include_prelude, sizeof include_prelude - 1},
      {prelude_dlp_h, include_prelude, sizeof include_prelude - 1},
      {prelude_cg_h, cp_prelude_cooperative_groups_h, cp_prelude_cooperative_groups_h_len},
  };
  unsigned n = sizeof fixed / sizeof fixed[0];
  unsigned total = n + n_extra + (runtime ? cp_runtime_headers_count : 0);
  struct CXUnsavedFile *files = cp_arena_alloc(a, total * sizeof *files);
  memcpy(files, fixed, sizeof fixed);
  for (unsigned i = 0; i < n_extra; i++)
    files[n++] = (struct CXUnsavedFile){extra[i].path, extra[i].text, extra[i].len};
  for (unsigned i = 0; runtime && i < cp_runtime_headers_count; i++)
    files[n++] = (struct CXUnsavedFile){
        cp_arena_printf(a, "%s/%s", runtime_dir, cp_runtime_headers[i].path),
        cp_runtime_headers[i].text, cp_runtime_headers[i].len};
  if (!runtime)
    flags |= CXTranslationUnit_DetailedPreprocessingRecord;
  flags |= CXTranslationUnit_KeepGoing;
  return quiet_parse(index, main, args, nargs, files, n, flags, tu);
}

static unsigned count_errors(CXTranslationUnit tu) {
  unsigned n = clang_getNumDiagnostics(tu), errors = 0;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    errors += clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
    clang_disposeDiagnostic(d);
  }
  return errors;
}

/* The files a parse includes, for -MD: user headers only (system headers, the CUDA
 * headers among them, and the built-in prelude are not dependencies a build tracks).
 * Appended to *deps (n, capacity cap, in arena), once each in the order first included. */
typedef struct {
  CXTranslationUnit tu;
  cp_arena *arena;
  const char ***deps;
  size_t *n, cap;
} deps_ctx;

static void add_dep(deps_ctx *ctx, const char *path) {
  if (strncmp(path, CP_VIRTUAL_DIR, sizeof CP_VIRTUAL_DIR - 1) == 0)
    return;
  while (path[0] == '.' && path[1] == '/') /* ./local.h, found beside the input */
    path += 2;
  size_t i = 0; /* once each, though several inputs include it */
  while (i < *ctx->n && strcmp((*ctx->deps)[i], path) != 0)
    i++;
  if (i < *ctx->n)
    return;
  if (*ctx->n == ctx->cap) {
    ctx->cap = ctx->cap ? 2 * ctx->cap : 16;
    *ctx->deps = cp_arena_grow(ctx->arena, *ctx->deps, *ctx->n, ctx->cap, sizeof **ctx->deps);
  }
  (*ctx->deps)[(*ctx->n)++] = cp_arena_strdup(ctx->arena, path);
}

static void add_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  deps_ctx *ctx = data;
  (void)stack;
  if (depth == 0 || clang_Location_isInSystemHeader(clang_getLocation(ctx->tu, file, 1, 1)))
    return; /* the main file itself, or a system header */
  CXString name = clang_getFileName(file);
  add_dep(ctx, clang_getCString(name));
  clang_disposeString(name);
}

int cp_pch_build(const cp_options *opt, const char *path, cp_arena *deps_arena,
                 const char ***deps, size_t *n_deps) {
  cp_arena *a = cp_arena_new();
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit tu = NULL;
  unsigned flags = CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization;
  const char *text = opt->pch_output ? cp_runtime_prologue(a, opt, "\n") : "";
  int rc = -1;
  *deps = NULL;
  *n_deps = 0;
  if (parse_tu(index, opt, a, pch_main, text, strlen(text), NULL, flags, NULL, 0,
               opt->pch_output, &tu) == CXError_Success &&
      tu && count_errors(tu) == 0 &&
      clang_saveTranslationUnit(tu, path, clang_defaultSaveOptions(tu)) == CXSaveError_None) {
    deps_ctx ctx = {tu, deps_arena, deps, n_deps, 0};
    clang_getInclusions(tu, add_inclusion, &ctx);
    rc = 0;
  }
  if (tu)
    clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  cp_arena_free(a);
  return rc;
}

/* Appends n bytes of s to the identity being built (in pieces, then joined once: the
 * runtime's text alone is ~100 KB, and printf-appending it piece by piece is quadratic). */
typedef struct {
  const char **s;
  size_t *n;
  unsigned k;
} id_parts;

static void id_add(id_parts *p, const char *s, size_t n) {
  p->s[p->k] = s;
  p->n[p->k++] = n;
}

const char *cp_pch_identity(cp_arena *a, const cp_options *opt) {
  int nargs = 0;
  const char **args = build_args(a, opt, NULL, opt->pch_output, &nargs);
  CXString v = clang_getClangVersion();
  const char *head = cp_arena_printf(a, "%s\n", clang_getCString(v));
  clang_disposeString(v);
  unsigned cap = 5 + 2 * cp_runtime_headers_count;
  id_parts p = {cp_arena_alloc(a, cap * sizeof *p.s), cp_arena_alloc(a, cap * sizeof *p.n), 0};
  id_add(&p, head, strlen(head));
  if (opt->pch_output) { /* the runtime, as this build embeds it, and its configuration */
    const char *pro = cp_runtime_prologue(a, opt, "\n");
    id_add(&p, pro, strlen(pro));
    for (unsigned i = 0; i < cp_runtime_headers_count; i++) {
      const char *name = cp_arena_printf(a, "%s\n", cp_runtime_headers[i].path);
      id_add(&p, name, strlen(name));
      id_add(&p, cp_runtime_headers[i].text, cp_runtime_headers[i].len);
    }
  }
  const char *s = "";
  for (int i = 0; i < nargs; i++)
    s = cp_arena_printf(a, "%s%s\n", s, args[i]);
  id_add(&p, s, strlen(s));
  if (!opt->cuda_path) { /* the prelude is part of the PCH; it changes with the build */
    id_add(&p, cp_prelude_cuda_runtime_h, cp_prelude_cuda_runtime_h_len);
    id_add(&p, cp_prelude_cooperative_groups_h, cp_prelude_cooperative_groups_h_len);
  }
  size_t len = 0;
  for (unsigned i = 0; i < p.k; i++)
    len += p.n[i];
  char *out = cp_arena_alloc(a, len + 1), *o = out;
  for (unsigned i = 0; i < p.k; i++, o += p.n[i - 1])
    memcpy(o, p.s[i], p.n[i]);
  *o = 0;
  return out;
}

int cp_parse_open(cp_parse *p, const cp_options *opt, cp_result *r) {
  memset(p, 0, sizeof *p);
  /* excludeDeclarationsFromPCH: the walks skip the header cache's declarations without
   * deserializing them (about 17 000, 20-30 ms of a warm conversion), unless the PCH holds
   * user headers (a `-include cfg.h`), whose declarations the walks must see */
  p->index = clang_createIndex(opt->n_pch_deps == 0, 0);
  enum CXErrorCode ec = CXError_Failure;
  if (opt->pch) {
    ec = parse_tu(p->index, opt, r->arena, opt->input, opt->input_text, opt->input_len,
                  opt->pch, 0, NULL, 0, 0, &p->tu);
    if (ec == CXError_Success && p->tu && count_errors(p->tu) == 0) {
      p->pch_deps = opt->pch_deps;
      p->n_pch_deps = opt->n_pch_deps;
      return p->main_file = clang_getFile(p->tu, opt->input), 0;
    }
    if (p->tu) /* the PCH refused, or errors: parse again as without a cache */
      clang_disposeTranslationUnit(p->tu);
    p->tu = NULL;
  }
  ec = parse_tu(p->index, opt, r->arena, opt->input, opt->input_text, opt->input_len, NULL, 0,
                NULL, 0, 0, &p->tu);
  if (ec != CXError_Success || !p->tu) {
    if (out_of_memory)
      cp_diag_add(r, CP_ERROR, opt->input, 0, 0, NULL,
                  "out of memory while libclang parsed the file; allow the run more memory "
                  "(ulimit -v), or convert fewer files in one run");
    else if (ec == CXError_Crashed)
      cp_diag_add(r, CP_ERROR, opt->input, 0, 0, NULL,
                  "libclang crashed while parsing the file (its report is above); please "
                  "report it with the file and the command line");
    else
      cp_diag_add(r, CP_ERROR, opt->input, 0, 0, NULL,
                  "libclang could not parse the file (error code %d); check the compiler "
                  "flags given after `--`",
                  (int)ec);
    return -1;
  }
  p->main_file = clang_getFile(p->tu, opt->input);
  unsigned before = r->n_errors;
  unsigned n = clang_getNumDiagnostics(p->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(p->tu, i);
    record_clang_diag(p, d, r);
    clang_disposeDiagnostic(d);
  }
  if (opt->pch && r->n_errors == before)
    r->pch_refused = 1; /* the plain parse is clean: the PCH was at fault */
  return r->n_errors == before ? 0 : -1;
}

CXTranslationUnit cp_parse_output(CXIndex index, const cp_options *opt, cp_arena *a,
                                  const cp_source *files, unsigned n, int *pch_refused) {
  CXTranslationUnit tu = NULL;
  if (opt->output_pch) {
    if (parse_tu(index, opt, a, files[0].path, files[0].text, files[0].len, opt->output_pch, 0,
                 files + 1, n - 1, 1, &tu) == CXError_Success && tu && count_errors(tu) == 0)
      return tu;
    if (tu) /* errors with the PCH: they count only if a plain parse has them too */
      clang_disposeTranslationUnit(tu);
    tu = NULL;
  }
  if (parse_tu(index, opt, a, files[0].path, files[0].text, files[0].len, NULL, 0, files + 1,
               n - 1, 1, &tu) != CXError_Success)
    tu = NULL;
  if (tu && opt->output_pch && count_errors(tu) == 0)
    *pch_refused = 1; /* the plain parse is clean: the PCH was at fault */
  return tu;
}

/* A parse on top of a PCH does not see the headers the PCH holds included (a user's
 * `-include cfg.h`): they come from what cp_pch_build reported, first, as a plain parse
 * includes them first. */
void cp_parse_deps(cp_parse *p, cp_result *r) {
  deps_ctx ctx = {p->tu, r->arena, &r->deps, &r->n_deps, r->n_deps}; /* full: grows first */
  for (size_t i = 0; i < p->n_pch_deps; i++)
    add_dep(&ctx, p->pch_deps[i]);
  clang_getInclusions(p->tu, add_inclusion, &ctx);
}

void cp_parse_close(cp_parse *p) {
  if (p->tu)
    clang_disposeTranslationUnit(p->tu);
  if (p->index)
    clang_disposeIndex(p->index);
  memset(p, 0, sizeof *p);
}
