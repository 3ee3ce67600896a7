#!/usr/bin/env python3
"""The semantics guard: a converted program must not compute worse than the float one.

For one whole program (a golden test with a main, a multi-file test directory, or an
example) it builds three variants with nvcc and runs them on the GPU:
  float      the input as written
  converted  the golden NAME.expected.cu (a multi test's expected/ tree), or the example
             converted by cpconvert now
  double     the input with every float type spelled double (float, float2/3/4,
             make_floatN, the f-suffixed math functions); literals keep their f suffix, so
             the double program starts from the same float-rounded constants and data
and asserts, for every number the programs print (in order), that
  |converted - double| <= |float - double| + tol,   tol = 2 * 2^-24 * |double|
(two units in the last place of a float: the converted result is printed after the
final recombination into one float, which may round once more than float's own
result). The converted program's exit status must equal the double program's. The
converted program built with -DCP_REPORT (the error report) must print the same bytes and
exit status, and report on standard error where it recombines.

Without a CUDA device it still builds the double variant (so that the substitution is
checked everywhere nvcc exists) and exits 77, which ctest reports as skipped.
"""
import argparse, os, re, shutil, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail  # noqa: E402

MATH = ["sqrtf", "rsqrtf", "fabsf", "fminf", "fmaxf", "expf", "logf", "sinf", "cosf",
        "powf", "floorf", "ceilf", "fmaf", "erff", "tanhf", "exp2f", "log2f"]
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)")


def to_double(src):
    src = re.sub(r"\bmake_float([234])\b", r"make_double\1", src)
    src = re.sub(r"\bfloat([234]?)\b", r"double\1", src)
    for f in MATH:
        src = re.sub(r"\b%s\b" % f, f[:-1], src)
    return src


def worse_than_float(fn, cn, dn, where=""):
    """The values (as messages) where the converted result is further from double's than
    float's by more than tol = 2 * 2^-24 * |double| (the criterion of the module doc)."""
    return ["%svalue %d: float %r, converted %r, double %r" % (where, i, f, c, d)
            for i, (f, c, d) in enumerate(zip(fn, cn, dn))
            if not abs(c - d) <= abs(f - d) + 2 * 2.0 ** -24 * abs(d)]


def build(nvcc, include_dirs, srcs, exe, flags=()):
    srcs = [srcs] if isinstance(srcs, str) else srcs
    p = subprocess.run([nvcc, "-arch=sm_90", "-o", exe] + srcs + list(flags) +
                       ["-I" + d for d in include_dirs], capture_output=True)
    if p.returncode != 0:
        sys.stdout.write(p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace"))
        fail("nvcc could not build " + " ".join(srcs))


def double_tree(srcdir, out):
    """A multi test's sources and headers in double under out; its .cu files there."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for f in sorted(os.listdir(srcdir)):
        if f.endswith((".cu", ".h", ".cuh", ".hpp")):
            open(os.path.join(out, f), "w").write(to_double(open(os.path.join(srcdir, f)).read()))
    return sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".cu"))


def have_device():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    p = subprocess.run([smi, "-L"], capture_output=True)
    return p.returncode == 0 and b"GPU" in p.stdout


def run(exe, with_stderr=False):
    p = subprocess.run([exe], capture_output=True, timeout=120)
    err = p.stderr.decode(errors="replace")
    if "no CUDA-capable device" in err or "CUDA driver" in err:
        print("SKIP: no usable CUDA device")
        sys.exit(77)
    out = p.returncode, p.stdout.decode(errors="replace")
    return out + (err,) if with_stderr else out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("source", help="NAME.cu (NAME.expected.cu beside it is the converted one), "
                    "or a multi test's directory (its expected/ tree is)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    multi = os.path.isdir(a.source)
    name = os.path.basename(os.path.normpath(a.source)) if multi else os.path.basename(a.source)[:-3]
    srcdir = os.path.abspath(a.source) if multi else os.path.dirname(os.path.abspath(a.source))
    w = lambda suffix: os.path.join(a.work, name + suffix)
    if multi:
        float_srcs = sorted(os.path.join(srcdir, f) for f in os.listdir(srcdir) if f.endswith(".cu"))
        conv_dir = os.path.join(srcdir, "expected")
        conv_srcs = [os.path.join(conv_dir, os.path.basename(f)) for f in float_srcs]
        dbl_srcs = double_tree(srcdir, w(".double.d"))
        build(a.nvcc, [w(".double.d")], dbl_srcs, w(".double"))
    else:
        float_srcs = [a.source]
        conv_dir = srcdir
        dbl_src = w(".double.cu")
        open(dbl_src, "w").write(to_double(open(a.source).read()))
        build(a.nvcc, [srcdir], dbl_src, w(".double"))
    if not have_device():
        print("SKIP: no CUDA device (the double variant builds)")
        sys.exit(77)

    if not multi:
        conv_srcs = [os.path.join(srcdir, name + ".expected.cu")]
        if not os.path.exists(conv_srcs[0]):
            conv_srcs = [w(".cp.cu")]
            p = subprocess.run([a.tool, a.source, "-o", conv_srcs[0]], capture_output=True)
            if p.returncode != 0:
                sys.stdout.write(p.stderr.decode(errors="replace"))
                fail("cpconvert could not convert " + a.source)
    build(a.nvcc, [srcdir], float_srcs, w(".float"))
    build(a.nvcc, [conv_dir, a.runtime_include], conv_srcs, w(".cp"))
    build(a.nvcc, [conv_dir, a.runtime_include], conv_srcs, w(".report"), ["-DCP_REPORT"])

    (fc, fo), (cc, co), (dc, do) = run(w(".float")), run(w(".cp")), run(w(".double"))
    print("float (exit %d):\n%sconverted (exit %d):\n%sdouble (exit %d):\n%s" % (fc, fo, cc, co, dc, do))
    if cc != dc:
        fail("the converted program exits %d, the double one %d" % (cc, dc))
    fn, cn, dn = ([float(x) for x in NUMBER.findall(o)] for o in (fo, co, do))
    if not (len(fn) == len(cn) == len(dn)):
        fail("the programs print different numbers of values: %d, %d, %d" % (len(fn), len(cn), len(dn)))
    worse = worse_than_float(fn, cn, dn)
    if worse:
        fail("the converted program is worse than float:\n  " + "\n  ".join(worse))
    # The error report (-DCP_REPORT) prints on standard error and changes no output byte.
    rc, ro, report = run(w(".report"), with_stderr=True)
    print("converted with -DCP_REPORT, standard error:\n%s" % report)
    if (rc, ro) != (cc, co):
        fail("with -DCP_REPORT the converted program prints something else (exit %d):\n%s" % (rc, ro))
    if any("cp_recombine" in open(f).read() for f in conv_srcs) and "cp report: " not in report:
        fail("with -DCP_REPORT the converted program recombines but reports nothing")
    print("PASS: %d values, none worse than float; -DCP_REPORT changes no output byte" % len(dn))


if __name__ == "__main__":
    main()
