#!/usr/bin/env python3
"""bench/math/sass_path.py - instruction counts of the math functions' SASS (no GPU needed).

For each function and tier: a kernel that loads one pair (two for pow), calls the function
once and stores the pair, compiled for sm_90 (nvcc -cubin -std=c++17 -I runtime/include,
ff backend) and disassembled (cuobjdump -sass); printed: the instructions on the longest
path from the entry to an exit that calls nothing (the IEEE division's slow path is a call),
back edges dropped, NOPs not counted, less the same kernel calling nothing. With CCCL's
include folder as the second argument, fpmp's functions beside (fp32mp2, as bench/math).
  bench/math/sass_path.py CUOBJDUMP [CCCL_INCLUDE]
(cuobjdump: e.g. pip install --target build/pytools nvidia-cuda-cuobjdump). A cost proxy
only: latencies, dual issue and MUFU throughput are not in it.
  bench/math/sass_path.py CUOBJDUMP --dump FILE
writes the SASS of one such kernel per math function and tier (high, mid, low; NOPs left
out) to FILE: two revisions' files compared with cmp tell whether a change of the runtime's
code changed any instruction.
"""
import os, re, subprocess, sys, tempfile

OURS = ["log", "log2", "log10", "log1p", "exp", "sinh", "cosh", "tanh"]
FPMP = ["log", "log2", "log10", "log1p", "exp", "pow", "sinh", "cosh", "tanh"]
ALL1 = ("acos asin atan cbrt cos cosh cospi erf erfc exp exp10 exp2 expm1 log log10 log1p "
        "log2 sin sinh sinpi tan tanh").split()
ALL2 = ["atan2", "hypot", "pow", "rhypot"]
SRC = r'''
#define CP_BACKEND CP_BACKEND_FF
#include <cp/cp.cuh>
#define LD int i = threadIdx.x; cp_float x = {a[i], b[i]}; cp_float y = {a[i + 64], b[i + 64]}; (void)y;
#define K(name, call) extern "C" __global__ void name(const float *a, const float *b, float *o) \
  { LD cp_float r = call; o[2 * i] = r.v; o[2 * i + 1] = r.e; }
#ifdef FPMP
#include <cuda/fpmp>
#include <cuda/fpmp_math>
namespace fx = cuda::experimental;
#define F(name, call) extern "C" __global__ void name(const float *a, const float *b, float *o) \
  { int i = threadIdx.x; fx::fp32mp2 x(a[i], b[i]), y(a[i + 64], b[i + 64]); (void)y; \
    fx::fp32mp2 r = call; o[2 * i] = r.hi(); o[2 * i + 1] = r.lo(); }
%s
#else
K(none1, x) K(none2, cp_make_float(x.v + y.v, x.e + y.e))
%s
#endif
'''

def parse(text):
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m and cur is not None and not m.group(2).startswith("NOP"):
            cur.append((int(m.group(1), 16), m.group(2).strip()))
    return funcs

def longest(ins):
    idx = {a: i for i, (a, _) in enumerate(ins)}
    n, neg = len(ins), -(10 ** 9)
    best = [neg] * (n + 1)
    best[n] = 0
    for i in range(n - 1, -1, -1):
        a, s = ins[i]
        pred = s.startswith("@")
        op = s.split()[1] if pred else s.split()[0]
        if op.startswith("CALL"):
            continue
        if op.startswith(("EXIT", "RET")):
            succ = [n] + ([i + 1] if pred else [])
        elif op.startswith("BRA"):
            m = re.search(r"BRA (!?U?P\d, )?(?:`\()?0x([0-9a-f]+)", s)
            succ = [i + 1] if (pred or (m and m.group(1))) else []
            if m and int(m.group(2), 16) > a and int(m.group(2), 16) in idx:
                succ.append(idx[int(m.group(2), 16)])
        else:
            succ = [i + 1]
        v = max([best[j] for j in succ] or [neg])
        best[i] = v + 1 if v > neg // 2 else neg
    return best[0]

def sass(cuobjdump, src, flags):
    with tempfile.TemporaryDirectory() as d:
        cu, cubin = os.path.join(d, "k.cu"), os.path.join(d, "k.cubin")
        open(cu, "w").write(src)
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-std=c++17", "-diag-suppress=550", "-I", os.path.join(root, "runtime", "include")]
                       + flags + [cu, "-o", cubin], check=True)
        return parse(subprocess.run([cuobjdump, "-sass", cubin], check=True, capture_output=True, text=True).stdout)

def dump(cuobjdump, out):
    calls = " ".join("K(%s_%s, cp_%s_%s(%s))" % (t, f, t, f, "y, x" if f in ALL2 else "x")
                     for f in ALL1 + ALL2 for t in ("high", "mid", "low"))
    k = sass(cuobjdump, SRC % ("", calls), [])
    with open(out, "w") as o:
        for name in sorted(k):
            o.write("%s\n" % name)
            o.writelines("  %04x %s\n" % (a, s) for a, s in k[name])
    print("%d kernels written to %s" % (len(k), out))

def main():
    cuobjdump = sys.argv[1]
    if len(sys.argv) == 4 and sys.argv[2] == "--dump":
        return dump(cuobjdump, sys.argv[3])
    ours = " ".join("K(%s_%s, cp_%s_%s(x))" % (t, f, t, f) for f in OURS for t in ("high", "mid"))
    ours += " K(high_pow, cp_high_pow(x, y)) K(mid_pow, cp_mid_pow(x, y))"
    k = sass(cuobjdump, SRC % ("", ours), [])
    base1, base2 = longest(k["none1"]), longest(k["none2"])
    fp = {}
    if len(sys.argv) > 2:
        calls = " ".join("F(fpmp_%s, fx::%s(%s))" % (f, f, "x, y" if f == "pow" else "x") for f in FPMP)
        fp = sass(cuobjdump, SRC % (calls, ""), ["-DFPMP", "-I", sys.argv[2]])
    print("%-6s %6s %6s %6s" % ("", "high", "mid", "fpmp"))
    for f in OURS + ["pow"]:
        b = base2 if f == "pow" else base1
        row = [longest(k["%s_%s" % (t, f)]) - b for t in ("high", "mid")]
        row.append(longest(fp["fpmp_" + f]) - b if "fpmp_" + f in fp else "-")
        print("%-6s %6s %6s %6s" % (f, *row))

if __name__ == "__main__":
    main()
