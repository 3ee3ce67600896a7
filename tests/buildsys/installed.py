#!/usr/bin/env python3
"""Builds projects against an installed cpconvert.

  installed.py install ... `cmake --install` into a fresh prefix (the ctest fixture the
                           others require), and the files the install must hold
  installed.py make  ...   examples/makefile-project with the installed tool and headers,
                           and rebuilt after a header edit (makefile_deps.check_full_build)
  installed.py cmake ...   tests/buildsys/package: find_package(CPConvert) + cpconvert_sources,
                           then the same project on a prefix without the tool, from the
                           files collected by the target cpconvert_converted
  installed.py dirs  ...   tests/buildsys/dirs: cpconvert_sources in two directories of one
                           project (conversions only; Makefiles, and Ninja where present)

nvcc compiles and links only (no GPU is needed). Without nvcc the test reports itself
skipped (exit 77) after what it could check without it."""
import argparse, os, re, shutil, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import fail  # noqa: E402
from makefile_deps import Project, check_full_build  # noqa: E402

SKIP = 77


def run(cmd, cwd=None, ok=True):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if ok and p.returncode != 0:
        sys.stdout.write(out)
        fail("%s failed" % " ".join(cmd))
    return p.returncode, out


def install(a, prefix):
    shutil.rmtree(prefix, ignore_errors=True)
    run(["cmake", "--install", a.build, "--prefix", prefix])
    files = ["bin/cpconvert", "include/cp/cp.cuh", "lib/cmake/CPConvert/CPConvertConfig.cmake",
             "lib/cmake/CPConvert/CPConvertConfigVersion.cmake",
             "lib/cmake/CPConvert/CPConvert.cmake", "lib/cmake/CPConvert/CPConvertTarget.cmake"]
    for page in ("cpconvert.1", "cpconvert-tune.1"):
        if os.path.exists(os.path.join(a.source_dir, "docs", page)):
            files.append("share/man/man1/" + page)
    if os.path.exists(os.path.join(a.source_dir, "tool", "cpconvert-tune")):
        files.append("bin/cpconvert-tune")
    for f in files:
        if not os.path.isfile(os.path.join(prefix, f)):
            fail("the install has no " + f)
    if "bin/cpconvert-tune" in files and not os.access(os.path.join(prefix, "bin/cpconvert-tune"),
                                                       os.X_OK):
        fail("the installed cpconvert-tune is not executable")
    return 0


def test_make(a, prefix):
    if not shutil.which("make"):
        return SKIP
    make_vars = ["CPCONVERT=" + prefix + "/bin/cpconvert", "CP_INCLUDE=" + prefix + "/include"]
    p = Project(a.source_dir + "/examples/makefile-project", os.path.join(a.work, "project"),
                make_vars + (["NVCC=" + a.nvcc] if a.nvcc else []))
    if not a.nvcc:
        p.must_make("convert")
        return SKIP
    out = check_full_build(p)
    if ("-I%s/include" % prefix) not in out:
        fail("the build did not compile against the installed headers:\n" + out)
    return 0


def cmake_project(src, build, prefix, nvcc, *defs, ok=True):
    """Configures the package test project in a fresh build folder."""
    shutil.rmtree(build, ignore_errors=True)
    return run(["cmake", "-S", src, "-B", build, "-DCMAKE_PREFIX_PATH=" + prefix,
                "-DCMAKE_CUDA_COMPILER=" + nvcc, "-DCMAKE_CUDA_ARCHITECTURES=90"] + list(defs),
               ok=ok)


def test_cmake(a, prefix):
    if not a.nvcc:
        return SKIP
    work = os.path.join(a.work, "cmake")
    shutil.rmtree(work, ignore_errors=True)
    src = os.path.join(work, "src")
    shutil.copytree(a.source_dir + "/tests/buildsys/package", src)
    build = os.path.join(work, "build")
    cmake_project(src, build, prefix, a.nvcc)
    _, out = run(["cmake", "--build", build])
    if "cpconvert scale_cp.cu" not in out or not os.path.isfile(os.path.join(build, "scale")):
        fail("the first build did not convert scale.cu and link scale:\n" + out)
    _, out = run(["cmake", "--build", build])
    if "cpconvert scale_cp.cu" in out:
        fail("a second build converted scale.cu again:\n" + out)
    time.sleep(1.1)  # a header edit is newer than the outputs, whatever the clock's resolution
    os.utime(os.path.join(src, "scale.h"), None)
    _, out = run(["cmake", "--build", build])
    if "cpconvert scale_cp.cu" not in out:
        fail("touching scale.h did not re-convert scale.cu:\n" + out)

    # A machine without the tool builds from the files converted here.
    run(["cmake", "--build", build, "--target", "cpconvert_converted"])
    converted = os.path.join(build, "cpconvert-converted")
    if sorted(os.listdir(converted)) != ["scale_cp.cu"]:
        fail("cpconvert_converted collected %s" % os.listdir(converted))
    bare = prefix + "-notool"
    shutil.rmtree(bare, ignore_errors=True)
    shutil.copytree(prefix, bare)
    os.remove(os.path.join(bare, "bin", "cpconvert"))
    nolang = os.path.join(work, "nolang")  # the same calls, without the slow CUDA detection
    os.makedirs(nolang)
    with open(os.path.join(nolang, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.20)\nproject(p LANGUAGES NONE)\n"
                "find_package(CPConvert REQUIRED)\n"
                "cpconvert_sources(out SOURCES %s/scale.cu)\n" % src)
    rc, out = cmake_project(nolang, build + "-nolang", bare, a.nvcc, ok=False)
    if rc == 0 or "no cpconvert to run" not in out or "CPCONVERT_CONVERTED_DIR" not in out:
        fail("configuring without a tool and without converted files did not stop with a "
             "message naming CPCONVERT_CONVERTED_DIR:\n" + out)
    cmake_project(src, build + "-notool", bare, a.nvcc, "-DCPCONVERT_CONVERTED_DIR=" + converted)
    _, out = run(["cmake", "--build", build + "-notool"])
    if re.search(r"cpconvert scale", out) or not os.path.isfile(build + "-notool/scale"):
        fail("the build from converted files ran cpconvert or linked no program:\n" + out)
    return 0


def check_dirs(a, prefix, src, generator):
    """Configures and builds tests/buildsys/dirs (a copy in src) with one generator."""
    build = os.path.join(a.work, "build-" + generator.split()[0].lower())
    shutil.rmtree(build, ignore_errors=True)
    _, out = run(["cmake", "-G", generator, "-S", src, "-B", build,
                  "-DCMAKE_PREFIX_PATH=" + prefix])
    for d in ("a", "b"):
        if "%s: runtime %s/include" % (d, prefix) not in out:
            fail("CPConvert::runtime is not the installed include folder in %s/:\n%s" % (d, out))
    _, out = run(["cmake", "--build", build])
    if "cpconvert scale_a.cu" not in out or "cpconvert scale_b.cu" not in out:
        fail("%s: the build did not convert in both directories:\n%s" % (generator, out))
    with open(os.path.join(build, "b", "cpconvert", "scale_b.cu")) as f:
        if "(--algo fast)" not in f.readline():
            fail("OPTIONS did not reach cpconvert in b/")
    _, out = run(["cmake", "--build", build])
    if "cpconvert scale" in out:
        fail("%s: a second build converted again:\n%s" % (generator, out))
    time.sleep(1.1)  # newer than the outputs, at any clock resolution
    os.utime(os.path.join(src, "..", "package", "scale.h"), None)
    _, out = run(["cmake", "--build", build])
    if "cpconvert scale_a.cu" not in out or "cpconvert scale_b.cu" not in out:
        fail("%s: touching scale.h did not re-convert in both directories:\n%s"
             % (generator, out))
    run(["cmake", "--build", build, "--target", "cpconvert_converted"])
    got = sorted(os.listdir(os.path.join(build, "cpconvert-converted")))
    if got != ["scale_a.cu", "scale_b.cu"]:
        fail("cpconvert_converted collected %s" % got)
    return build


def test_dirs(a, prefix):
    """Two directories of one project call cpconvert_sources (no compiler needed), under
    the Makefile generator and, where ninja is installed, Ninja."""
    shutil.rmtree(a.work, ignore_errors=True)
    for d in ("dirs", "package"):
        shutil.copytree(os.path.join(a.source_dir, "tests", "buildsys", d),
                        os.path.join(a.work, "src", d))
    src = os.path.join(a.work, "src", "dirs")
    build = check_dirs(a, prefix, src, "Unix Makefiles")
    if shutil.which("ninja"):
        check_dirs(a, prefix, src, "Ninja")
    shutil.rmtree(build)
    rc, out = run(["cmake", "-S", src, "-B", build, "-DCMAKE_PREFIX_PATH=" + prefix,
                   "-DCOLLIDE=ON"], ok=False)
    if rc == 0 or "have the same name" not in out:
        fail("two outputs named scale_a.cu did not stop configuring:\n" + out)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["install", "make", "cmake", "dirs"])
    ap.add_argument("--build", help="the configured and built cpconvert tree (install)")
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--nvcc")
    a = ap.parse_args()
    a.work = os.path.join(os.path.abspath(a.work), a.mode)
    prefix = os.path.abspath(a.prefix)
    rc = {"install": install, "make": test_make, "cmake": test_cmake, "dirs": test_dirs}[a.mode](a, prefix)
    if rc == SKIP:
        print("SKIP: no nvcc or no make")
        sys.exit(SKIP)
    print("PASS")


if __name__ == "__main__":
    main()
