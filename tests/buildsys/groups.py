#!/usr/bin/env python3
"""Several cpconvert_sources(TOGETHER) conversions in one folder (tests/buildsys/groups):
two programs converting the same forces.cu and particles.h, and two conversions without
TARGET whose first sources are both main.cu. Conversions with -nocudainc and a host
compiler only (check.cpp): a few seconds, no CUDA.

  - each conversion writes its own folder, dependency file and list of outputs (before:
    the two main.cu groups shared `.cpconvert-main.d`, and the two programs wrote the
    same cpconvert/common/forces.cu: Ninja refused, Make overwrote);
  - check.cpp builds only if the converted particles.h comes before include/, both when
    the conversion runs and when the files come from CPCONVERT_CONVERTED_DIR (collected by
    cpconvert_converted; before, that route left the original first);
  - under Unix Makefiles, a touch of one/main.cu that leaves the outputs' bytes unchanged
    converts once, and the next `make` converts nothing (before: at every `make`);
  - two conversions given one OUTPUT_DIR with a file in common stop configuring."""
import argparse, glob, os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail  # noqa: E402

CONVERTS = re.compile(r"cpconvert together:[^\n]*")


def run(cmd, ok=True):
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if ok and p.returncode != 0:
        sys.stdout.write(out)
        fail("%s failed" % " ".join(cmd))
    return p.returncode, out


def configure(a, build, generator, *defs, ok=True):
    shutil.rmtree(build, ignore_errors=True)
    return run(["cmake", "-G", generator, "-S", a.src, "-B", build,
                "-DCMAKE_MODULE_PATH=" + os.path.join(a.source_dir, "cmake")] + list(defs), ok=ok)


def build(path):
    return CONVERTS.findall(run(["cmake", "--build", path])[1])


def files(folder):
    return sorted(os.path.relpath(os.path.join(d, f), folder)
                  for d, _, names in os.walk(folder) for f in names)


def check_folders(a, generator):
    b = os.path.join(a.work, "build")
    configure(a, b, generator, "-DCPCONVERT_EXECUTABLE=" + a.tool)
    ran = build(b)
    if len(ran) != 4:
        fail("expected 4 conversions, ran %s" % ran)
    for prog in ("one", "two"):
        got = files(os.path.join(b, "cpconvert", prog))
        want = sorted([".cpconvert-%s.%s" % (prog, e) for e in ("d", "outputs", "stamp")] +
                      ["common/forces.cu", "include/particles.h", prog + "/main.cu"])
        if got != want:
            fail("cpconvert/%s holds %s, expected %s" % (prog, got, want))
    mains = sorted(glob.glob(os.path.join(b, "cpconvert", "main-*", ".cpconvert-main-*.d")))
    if len(mains) != 2:
        fail("the two main.cu conversions do not have a dependency file each: %s" % mains)
    if build(b):
        fail("a second build converted again")
    run(["cmake", "--build", b, "--target", "cpconvert_converted"])
    exported = os.path.join(b, "cpconvert-converted")
    got = files(exported)
    if "one/include/particles.h" not in got or "two/common/forces.cu" not in got or len(got) != 8:
        fail("cpconvert_converted collected %s" % got)
    carried = os.path.join(a.work, "carried")  # as on a machine without cpconvert
    shutil.rmtree(carried, ignore_errors=True)
    shutil.copytree(exported, carried)
    nb = os.path.join(a.work, "build-notool")
    configure(a, nb, generator, "-DCPCONVERT_CONVERTED_DIR=" + carried)
    if build(nb):
        fail("the build from CPCONVERT_CONVERTED_DIR ran cpconvert")
    for prog in ("one", "two"):
        if not os.path.isfile(os.path.join(nb, prog)):
            fail("the build from CPCONVERT_CONVERTED_DIR did not build %s" % prog)


def check_make_once(a):
    b = os.path.join(a.work, "build-make")
    configure(a, b, "Unix Makefiles", "-DCPCONVERT_EXECUTABLE=" + a.tool)
    build(b)
    time.sleep(1.1)  # a newer mtime at any clock resolution, the same bytes
    os.utime(os.path.join(a.src, "one", "main.cu"), None)
    ran = build(b)
    if ran != ["cpconvert together: main.cu forces.cu"]:
        fail("Make, after touching one/main.cu: ran %s, expected one's conversion once" % ran)
    for again in (1, 2):
        ran = build(b)
        if ran:
            fail("Make, no-op build %d after the touch converted again: %s" % (again, ran))


def check_same_output_dir(a):
    rc, out = configure(a, os.path.join(a.work, "build-same"), "Unix Makefiles",
                        "-DCPCONVERT_EXECUTABLE=" + a.tool, "-DSAME_OUTPUT_DIR=ON", ok=False)
    if rc == 0 or "the conversions one and two both write" not in " ".join(out.split()):
        fail("one OUTPUT_DIR for two conversions of forces.cu did not stop configuring:\n" + out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    if not (shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")):
        print("SKIP: no C++ compiler for check.cpp")
        sys.exit(77)
    a.work, a.tool = os.path.abspath(a.work), os.path.abspath(a.tool)
    a.source_dir = os.path.abspath(a.source_dir)
    shutil.rmtree(a.work, ignore_errors=True)
    a.src = os.path.join(a.work, "src")
    shutil.copytree(os.path.join(a.source_dir, "tests", "buildsys", "groups"), a.src)
    check_folders(a, "Ninja" if shutil.which("ninja") else "Unix Makefiles")
    check_make_once(a)
    check_same_output_dir(a)
    print("PASS")


if __name__ == "__main__":
    main()
