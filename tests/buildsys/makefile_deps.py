#!/usr/bin/env python3
"""examples/makefile-project rebuilds what it must and nothing else.

On a copy of the project: a first `make convert` converts both kernel files; a second
converts nothing; touching a header re-converts exactly the files that include it,
touching a source only that source, touching the host file nothing, and a conversion that
gives the same bytes leaves its output alone (mtime too: make has no restat, so the
conversion runs again at each make until an edit changes the output, but nothing is
recompiled); `make -j` from clean writes the same files. check_full_build (used by
installed.py, which builds the program against an installed cpconvert with nvcc) does the
same for the whole build: after `touch lj.h` forces.cu is converted again and, since the
converted file includes lj.h, compiled and linked again; after `touch forces.cu` it is
converted again to the same bytes, and nothing is compiled.

Which commands ran is read from make's output (make echoes each command), and checked
against the output files' modification times."""
import argparse, os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail  # noqa: E402


class Project:
    def __init__(self, src, work, make_vars):
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(src, work, ignore=shutil.ignore_patterns("*_cp.*", "*.o", "*.d", "md_cp",
                                                                  "md_float", "md_ref"))
        self.d = work
        self.vars = make_vars

    def make(self, *args):
        """Runs make; returns (exit status, the targets of the commands it ran)."""
        p = subprocess.run(["make", "--no-print-directory"] + self.vars + list(args), cwd=self.d,
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def must_make(self, *args):
        rc, out = self.make(*args)
        if rc != 0:
            sys.stdout.write(out)
            fail("make %s failed" % " ".join(args))
        return out

    def age_everything(self):
        """Sets every file 100 s into the past, keeping make's view (equal times are up to
        date), so that a touch afterwards is newer than every output whatever the clock's
        resolution."""
        past = time.time() - 100
        for name in os.listdir(self.d):
            os.utime(os.path.join(self.d, name), (past, past))

    def touch(self, name):
        os.utime(os.path.join(self.d, name), None)

    def exists(self, name):
        return os.path.exists(os.path.join(self.d, name))

    def mtime(self, name):
        return os.stat(os.path.join(self.d, name)).st_mtime_ns


def converted(out):
    """The outputs of the cpconvert commands in make's output."""
    return sorted(re.findall(r"^\S*cpconvert \S+ -o (\S+)", out, re.M))


def compiled(out):
    """The objects and programs nvcc wrote, in make's output."""
    return sorted(re.findall(r"^\S*nvcc\b.*? -o (\S+)", out, re.M))


def expect_converts(p, touched, expected):
    p.age_everything()
    before = {f: p.mtime(f) for f in ("forces_cp.cu", "kinetic_cp.cu") if p.exists(f)}
    if touched:
        p.touch(touched)
    out = p.must_make("convert")
    got = converted(out)
    if got != expected:
        sys.stdout.write(out)
        fail("after touching %s, make converted %s, expected %s" % (touched, got, expected))
    for f, t in before.items():  # a touch changes no bytes: nothing is rewritten
        if p.mtime(f) != t:
            fail("after touching %s, %s was rewritten with the same bytes" % (touched, f))
    rc, out = p.make("-q", "convert")
    if rc != 0 and not touched:
        fail("after make, `make -q convert` says something is out of date")


def check_full_build(p):
    """Builds the program from clean under -j (nvcc compiles and links, nothing runs), then
    after a header edit: exactly the file that includes it is converted, compiled and
    linked again. Returns make's output of the first build."""
    first = p.must_make("-j4")
    if converted(first) != ["forces_cp.cu", "kinetic_cp.cu"] or \
            compiled(first) != ["forces_cp.o", "kinetic_cp.o", "main.o", "md_cp"]:
        sys.stdout.write(first)
        fail("make -j4 did not convert and compile each file once, then link")
    if p.make("-q")[0] != 0:
        fail("after a full build `make -q` says something is out of date")
    time.sleep(1.1)  # newer than every output (and than the installed headers), at any resolution
    p.touch("lj.h")
    out = p.must_make("-j4")
    if converted(out) != ["forces_cp.cu"] or compiled(out) != ["forces_cp.o", "md_cp"]:
        sys.stdout.write(out)
        fail("after touching lj.h, make -j4 rebuilt %s and %s, expected forces_cp.cu, "
             "forces_cp.o (which includes lj.h) and md_cp" % (converted(out), compiled(out)))
    time.sleep(1.1)
    p.touch("forces.cu")  # the same bytes: converted again, written not, compiled not
    out = p.must_make("-j4")
    if converted(out) != ["forces_cp.cu"] or compiled(out) != []:
        sys.stdout.write(out)
        fail("after touching forces.cu, make -j4 converted %s and compiled %s, expected "
             "forces_cp.cu converted again, the same bytes, and nothing compiled"
             % (converted(out), compiled(out)))
    return first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--project", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    if not shutil.which("make"):
        print("SKIP: no make")
        sys.exit(77)
    make_vars = ["CPCONVERT=" + os.path.abspath(a.tool),
                 "CP_INCLUDE=" + os.path.abspath(a.runtime_include)]
    p = Project(a.project, os.path.join(a.work, "seq"), make_vars)

    expect_converts(p, None, ["forces_cp.cu", "kinetic_cp.cu"])
    deps = open(os.path.join(p.d, "forces_cp.d")).read()
    if not re.match(r"forces_cp\.cu: forces\.cu \\\n lj\.h \\\n md\.h\n", deps):
        fail("forces_cp.d does not list forces.cu, lj.h and md.h:\n" + deps)
    expect_converts(p, None, [])
    expect_converts(p, "lj.h", ["forces_cp.cu"])
    expect_converts(p, "md.h", ["forces_cp.cu", "kinetic_cp.cu"])
    expect_converts(p, "kinetic.cu", ["kinetic_cp.cu"])
    expect_converts(p, "main.cu", [])

    q = Project(a.project, os.path.join(a.work, "par"), make_vars)
    out = q.must_make("-j4", "convert")
    if converted(out) != ["forces_cp.cu", "kinetic_cp.cu"]:
        sys.stdout.write(out)
        fail("make -j4 convert did not convert each file once")
    for f in ("forces_cp.cu", "kinetic_cp.cu", "forces_cp.d", "kinetic_cp.d"):
        if open(os.path.join(p.d, f), "rb").read() != open(os.path.join(q.d, f), "rb").read():
            fail("%s differs between make and make -j4" % f)

    print("PASS")


if __name__ == "__main__":
    main()
