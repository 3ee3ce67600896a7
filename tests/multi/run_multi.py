#!/usr/bin/env python3
"""One multi-file golden test: every .cu of tests/multi/NAME converts in one run with
--o-dir; the output tree must equal NAME/expected/ file for file (nothing more, nothing less),
--check must find them current, and nvcc (when given) must build the converted program.
An optional NAME/warnings file is the whole expected standard error of the conversion, an
optional NAME/flags file more arguments for both runs, an optional NAME/inputs file the .cu
files that convert (one a line; the others of the directory stay out of the run, as files
another part of the program builds). With NAME/errors instead of NAME/expected/, the run must
fail with exit status 1, that whole standard error, and no output written. Each case is also
converted with --stats-csv, which keeps every input's translation unit to the end (the
joint run, driver/split.c): its exit status, standard error and outputs must be the same."""
import argparse, shlex, os, shutil, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail, nvcc_build, show_diff  # noqa: E402


def tree(d):
    """The files under d, as sorted paths relative to it (headers keep their directories)."""
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--nvcc")
    ap.add_argument("--runtime-include")
    ap.add_argument("dir")
    a = ap.parse_args()
    inputs_file = os.path.join(a.dir, "inputs")
    if os.path.exists(inputs_file):
        inputs = open(inputs_file).read().split()
    else:
        inputs = sorted(f for f in os.listdir(a.dir) if f.endswith(".cu"))
    out = os.path.abspath(os.path.join(a.work, os.path.basename(a.dir)))
    shutil.rmtree(out, ignore_errors=True)
    flags_file = os.path.join(a.dir, "flags")  # optional: more arguments, split as a shell does
    flags = shlex.split(open(flags_file).read()) if os.path.exists(flags_file) else []
    p = subprocess.run([a.tool] + inputs + ["--o-dir", out] + flags, cwd=a.dir, capture_output=True)
    joint_out = out + ".joint"
    shutil.rmtree(joint_out, ignore_errors=True)
    joint = subprocess.run([a.tool] + inputs + ["--o-dir", joint_out, "--stats-csv",
                                                out + ".csv"] + flags, cwd=a.dir,
                           capture_output=True)
    if (joint.returncode, joint.stderr) != (p.returncode, p.stderr):
        show_diff(joint.stderr, p.stderr, "joint run's stderr", "stderr")
        fail("the joint run (--stats-csv) exits %d, the run %d, or their stderr differs"
             % (joint.returncode, p.returncode))
    got_joint = tree(joint_out) if os.path.exists(joint_out) else []
    got_split = tree(out) if os.path.exists(out) else []
    if got_joint != got_split:
        fail("the joint run writes %s, the run %s" % (got_joint, got_split))
    for name in got_split:
        if open(os.path.join(out, name), "rb").read() != open(os.path.join(joint_out, name),
                                                                "rb").read():
            fail(name + " differs from the joint run's")
    errors = os.path.join(a.dir, "errors")
    if os.path.exists(errors):
        if p.returncode != 1:
            fail("expected exit status 1, got %d" % p.returncode)
        if open(errors, "rb").read() != p.stderr:
            show_diff(open(errors, "rb").read(), p.stderr, "errors (expected)", "stderr")
            fail("standard error differs from errors")
        if os.path.exists(out) and tree(out):
            fail("a failing conversion wrote %s" % tree(out))
        print("PASS")
        return
    if p.returncode != 0:
        sys.stdout.write(p.stderr.decode())
        fail("cpconvert exited with %d" % p.returncode)
    warnings = os.path.join(a.dir, "warnings")
    if os.path.exists(warnings) and open(warnings, "rb").read() != p.stderr:
        show_diff(open(warnings, "rb").read(), p.stderr, "warnings (expected)", "stderr")
        fail("standard error differs from warnings")
    expected_dir = os.path.join(a.dir, "expected")
    want = tree(expected_dir)
    got = tree(out)
    if want != got:
        fail("outputs %s, expected %s" % (got, want))
    for name in want:
        e = open(os.path.join(expected_dir, name), "rb").read()
        g = open(os.path.join(out, name), "rb").read()
        if e != g:
            show_diff(e, g, "expected/" + name, name)
            fail(name + " differs from expected/" + name)
    p = subprocess.run([a.tool] + inputs + ["--o-dir", out, "--check"] + flags, cwd=a.dir,
                       capture_output=True)
    if p.returncode != 0:
        fail("--check finds the outputs stale: " + p.stderr.decode())
    if a.nvcc:
        nvcc_build(a.nvcc, a.runtime_include, inputs, os.path.join(out, "program"), cwd=out)
    print("PASS")


if __name__ == "__main__":
    main()
