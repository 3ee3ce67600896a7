#!/usr/bin/env python3
"""cpconvert_sources(TOGETHER) on tests/buildsys/together, a three-file code (a struct of
device pointers in include/particles.h, found through the target's include path;
cudaMalloc in src/main.cu, the launches in src/kernels.cu).

  together.py build ...      under the Ninja and the Makefile generators: the first build
                             converts the three files in one run and links the program
                             (nvcc compiles and links; no GPU is needed); a second build
                             converts nothing; editing the header re-converts; a deleted
                             converted header is written again; a header left out of
                             HEADERS stops the build with a message naming it
  together.py unchanged ...  a second conversion of unchanged inputs leaves every output's
                             mtime, and under Ninja (restat) a build after `touch main.cu`
                             re-converts but compiles nothing, and the next one does
                             nothing. Exit 77 with a message when the tool still rewrites
                             unchanged outputs.

Without nvcc or ninja the test reports itself skipped (77)."""
import argparse, os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail  # noqa: E402

SKIP = 77
GENERATORS = {"ninja": "Ninja", "make": "Unix Makefiles"}
CONVERTS = "cpconvert together: main.cu kernels.cu"


def run(cmd, ok=True):
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if ok and p.returncode != 0:
        sys.stdout.write(out)
        fail("%s failed" % " ".join(cmd))
    return p.returncode, out


def configure(a, src, build, generator, *defs):
    shutil.rmtree(build, ignore_errors=True)
    return run(["cmake", "-G", generator, "-S", src, "-B", build,
                "-DCMAKE_MODULE_PATH=" + os.path.join(a.source_dir, "cmake"),
                "-DCPCONVERT_EXECUTABLE=" + a.tool, "-DCMAKE_CUDA_COMPILER=" + a.nvcc,
                "-DCMAKE_CUDA_ARCHITECTURES=90"] + list(defs))


def read(path):
    with open(path) as f:
        return f.read()


def later_edit(path, text):
    time.sleep(1.1)  # newer than the outputs, at any clock resolution
    with open(path, "a") as f:
        f.write(text)


def check_generator(a, src, name):
    build = os.path.join(a.work, "build-" + name)
    out_dir = os.path.join(build, "cpconvert", "particles")  # TOGETHER: a folder per TARGET
    configure(a, src, build, GENERATORS[name])
    _, out = run(["cmake", "--build", build])
    if CONVERTS not in out or not os.path.isfile(os.path.join(build, "particles")):
        fail("%s: the first build did not convert and link:\n%s" % (name, out))
    header = read(os.path.join(out_dir, "include", "particles.h"))
    if "float *x_err;" not in header or "cp_recombine(h, p.x_err" not in read(
            os.path.join(out_dir, "src", "main.cu")):
        fail("%s: the converted header or main.cu lack the companions:\n%s" % (name, header))
    _, out = run(["cmake", "--build", build])
    if CONVERTS in out:
        fail("%s: a second build converted again:\n%s" % (name, out))
    header = os.path.join(out_dir, "include", "particles.h")
    later_edit(os.path.join(src, "include", "particles.h"), "// edited %s\n" % name)
    _, out = run(["cmake", "--build", build])
    if CONVERTS not in out or ("// edited " + name) not in read(header):
        fail("%s: editing particles.h did not re-convert:\n%s" % (name, out))
    os.remove(header)
    _, out = run(["cmake", "--build", build])
    if CONVERTS not in out or not os.path.isfile(header):
        fail("%s: the deleted converted header was not written again:\n%s" % (name, out))
    return build


def test_build(a, src):
    for name in ("ninja", "make"):
        if name == "ninja" and not shutil.which("ninja"):
            print("no ninja: the Ninja generator is not tested")
            continue
        check_generator(a, src, name)
    build = os.path.join(a.work, "build-undeclared")
    configure(a, src, build, "Unix Makefiles", "-DDECLARE_HEADER=OFF")
    rc, out = run(["cmake", "--build", build], ok=False)
    if rc == 0 or "add particles.h to HEADERS" not in " ".join(out.split()):
        fail("a header missing from HEADERS did not stop the build:\n" + out)
    return 0


def mtimes(folder):
    """The converted files' mtimes (not the module's .cpconvert-NAME.d, .outputs and
    .stamp: the stamp is touched by each run, by design)."""
    return {os.path.join(d, f): os.stat(os.path.join(d, f)).st_mtime_ns
            for d, _, files in os.walk(folder) for f in files if not f.startswith(".cpconvert-")}


def test_unchanged(a, src):
    """Write-if-changed, probed first on the tool alone: two runs, the same bytes."""
    probe = os.path.join(a.work, "probe")
    shutil.rmtree(probe, ignore_errors=True)
    cmd = [a.tool, os.path.join(src, "src", "main.cu"), os.path.join(src, "src", "kernels.cu"),
           "--o-dir", probe, "-MD", "-DSTEPS=1", "-I" + os.path.join(src, "include"),
           "-nocudainc"]
    run(cmd)
    before = mtimes(probe)
    time.sleep(1.1)
    run(cmd)
    after = mtimes(probe)
    if before != after:
        changed = sorted(f for f in after if before.get(f) != after[f])
        print("SKIP: this cpconvert rewrites outputs whose bytes do not change (%s); "
              "write-if-changed is not in this tool yet" % ", ".join(changed))
        return SKIP
    if not shutil.which("ninja"):
        print("SKIP: no ninja for the restat check")
        return SKIP
    check_unchanged(a, src, "ninja")
    return 0


def check_unchanged(a, src, name):
    """After `touch main.cu` the conversion runs and writes nothing new, and Ninja (restat)
    compiles nothing and does not convert again at the next build. (CMake's Makefiles touch
    every output of a command but the first after it runs, so Make recompiles those: the
    guide says so.)"""
    build = os.path.join(a.work, "build-restat-" + name)
    configure(a, src, build, GENERATORS[name])
    run(["cmake", "--build", build])
    out_dir = os.path.join(build, "cpconvert", "particles")  # TOGETHER: a folder per TARGET
    before = mtimes(out_dir)
    time.sleep(1.1)
    os.utime(os.path.join(src, "src", "main.cu"), None)  # a newer mtime, the same bytes
    for again in (0, 1):
        _, out = run(["cmake", "--build", build])
        if (CONVERTS in out) != (again == 0):
            fail("%s: build %d after touching main.cu: the conversion ran %s:\n%s"
                 % (name, again + 1, "again" if again else "not", out))
        after = mtimes(out_dir)
        if before != after:
            fail("%s: converting unchanged inputs changed the mtime of %s"
                 % (name, sorted(f for f in after if before.get(f) != after[f])))
        if re.search(r"Building CUDA object|Linking", out):
            fail("%s: unchanged outputs were compiled again:\n%s" % (name, out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["build", "unchanged"])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--nvcc")
    a = ap.parse_args()
    a.work = os.path.join(os.path.abspath(a.work), a.mode)
    a.source_dir, a.tool = os.path.abspath(a.source_dir), os.path.abspath(a.tool)
    if not a.nvcc:
        print("SKIP: no nvcc")
        sys.exit(SKIP)
    shutil.rmtree(a.work, ignore_errors=True)
    src = os.path.join(a.work, "src")
    shutil.copytree(os.path.join(a.source_dir, "tests", "buildsys", "together"), src)
    rc = {"build": test_build, "unchanged": test_unchanged}[a.mode](a, src)
    if rc == SKIP:
        sys.exit(SKIP)
    print("PASS")


if __name__ == "__main__":
    main()
