#!/usr/bin/env python3
"""cpconvert_target(NEW FROM float_target) and the build's flags reaching the parser, on
tests/buildsys/derive (a CUDA project, Release; the float targets are not built):

  - select_cp, derived from the float library `select`: select.cu converts and compiles only
    if the parser and nvcc get CMAKE_CUDA_FLAGS (set at the end of the CMakeLists.txt),
    CMAKE_CUDA_FLAGS_RELEASE, a `$<$<COMPILE_LANGUAGE:CUDA>:-D...>` compile option and
    CUDA_STANDARD 14 (before, only include directories and definitions reached it and the
    parser stopped at an #error); host.cpp is carried over unconverted;
  - md_cp, derived from the float program of tests/buildsys/together with TOGETHER: its
    include folder, the definition STEPS of a linked INTERFACE library, cuda_std_14,
    CUDA_ARCHITECTURES and CUDA_SEPARABLE_COMPILATION carry over; it converts (main.cu
    stops at an #error without STEPS; not compiled, to keep the test short);
  - the derived targets' properties equal the float ones' (LINK_LIBRARIES plus
    CPConvert::runtime, and md_cp links select_cp where md links select).

One CUDA configure, two nvcc compiles (about 12 s). Without nvcc or ninja: skipped (77)."""
import argparse, os, shutil, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail  # noqa: E402


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        sys.stdout.write(out)
        fail("%s failed" % " ".join(cmd))
    return out


def properties(build):
    got = {}
    with open(os.path.join(build, "properties-CUDA.txt")) as f:
        for line in f:
            target, prop, value = (line.rstrip("\n").split(" ", 2) + [""])[:3]
            got[(target, prop)] = value
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--nvcc")
    a = ap.parse_args()
    if not a.nvcc or not shutil.which("ninja"):
        print("SKIP: needs nvcc and ninja")
        sys.exit(77)
    src = os.path.join(a.source_dir, "tests", "buildsys")
    build = os.path.abspath(a.work)
    shutil.rmtree(build, ignore_errors=True)
    run(["cmake", "-G", "Ninja", "-S", os.path.join(src, "derive"), "-B", build,
         "-DCMAKE_MODULE_PATH=" + os.path.join(a.source_dir, "cmake"),
         "-DCPCONVERT_EXECUTABLE=" + os.path.abspath(a.tool), "-DCMAKE_CUDA_COMPILER=" + a.nvcc,
         "-DCMAKE_BUILD_TYPE=Release", "-DCODE_DIR=" + os.path.join(src, "together")])
    run(["cmake", "--build", build, "--target", "select_cp", "cpconvert_converted"])
    converted = os.path.join(build, "cpconvert", "select_cp.cu")
    with open(converted) as f:
        text = f.read()
    if "scale_selected" not in text or "cp_" not in text:
        fail("%s: the selected branch did not convert:\n%s" % (converted, text))
    for want in ("-DFROM_CUDA_FLAGS=1", "-DFROM_CONFIG_FLAGS=1", "-DFROM_TARGET_OPTIONS=1"):
        if want not in text.splitlines()[0]:
            fail("the first line of %s does not name %s" % (converted, want))
    main_cu = os.path.join(build, "cpconvert", "md_cp", "src", "main.cu")
    if not os.path.isfile(main_cu) or "STEPS" not in open(main_cu).read():
        fail("md_cp's conversion did not write %s" % main_cu)
    got = properties(build)
    for prop in ("CUDA_ARCHITECTURES", "CUDA_SEPARABLE_COMPILATION", "CUDA_STANDARD",
                 "COMPILE_FEATURES", "COMPILE_OPTIONS", "LINK_LIBRARIES", "EXCLUDE_FROM_ALL"):
        for float_target in ("select", "md"):
            want = got[(float_target, prop)]
            have = got[(float_target + "_cp", prop)]
            if prop == "LINK_LIBRARIES":  # the derived select_cp for select
                want = ";".join(x for x in (want, "CPConvert::runtime") if x)
                want = want.replace("select", "select_cp")
            elif prop == "COMPILE_OPTIONS":  # then CPConvert::runtime's
                have = have[:len(want)]
            if have != want:
                fail("%s_cp's %s is %r, %s's %r" % (float_target, prop, have, float_target, want))
    print("PASS")


if __name__ == "__main__":
    main()
