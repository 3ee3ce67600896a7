#!/usr/bin/env python3
"""Converts the textbook MD program (textbook_md/) in one mode with --o-dir and builds
the output with nvcc (compile and link, no GPU needed). Fails on: a conversion error, any
cpconvert warning, any nvcc error or warning, and two signs of a dropped error term in
the output (a store of `cp_to_float(...)` into an array, and a companion pointer
parameter `NAME_err` that its function's body never uses).

  run_textbook.py --tool cpconvert --nvcc nvcc --runtime-include runtime/include \
                  --work DIR --mode all|accumulators|fixed|accumulators-fixed|plain
Mode `plain` converts nothing: it checks that the program itself builds as float and as
double (-DDOUBLE_PRECISION) without a warning, the baseline the converted builds need.
With --no-build (the sanitizer build's tests: nvcc is not what they check) the output is
converted and checked for dropped error terms, and not compiled.
"""
import argparse, os, re, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "textbook_md")
SOURCES = ["force.cu", "integrate.cu", "neighbor.cu", "reduce.cu", "memory.cu", "main.cu"]
MODES = {
    "all": [],
    "accumulators": ["--scope", "accumulators"],
    "fixed": ["--accumulate", "fixed"],
    "accumulators-fixed": ["--scope", "accumulators", "--accumulate", "fixed"],
}
# Where an error term is lost: `a[i] = cp_to_float(...)` keeps the value half only.
DROPPED_STORE = re.compile(r"\w+\s*\[[^\]]*\]\s*=\s*cp_to_float\(")
FUNCTION = re.compile(r"__(?:global|device)__[^;{]*?\b(\w+)\s*\(([^)]*)\)\s*\{")


def function_bodies(text):
    """Yields (name, parameter list, body) of every __global__/__device__ definition."""
    for m in FUNCTION.finditer(text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        yield m.group(1), m.group(2), text[m.end():i]


def dropped_error_terms(path):
    """Returns one message per place in a converted file where an error term is lost."""
    text = open(path).read()
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        if DROPPED_STORE.search(line):
            found.append(f"{path}:{n}: value stored without its error: {line.strip()}")
    for name, params, body in function_bodies(text):
        for err in re.findall(r"(?<!const )\b\w+\s*\*\s*(\w+_err)\b", params):
            if not re.search(r"\b%s\b" % err, body):
                found.append(f"{path}: '{name}' never writes its companion '{err}'")
    return found


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def build_plain(nvcc, out):
    """Builds the unconverted program as float and as double; 0 when both build cleanly."""
    status = 0
    for name, flags in (("md_float", []), ("md_double", ["-DDOUBLE_PRECISION"])):
        rc, text = run([nvcc, "-O2", "-arch=sm_90"] + flags + SOURCES +
                       ["-o", os.path.join(out, name)], cwd=PROGRAM)
        sys.stdout.write(text)
        if rc != 0 or "warning" in text:
            print(f"FAIL: nvcc {'failed' if rc else 'warned'} building {name}")
            status = 1
    return status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--mode", choices=sorted(MODES) + ["plain"], required=True)
    ap.add_argument("--no-build", action="store_true", help="convert and check, no nvcc")
    a = ap.parse_args()
    out = os.path.join(os.path.abspath(a.work), a.mode)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    if a.mode == "plain":
        return build_plain(a.nvcc, out)
    problems = []
    rc, text = run([os.path.abspath(a.tool)] + SOURCES + ["--o-dir", out] + MODES[a.mode],
                   cwd=PROGRAM)
    sys.stdout.write(text)
    if rc != 0:
        print(f"FAIL: cpconvert exited {rc} in mode {a.mode}")
        return 1
    if "warning:" in text:
        problems.append("cpconvert printed warnings")
    for src in SOURCES:
        problems += dropped_error_terms(os.path.join(out, src))
    if a.no_build:
        for p in problems:
            print("FAIL: " + p)
        return 1 if problems else 0
    objects = []
    for src in SOURCES:
        obj = os.path.join(out, src + ".o")
        # -I PROGRAM after the output folder: converted headers win, the others are found.
        rc, text = run([a.nvcc, "-c", "-O2", "-arch=sm_90", "-I" + out, "-I" + PROGRAM,
                        "-I" + os.path.abspath(a.runtime_include), os.path.join(out, src),
                        "-o", obj])
        sys.stdout.write(text)
        if rc != 0 or "warning" in text:
            problems.append(f"nvcc {'failed' if rc else 'warned'} on {src}")
        objects.append(obj)
    if not any(p.startswith("nvcc failed") for p in problems):
        rc, text = run([a.nvcc, "-arch=sm_90", "-o", os.path.join(out, "md")] + objects)
        sys.stdout.write(text)
        if rc != 0:
            problems.append("nvcc could not link the converted program")
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
