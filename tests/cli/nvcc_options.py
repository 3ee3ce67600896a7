#!/usr/bin/env python3
"""nvcc's own options after `--` (tool/nvcc_options.c), checked against the installed nvcc:
every option `nvcc --help` lists, in its long and its short spelling, with a value where it
takes one, is accepted in one run (exit 0, nothing on stderr, the same output as without
them); the macros nvcc defines for --extended-lambda, -rdc=true, -G, --expt-relaxed-constexpr,
--default-stream per-thread and -Xcompiler -fopenmp reach the parser, and are not defined
without them; a clang -Werror keeps the flag after it; -odir DIR takes its value.
Skips (77) where nvcc is not installed."""
import os, re, shutil, subprocess, sys, tempfile

KERNEL = """#pragma cp composite
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
"""
MACROS = {  # option: the macro nvcc defines for it (nvcc -E -Xcompiler -dM)
    "--extended-lambda": "__CUDACC_EXTENDED_LAMBDA__",
    "-rdc=true": "__CUDACC_RDC__",
    "-G": "__CUDACC_DEBUG__",
    "--expt-relaxed-constexpr": "__CUDACC_RELAXED_CONSTEXPR__",
    "--default-stream=per-thread": "CUDA_API_PER_THREAD_DEFAULT_STREAM",
    "-Xcompiler=-Wall,-fopenmp": "_OPENMP",
}
VALUES = {"--x": "cu", "--std": "c++17", "--Werror": "all-warnings", "--define-macro": "FOO=1",
          "--undefine-macro": "BAR", "--include-path": ".", "--system-include": ".",
          "--pre-include": "pre.h", "--optimize": "3", "--machine": "64"}
SKIP = {"--options-file"}  # a file of options: give it as @FILE


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def options(nvcc):
    text = subprocess.run([nvcc, "--help"], capture_output=True, text=True).stdout
    found = []
    for line in text.splitlines():
        m = re.match(r"^(--[\w-]+)((?:\s+[^(\s][^(]*?)?)\s*(?:\((-[\w+-]+)\))?\s*$", line)
        if not m or m.group(1) in SKIP:
            continue
        value = (m.group(2) or "").strip()
        value = "" if value == m.group(1) else value
        if value:
            choice = re.match(r"[{\[]([^|,}\]]+)", value)
            value = VALUES.get(m.group(1), choice.group(1) if choice else "1")
        found.append((m.group(1), m.group(3), value))
    if len(found) < 100:
        fail("only %d options read from nvcc --help" % len(found))
    return found


def run(tool, d, extra, expect_ok=True):
    out = os.path.join(d, "out.cu")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([tool, "k.cu", "-o", out, "-q", "--no-cache", "--"] + extra, cwd=d,
                       capture_output=True, text=True)
    if expect_ok and (p.returncode != 0 or p.stderr):
        fail("cpconvert -- %s: exit %d\n%s" % (" ".join(extra), p.returncode, p.stderr))
    return p, open(out).read() if os.path.exists(out) else None


def main():
    tool = sys.argv[1]
    nvcc = shutil.which("nvcc")
    if not nvcc:
        print("nvcc not found: skipped")
        sys.exit(77)
    d = tempfile.mkdtemp(prefix="cpnvcc-")
    try:
        open(os.path.join(d, "k.cu"), "w").write(KERNEL)
        open(os.path.join(d, "pre.h"), "w").write("/* force-included */\n")
        base = run(tool, d, [])[1]
        opts = options(nvcc)
        for spelling in (0, 1):  # the long names, then the short ones
            args = []
            for name, short, value in opts:
                flag = name if spelling == 0 or not short else short
                args += [flag, value] if value else [flag]
            out = run(tool, d, args)[1]
            strip = lambda t: "\n".join(l for l in t.splitlines() if not l.startswith("//"))
            if strip(out) != strip(base):
                fail("the output changed with nvcc's options (%s names)" %
                     ("long", "short")[spelling])
        print("%d options of nvcc %s accepted, long and short" %
              (len(opts), re.search(r"release [\d.]+", subprocess.run(
                  [nvcc, "--version"], capture_output=True, text=True).stdout).group(0)))
        # the macros nvcc defines
        checks = "".join("#ifndef %s\n#error %s missing\n#endif\n" % (m, m) for m in MACROS.values())
        open(os.path.join(d, "k.cu"), "w").write(KERNEL + checks)
        run(tool, d, [o for o in MACROS])
        for o, m in MACROS.items():
            p, _ = run(tool, d, [x for x in MACROS if x != o], expect_ok=False)
            if p.returncode == 0 or "%s missing" % m not in p.stderr:
                fail("%s defined without %s" % (m, o))
        # a clang -Werror keeps the flag after it; -odir takes its value
        open(os.path.join(d, "k.cu"), "w").write(KERNEL + "#ifndef WANT\n#error WANT\n#endif\n")
        run(tool, d, ["-Werror", "-DWANT"])
        run(tool, d, ["-odir", d, "-DWANT"])
        print("PASS")
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
