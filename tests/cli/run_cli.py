#!/usr/bin/env python3
"""Command-line behaviour of cpconvert, one case per ctest (`cli.CASE`).

Each case runs the tool in a fresh temporary directory and asserts exit status, messages
and what is (and is not) on disk afterwards.
"""
import argparse, hashlib, os, subprocess, sys, tempfile

KERNEL = b"""__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
"""
BROKEN = b"""__global__ void broken(float *x) { x[0] = nope; }
"""
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Ctx:
    def __init__(self, tool, version, d):
        self.tool, self.version, self.d = tool, version, d

    def write(self, name, data):
        with open(os.path.join(self.d, name), "wb") as f:
            f.write(data)
        return name

    def read(self, name):
        with open(os.path.join(self.d, name), "rb") as f:
            return f.read()

    def run(self, *args):
        # CPCONVERT_WRAPPER: a command to run the tool under (valgrind: tests/cli/CMakeLists.txt)
        wrap = os.environ.get("CPCONVERT_WRAPPER", "").split()
        p = subprocess.run(wrap + [self.tool] + list(args), cwd=self.d, capture_output=True)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def expect_exit(res, code):
    expect(res[0] == code, "exit status %d, expected %d; stderr:\n%s" % (res[0], code, res[2]))


@case
def usage_no_input(c):
    r = c.run()
    expect_exit(r, 2)
    expect("no input file" in r[2], r[2])


@case
def usage_unknown_option(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "-o", "out.cu", "--frobnicate")
    expect_exit(r, 2)
    expect("unknown option '--frobnicate'" in r[2], r[2])
    expect(not os.path.exists(os.path.join(c.d, "out.cu")), "output written on usage error")


@case
def usage_bad_algo(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "-o", "out.cu", "--algo", "quad")
    expect_exit(r, 2)
    expect("unknown --algo 'quad'" in r[2], r[2])


@case
def usage_missing_value(c):
    c.write("k.cu", KERNEL)
    expect_exit(c.run("k.cu", "-o"), 2)


@case
def usage_no_output(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu")
    expect_exit(r, 2)
    expect("no output file" in r[2], r[2])


@case
def usage_pair_needs_name(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "-o", "out.cu", "--pair")
    expect_exit(r, 2)
    expect("--pair needs a name" in r[2], r[2])


@case
def usage_several_inputs(c):
    c.write("a.cu", KERNEL)
    c.write("b.cu", KERNEL)
    os.mkdir(os.path.join(c.d, "sub"))
    c.write("sub/a.cu", KERNEL)
    r = c.run("a.cu", "b.cu", "-o", "out.cu")
    expect_exit(r, 2)
    expect("-o takes one input; give --o-dir DIR for several" in r[2], r[2])
    r = c.run("a.cu", "-o", "out.cu", "--o-dir", "out")
    expect_exit(r, 2)
    expect("not both" in r[2], r[2])
    r = c.run("a.cu", "sub/a.cu", "--o-dir", "out")
    expect_exit(r, 2)
    expect("two inputs named 'a.cu' would have the same output" in r[2], r[2])
    r = c.run("a.cu", "b.cu", "--o-dir", "out/nested")
    expect_exit(r, 0)
    expect(sorted(os.listdir(os.path.join(c.d, "out/nested"))) == ["a.cu", "b.cu"],
           os.listdir(os.path.join(c.d, "out/nested")))
    r = c.run("a.cu", "b.cu", "--o-dir", ".")
    expect_exit(r, 1)
    expect("would be written over its input" in r[2], r[2])
    expect(c.read("a.cu") == KERNEL, "an input was overwritten")


@case
def output_is_input(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "-o", "./k.cu")
    expect_exit(r, 2)
    expect("is the input file" in r[2], r[2])
    expect(c.read("k.cu") == KERNEL, "the input was modified")


@case
def missing_input(c):
    r = c.run("absent.cu", "-o", "out.cu")
    expect_exit(r, 1)
    expect("cannot read 'absent.cu': No such file or directory" in r[2], r[2])


@case
def unwritable_output(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "-o", "no/such/dir/out.cu")
    expect_exit(r, 1)
    expect("cannot create a temporary file beside 'no/such/dir/out.cu'" in r[2], r[2])


@case
def output_is_directory(c):
    c.write("k.cu", KERNEL)
    os.mkdir(os.path.join(c.d, "outdir"))
    r = c.run("k.cu", "-o", "outdir")
    expect_exit(r, 1)
    expect("cannot rename into place 'outdir'" in r[2], r[2])
    expect(sorted(os.listdir(c.d)) == ["k.cu", "outdir"], "temporary file left behind")


@case
def failure_keeps_previous_output(c):
    c.write("bad.cu", BROKEN)
    c.write("out.cu", b"previous output\n")
    r = c.run("bad.cu", "-o", "out.cu")
    expect_exit(r, 1)
    expect("bad.cu:1:43: error: use of undeclared identifier 'nope'" in r[2], r[2])
    expect("no output written" in r[2], r[2])
    expect(c.read("out.cu") == b"previous output\n", "previous output was touched")
    expect(sorted(os.listdir(c.d)) == ["bad.cu", "out.cu"], "temporary file left behind")


@case
def success_replaces_output(c):
    c.write("k.cu", KERNEL)
    c.write("out.cu", b"previous output\n")
    os.chmod(os.path.join(c.d, "out.cu"), 0o640)
    digest = hashlib.sha256(KERNEL).hexdigest()
    expect_exit(c.run("k.cu", "-o", "out.cu"), 0)
    out = c.read("out.cu")
    expect(out.endswith(KERNEL) and out.startswith(b"// Generated by cpconvert "), out)
    expect(hashlib.sha256(c.read("k.cu")).hexdigest() == digest, "the input was modified")
    expect(os.stat(os.path.join(c.d, "out.cu")).st_mode & 0o777 == 0o640,
           "the mode of the previous output was not kept")
    expect(sorted(os.listdir(c.d)) == ["k.cu", "out.cu"], "temporary file left behind")


@case
def version(c):
    r = c.run("--version")
    expect_exit(r, 0)
    expect(r[1] == "cpconvert %s\n" % c.version, r[1])


@case
def help(c):
    r = c.run("--help")
    expect_exit(r, 0)
    expect(r[1].startswith("usage: cpconvert INPUT.cu -o OUTPUT.cu"), r[1])
    for opt in ("-o FILE", "--cuda-path", "-nocudainc", "--algo", "--dump-edits", "--list-rules",
                "--diff", "--check", "-MD", "--pair", "--stats", "--all"):
        expect(opt in r[1], "--help does not mention " + opt)


@case
def list_rules(c):
    r = c.run("--list-rules")
    expect_exit(r, 0)
    expect(r[1].startswith("header "), r[1])


@case
def dump_edits(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "--dump-edits", "--algo", "fast")
    expect_exit(r, 0)
    expect(r[1] == '0+0 header "// Generated by cpconvert %s from k.cu (--algo fast); edit the '
           'input, not this file.\\n#define CP_ALGO CP_ALGO_FAST\\n#include <cp/cp.cuh>\\n"\n'
           % c.version, r[1])
    expect(os.listdir(c.d) == ["k.cu"], "--dump-edits wrote a file")


@case
def stats(c):
    c.write("k.cu", b"#pragma cp composite\n" + KERNEL)
    r = c.run("k.cu", "-o", "out.cu", "--stats")
    expect_exit(r, 0)
    lines = r[1].splitlines()
    expect(lines[0] == "k.cu: 1 function converted", r[1])
    expect(lines[1].split() == ["__global__", "scale", "1", "paired", "buffer"], r[1])
    rows = {l.split()[0]: l.split()[1:] for l in lines[3:-1]}
    expect(rows.get("pair-param") == ["1", "1"], r[1])
    expect(rows.get("buffer-write") == ["1", "1"], r[1])
    expect(lines[-1].strip() == "0 warnings", r[1])
    expect(os.path.exists(os.path.join(c.d, "out.cu")), "--stats did not write the output")


def apply_unified_diff(old, diff):
    """The text a unified diff turns `old` into (bytes in, bytes out)."""
    lines = old.splitlines(True)
    out, pos = [], 0
    body = diff.splitlines(True)[2:]
    i = 0
    while i < len(body):
        head = body[i].decode()
        expect(head.startswith("@@ -"), "bad hunk header %r" % head)
        start = int(head.split()[1][1:].split(",")[0]) - 1
        out += lines[pos:start]
        pos = start
        i += 1
        while i < len(body) and not body[i].startswith(b"@@"):
            mark, text = body[i][:1], body[i][1:]
            if i + 1 < len(body) and body[i + 1].startswith(b"\\"):
                text = text[:-1]  # no newline at end of file
            if mark in (b" ", b"-"):
                expect(lines[pos] == text, "context mismatch at line %d" % (pos + 1))
                pos += 1
            if mark in (b" ", b"+"):
                out.append(text)
            i += 2 if i + 1 < len(body) and body[i + 1].startswith(b"\\") else 1
    return b"".join(out + lines[pos:])


@case
def diff_applies_to_the_output(c):
    src = (b"// a kernel\n" + b"#pragma cp composite\n" + KERNEL + b"\n" * 10 +
           b"#pragma cp composite\n__global__ void twice(float *y) { y[0] = 2 * y[0]; }")
    for name, text in (("k.cu", src), ("crlf.cu", src.replace(b"\n", b"\r\n"))):
        c.write(name, text)
        r = subprocess.run([c.tool, name, "--diff"], cwd=c.d, capture_output=True)
        expect(r.returncode == 0, r.stderr.decode())
        expect(r.stdout.startswith(b"--- %s\n+++ %s\n@@ -1," % (name.encode(), name.encode())),
               r.stdout)
        expect_exit(c.run(name, "-o", "out.cu"), 0)
        expect(apply_unified_diff(text, r.stdout) == c.read("out.cu"),
               "the diff of %s does not turn the input into the output" % name)
    expect(sorted(os.listdir(c.d)) == ["crlf.cu", "k.cu", "out.cu"], "--diff wrote a file")


@case
def depfile(c):
    os.mkdir(os.path.join(c.d, "inc"))
    c.write("inc/params.h", b"#define SCALE 2.0f\n")
    c.write("local.h", b"#include <cstdio>\n")
    c.write("k.cu", b'#include "local.h"\n#include "params.h"\n' + KERNEL)
    expect_exit(c.run("k.cu", "-o", "k_cp.cu", "-MD", "-Iinc"), 0)
    expect(c.read("k_cp.d") == b"k_cp.cu: k.cu \\\n local.h \\\n inc/params.h\n\nlocal.h:\n\ninc/params.h:\n",
           c.read("k_cp.d"))
    expect_exit(c.run("k.cu", "-o", "k_cp.cu", "-MF", "deps/k.dep", "-Iinc"), 1)
    os.mkdir(os.path.join(c.d, "deps"))
    expect_exit(c.run("k.cu", "-o", "k_cp.cu", "-MF", "deps/k.dep", "-Iinc"), 0)
    expect(c.read("deps/k.dep").startswith(b"k_cp.cu: k.cu"), c.read("deps/k.dep"))


@case
def check_stale_output(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "-o", "out.cu", "--check")
    expect_exit(r, 1)
    expect("'out.cu' is missing" in r[2], r[2])
    expect_exit(c.run("k.cu", "-o", "out.cu"), 0)
    expect_exit(c.run("k.cu", "-o", "out.cu", "--check"), 0)
    c.write("k.cu", KERNEL + b"// edited\n")
    r = c.run("k.cu", "-o", "out.cu", "--check")
    expect_exit(r, 1)
    expect("'out.cu' is out of date" in r[2], r[2])
    expect(not c.read("out.cu").endswith(b"// edited\n"), "--check wrote the output")
    expect_exit(c.run("k.cu", "--check"), 2)


@case
def defines_reach_parser(c):
    c.write("k.cu", b"#ifndef WIDTH\n#error WIDTH must be defined\n#endif\n" + KERNEL)
    r = c.run("k.cu", "-o", "out.cu")
    expect_exit(r, 1)
    expect("k.cu:2:2: error: WIDTH must be defined" in r[2], r[2])
    expect_exit(c.run("k.cu", "-o", "out.cu", "-D", "WIDTH=4"), 0)
    expect(b"(--algo accurate -DWIDTH=4)" in c.read("out.cu"), c.read("out.cu"))


@case
def include_dirs_reach_parser(c):
    os.mkdir(os.path.join(c.d, "inc"))
    c.write("inc/params.h", b"#define SCALE 2.0f\n")
    c.write("k.cu", b'#include "params.h"\n' + KERNEL)
    expect_exit(c.run("k.cu", "-o", "out.cu"), 1)
    expect_exit(c.run("k.cu", "-o", "out.cu", "-Iinc"), 0)
    expect_exit(c.run("k.cu", "-o", "out2.cu", "--", "-I", "inc"), 0)


@case
def bad_cuda_path(c):
    c.write("k.cu", KERNEL)
    r = c.run("k.cu", "-o", "out.cu", "--cuda-path", "/nonexistent-cuda")
    expect_exit(r, 1)
    expect("--cuda-path '/nonexistent-cuda' holds no include/cuda_runtime.h" in r[2], r[2])


@case
def prelude_without_cuda(c):
    # With no CUDA anywhere (empty environment, nothing on PATH), the built-in prelude
    # is used and the kernel, its launch and the runtime API calls still parse.
    c.write("k.cu", KERNEL + b"int main() { float *d; cudaMalloc(&d, 64);"
            b" scale<<<1, 16>>>(d, 2.0f); cudaDeviceSynchronize(); cudaFree(d); }\n")
    p = subprocess.run([c.tool, "k.cu", "-o", "out.cu"], cwd=c.d, capture_output=True,
                       env={"PATH": "/nonexistent"})
    if os.path.isdir("/usr/local/cuda"):
        # /usr/local/cuda is the last fallback; force the prelude to test it here too.
        p = subprocess.run([c.tool, "k.cu", "-o", "out.cu", "-nocudainc"], cwd=c.d,
                           capture_output=True, env={"PATH": "/nonexistent"})
    expect(p.returncode == 0, p.stderr.decode())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        try:
            CASES[a.case](Ctx(os.path.abspath(a.tool), a.version, d))
        except AssertionError as e:
            print("FAIL: %s" % e)
            sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
