#!/usr/bin/env python3
"""-p with the compile_commands.json of CMake's generators: a small CUDA + C project,
configured with Unix Makefiles (which hands nvcc its include directories in a response
file, --options-file includes_CUDA.rsp) and with Ninja (which spells them out). In both,
cpconvert -p must see the target's include directory and its -D (the #if branch the build
compiles converts), and the C file's -std=gnu99 must not stop the parse. Skips (77) where
there is no nvcc or the generator is missing."""
import argparse, os, shutil, subprocess, sys

CMAKELISTS = """cmake_minimum_required(VERSION 3.18)
project(p LANGUAGES CUDA C)
add_executable(app k.cu host.c)
target_include_directories(app PRIVATE inc)
target_compile_definitions(app PRIVATE USE_SCALE=1)
set_property(TARGET app PROPERTY CUDA_ARCHITECTURES 90)
set_property(TARGET app PROPERTY C_STANDARD 99)
"""
KERNEL = """#include "k.h"
#pragma cp composite
__global__ void k(float *x)
{
#if USE_SCALE
  x[threadIdx.x] *= FACTOR;
#else
  x[threadIdx.x] += FACTOR;
#endif
}
"""


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--nvcc")
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    if not a.nvcc:
        print("skipped: no nvcc")
        sys.exit(77)
    proj = os.path.join(a.work, "proj")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(os.path.join(proj, "inc"))
    files = {"CMakeLists.txt": CMAKELISTS, "k.cu": KERNEL, "inc/k.h": "#define FACTOR 0.5f\n",
             "host.c": "int host_only(int a) { return a + 1; }\n"}
    for name, text in files.items():
        with open(os.path.join(proj, name), "w") as f:
            f.write(text)
    ran = 0
    for gen in ("Unix Makefiles", "Ninja"):
        if gen == "Ninja" and not shutil.which("ninja"):
            print("Ninja: not installed, left out")
            continue
        build = os.path.join(a.work, gen.replace(" ", ""))
        p = subprocess.run(["cmake", "-S", proj, "-B", build, "-G", gen,
                            "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                            "-DCMAKE_CUDA_COMPILER=" + a.nvcc], capture_output=True, text=True)
        if p.returncode != 0:
            fail("%s: cmake configure failed:\n%s" % (gen, p.stdout + p.stderr))
        out = os.path.join(build, "k_cp.cu")
        p = subprocess.run([a.tool, "-p", build, "k.cu", "-o", out], cwd=proj,
                           capture_output=True, text=True)
        if p.returncode != 0 or "ignoring" in p.stderr or "response file" in p.stderr:
            fail("%s: cpconvert -p: exit %d\n%s" % (gen, p.returncode, p.stderr))
        text = open(out).read()
        if "cp_mul_cf(" not in text or "x[threadIdx.x] += FACTOR;" not in text:
            fail("%s: the build's branch (USE_SCALE=1, FACTOR from inc/) did not convert:\n%s"
                 % (gen, text))
        p = subprocess.run([a.tool, "-p", build, "host.c", "-o", os.path.join(build, "host_cp.c")],
                           cwd=proj, capture_output=True, text=True)
        if p.returncode != 0:
            fail("%s: cpconvert -p on the C file: exit %d\n%s" % (gen, p.returncode, p.stderr))
        print("%s: PASS" % gen)
        ran += 1
    print("PASS" if ran == 2 else "PASS (Unix Makefiles only)")


if __name__ == "__main__":
    main()
