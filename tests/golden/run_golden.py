#!/usr/bin/env python3
"""One golden test: convert tests/golden/NAME.cu and compare with the expected file.

  NAME.cu             the input
  NAME.expected.cu    the whole expected output (byte for byte)   -- or --
  NAME.err            the whole expected standard error, for inputs that must fail
  NAME.flags          optional: extra cpconvert arguments, split as a shell does;
                      @MPI_INCLUDE@ is the MPI header directory (NAME.needs-mpi)
  NAME.warn           for a passing conversion: its whole expected standard error (the
                      warnings); without it, standard error must be empty
  NAME.nvcc-flags     optional: more nvcc options for the expected output's compile check
                      (CMakeLists.txt), e.g. --extended-lambda
  NAME.needs-cuda     the input includes headers only an installed CUDA has (thrust, CUB):
                      the -nocudainc check below is left out, and CMakeLists.txt
                      registers the test only where nvcc is found
  NAME.clangN.err, NAME.clangN.warn
                      the same for libclang release N, where clang's own wording (quoted
                      in the message) differs from the release the suite is written for

A passing conversion is then checked twice more: converting it again is refused (the
expected output is never an input), and the built-in prelude (-nocudainc) gives the same
output as the installed CUDA headers. A failing one must leave no output file behind.
"""
import argparse, os, re, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail, golden_flags, show_diff  # noqa: E402


def run(tool, args, cwd):
    p = subprocess.run([tool] + args, cwd=cwd, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def clang_major(tool):
    """The libclang release the tool parses with, from the second line of --version."""
    out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"clang version (\d+)", out)
    return m.group(1) if m else "unknown"


def expected_file(src, ext, major):
    """NAME.ext, or NAME.clangN.ext where release N words clang's messages its own way."""
    own = "%s.clang%s%s" % (src, major, ext)
    return own if os.path.exists(own) else src + ext


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("name")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    src = os.path.join(a.dir, a.name)
    flags = golden_flags(a.dir, a.name)
    if flags is None:
        fail("%s needs MPI (%s.needs-mpi) and none is installed" % (a.name, a.name))
    out = os.path.join(a.work, a.name + ".out.cu")
    if os.path.exists(out):
        os.remove(out)

    major = clang_major(a.tool)
    err_file, warn_file = expected_file(src, ".err", major), expected_file(src, ".warn", major)
    before = open(src + ".cu", "rb").read()
    code, _, err = run(a.tool, [a.name + ".cu", "-o", out] + flags, a.dir)
    if open(src + ".cu", "rb").read() != before:
        fail("the input was modified")

    if os.path.exists(err_file):
        expected = open(err_file, "rb").read()
        if code != 1:
            fail("expected exit status 1, got %d" % code)
        if os.path.exists(out):
            fail("a failing conversion wrote " + out)
        if err != expected:
            name = os.path.basename(err_file)
            show_diff(expected, err, name + " (expected)", name + " (actual)")
            fail("standard error differs from " + name)
        print("PASS (fails as expected)")
        return

    if code != 0:
        sys.stdout.write(err.decode(errors="replace"))
        fail("cpconvert exited with %d" % code)
    warn = open(warn_file, "rb").read() if os.path.exists(warn_file) else b""
    if err != warn:
        name = os.path.basename(warn_file)
        show_diff(warn, err, name + " (expected)", name + " (actual)")
        fail("standard error differs from " + (name if warn else "nothing"))
    actual = open(out, "rb").read()
    expected = open(src + ".expected.cu", "rb").read()
    if actual != expected:
        show_diff(expected, actual, a.name + ".expected.cu (expected)",
                  a.name + ".expected.cu (actual)")
        fail("output differs from " + a.name + ".expected.cu")

    again = os.path.join(a.work, a.name + ".again.cu")
    code, _, err = run(a.tool, [a.name + ".expected.cu", "-o", again] + flags, a.dir)
    if code != 1 or b"is an output of cpconvert" not in err or os.path.exists(again):
        fail("converting the expected output again was not refused (exit %d)" % code)

    if os.path.exists(src + ".needs-cuda"):
        print("PASS (no -nocudainc check: needs CUDA's headers)")
        return
    prelude = os.path.join(a.work, a.name + ".prelude.cu")
    code, _, err = run(a.tool, [a.name + ".cu", "-o", prelude, "-nocudainc"] + flags, a.dir)
    if code != 0:
        sys.stdout.write(err.decode(errors="replace"))
        fail("conversion with the built-in prelude (-nocudainc) failed")
    if open(prelude, "rb").read() != actual:
        show_diff(actual, open(prelude, "rb").read(), a.name + " (CUDA headers)",
                  a.name + " (-nocudainc)")
        fail("-nocudainc output differs from the output with CUDA headers")
    print("PASS")


if __name__ == "__main__":
    main()
