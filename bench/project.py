#!/usr/bin/env python3
"""PROJECTION of kernel time on FP64-weak GPUs from static SASS instruction counts.

No L40S, RTX 4090 or A40 is at hand, so this script does not measure them: it compiles
every example variant that examples/CMakeLists.txt defines (float, double, composite and
the others) for sm_89, sm_86 and sm_90, disassembles the objects with `cuobjdump -sass`,
counts the SASS instructions of each kernel's hot loop by class, and projects a time from
the per-SM throughputs that NVIDIA publishes for those architectures.

Model (kept simple on purpose, and stated in every table it prints):
  - Loops are compiled with unrolling off (`#pragma unroll 1` is put before every `for` and
    `while` statement of a temporary copy of the source), so one pass through a loop body
    in the SASS is one iteration of the source loop in every variant.
  - Composite variants are compiled with -DCP_PROJECT_COMMON_PATH: every operation keeps
    its special-value check, but the rare fallback behind it (taken only for zeros, inf and
    NaN) becomes a trap, so the static count is what ordinary numbers execute (--all-paths
    counts the fallbacks too, as if they ran every time).
  - The hot loop of a kernel is its innermost loop (a region closed by a backward BRA)
    that reads global memory (LDG), the largest if several do; in a kernel whose innermost
    loops read none (an iteration in registers), the largest. A reduction tree's loop
    (shuffles, shared memory) runs log2(width) times and is not taken. Its static instruction counts are the cost of one
    iteration. A kernel without a loop is counted whole (straight-line code).
  - Cycles per thread-iteration on one SM = the largest of: all issued instructions / 128
    (4 schedulers x 32 lanes), (FP32 + integer) / 128 (Ampere/Ada share half the FP32 lanes
    with integer), and for each pipe its count / its rate (FP32 128, FP64 2, integer 64,
    MUFU 16, conversions 16, shuffles 32, loads/stores 32 per clock per SM).
  - Memory bandwidth, latency, occupancy, divergence and loop trip counts are not modelled;
    the figures suit compute-bound loops. The ratio between variants of one kernel is the
    useful output; the absolute time is for 10^9 thread-iterations of the hot loop.

Sources of the rates: CUDA C++ Programming Guide, "Arithmetic Instructions", table
"Throughput of Native Arithmetic Instructions (operations per clock cycle per
multiprocessor)", columns 8.6 and 8.9: 32-bit floating-point add/multiply/multiply-add 128,
64-bit floating-point add/multiply/multiply-add 2, 32-bit integer add/compare/logic 64,
reciprocal/rsqrt/log2/exp2/sin/cos (MUFU) 16, conversions 16, warp shuffle 32. The
load/store rate (32 per clock per SM, one warp instruction) is not in that table; it is the
assumption of this model. SM counts and boost clocks: NVIDIA L40S datasheet (142 SMs,
2520 MHz), RTX 4090 (128 SMs, 2520 MHz), A40 datasheet (84 SMs, 1740 MHz).

Usage (here, with the converted sources of a configured build, or on the GPU machine with
those of bench/gpu/prepare.sh):
  python3 bench/project.py [--converted DIR] [--arch 89,86,90] [--backend ff|dp]
                           [--only NAME] [--all-paths] [--json FILE] [--keep DIR]
--backend adds -DCP_BACKEND_<NAME> (and -DCP_BACKEND=<NAME>) to the composite variants:
today's runtime has one backend (float-float), which is what "ff" means until the
runtime's backend switch exists; the flag is passed through unchanged so one command
projects either once it does.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Per-SM throughput (thread operations per clock), CC 8.6 / 8.9 (see the docstring).
RATES = {"fp32": 128, "fp64": 2, "int": 64, "mufu": 16, "conv": 16, "shfl": 32, "mem": 32}
ISSUE = 128
# arch -> the part its SASS is projected on: name, SMs, boost clock in GHz.
PARTS = {"89": ("L40S", 142, 2.52), "86": ("A40", 84, 1.74), "90": (None, 0, 0)}
PARTS_ALSO = {"89": [("RTX 4090", 128, 2.52)]}

CLASSES = [
    ("fp64", r"D(ADD|MUL|FMA|SETP|SET|MNMX)$"),
    ("mufu", r"MUFU$"),
    ("conv", r"(F2F|F2I|I2F|I2I|F2FP|FRND|I2FP|F2IP)$"),
    ("fp32", r"(FADD|FMUL|FFMA|FSETP|FSET|FMNMX|FSEL|FCHK|FSWZADD|HADD2|HMUL2|HFMA2|FADD32I|FMUL32I|FFMA32I)$"),
    ("shfl", r"SHFL$"),
    ("mem", r"(LDG|STG|LDS|STS|LD|ST|LDL|STL|ATOM|ATOMG|ATOMS|RED|REDG|LDGSTS|LDSM)$"),
    ("int", r"(IADD3|IADD|IMAD|IMUL|IMNMX|ISETP|LOP3|LOP|SHF|SHL|SHR|LEA|SEL|PRMT|IABS|POPC|FLO|BREV|BMSK|VIADD|VIMNMX|ISCADD|IDP|PLOP3|P2R|R2P)$"),
    ("ctrl", r"(BRA|BRX|JMP|JMX|BSSY|BSYNC|EXIT|RET|CALL|BAR|WARPSYNC|NOP|YIELD|BREAK|VOTE|VOTEU|MATCH|MEMBAR|ERRBAR|CCTL|DEPBAR|BPT|KILL|ELECT|ACQBULK|FENCE)$"),
]
CLASS_NAMES = ["fp32", "fp64", "int", "mufu", "conv", "shfl", "mem", "ctrl", "other"]
_CLASS_RE = [(n, re.compile(p)) for n, p in CLASSES]


def classify(opcode):
    base = opcode.split(".")[0]
    if base.startswith("U") and base not in ("UNKNOWN",):
        return "uniform"  # the uniform datapath: issue slot only
    for name, rx in _CLASS_RE:
        if rx.match(base):
            return name
    return "other"  # MOV, S2R, LDC, CS2R...: issue slot only


# ---- the variants of examples/CMakeLists.txt ----

def variants(cmake_text):
    """[(example, variant, kind, defines)]: kind 'source' or 'converted'."""
    out, extra = [], {}
    text = re.sub(r"#.*", "", cmake_text)
    for m in re.finditer(r"target_compile_definitions\((\w+)\s+PRIVATE\s+([^)]*)\)", text):
        extra.setdefault(m.group(1), []).extend(m.group(2).split())
    for m in re.finditer(r"^\s*(example|example_macro|example_composite)\(([^)]*)\)", text, re.M):
        fn, args = m.group(1), m.group(2).split()
        if any("$" in a for a in args):
            continue  # inside the function definitions
        if fn == "example":
            out += [(args[0], "float", "source", []), (args[0], "double", "source", ["REAL_DOUBLE"]),
                    (args[0], "cp", "converted", []), (args[0], "cpff", "converted", [])]
        elif fn == "example_macro":
            out.append((args[0], args[1], "source", args[2:]))
        else:
            out.append((args[0], args[1], "converted", []))
    return [(e, v, k, d + [x for x in extra.get(f"{e}_{v}", []) if x not in d and x != "REAL_DOUBLE"])
            for e, v, k, d in out]


def no_unroll(text):
    """`#pragma unroll 1` before each for/while statement that starts a line."""
    out = []
    for line in text.splitlines(keepends=True):
        if re.match(r"\s*(for|while)\s*\(", line) and not out[-1:] == ["#pragma unroll 1\n"]:
            prev = out[-1].rstrip() if out else ""
            if not prev.endswith("\\"):  # never inside a macro
                out.append("#pragma unroll 1\n")
        out.append(line)
    return "".join(out)


# ---- SASS ----

_INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")


def parse_sass(text):
    """{kernel: [(addr, opcode, operands)]}."""
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = _INSN.search(line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(3), m.group(4)))
    return funcs


def hot_loop(insns):
    """(instructions of the hot loop (see the docstring), loops found)."""
    loops = []
    for addr, op, operands in insns:
        if op.split(".")[0] == "BRA":
            t = re.search(r"0x([0-9a-f]+)", operands)
            if t and int(t.group(1), 16) < addr:  # BRA to itself: the end-of-code trap
                loops.append((int(t.group(1), 16), addr))
    inner = [(a, b) for a, b in loops
             if not any((c, d) != (a, b) and a <= c and d <= b for c, d in loops)]
    if not inner:
        return insns, 0
    def rank(r):
        body = [i for i in insns if r[0] <= i[0] <= r[1]]
        return (any(op.startswith("LDG") for _, op, _ in body), len(body))
    best = max(inner, key=rank)
    return [i for i in insns if best[0] <= i[0] <= best[1]], len(loops)


def counts(insns):
    c = {k: 0 for k in CLASS_NAMES + ["uniform"]}
    for _, op, _ in insns:
        c[classify(op)] += 1
    c["total"] = len(insns)
    return c


def cycles(c):
    """Projected SM cycles per thread-iteration, and the limiting resource."""
    issued = c["total"] - c["uniform"]
    cands = {"issue": issued / ISSUE, "fp32+int": (c["fp32"] + c["int"]) / 128}
    for k, r in RATES.items():
        cands[k] = c[k] / r
    lim = max(cands, key=cands.get)
    return cands[lim], lim


def resource_usage(cuobjdump, cubin):
    out = subprocess.run([cuobjdump, "-res-usage", cubin], capture_output=True, text=True).stdout
    regs, cur = {}, None
    for line in out.splitlines():
        m = re.search(r"Function (\S+):", line)
        if m:
            cur = m.group(1)
        m = re.search(r"REG:(\d+)", line)
        if m and cur:
            regs[cur] = int(m.group(1))
    return regs


def demangle_name(sym):
    m = re.match(r"_Z(\d+)(\w+)", sym)
    return m.group(2)[: int(m.group(1))] if m else sym


# ---- build ----

def tool(name):
    found = shutil.which(name)
    if not found:
        sys.exit(f"project.py: {name} not found on PATH (CUDA toolkit, or the pip packages "
                 f"nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm)")
    return found


def compile_variant(nvcc, src, arch, defines, tmp, tag, extra):
    with open(src) as f:
        text = no_unroll(f.read())
    copy = os.path.join(tmp, f"{tag}.cu")
    with open(copy, "w") as f:
        f.write(text)
    cubin = os.path.join(tmp, f"{tag}_sm{arch}.cubin")
    cmd = [nvcc, "-cubin", "-O3", f"-arch=sm_{arch}", "-I", os.path.join(ROOT, "runtime", "include"),
           "-I", os.path.dirname(src)] + [f"-D{d}" for d in defines] + extra + [copy, "-o", cubin]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"project.py: {' '.join(cmd)} failed:\n{r.stderr}")
    return cubin


def find_converted(arg):
    for d in ([arg] if arg else [os.path.join(ROOT, "build", "examples", "cpconvert"),
                                 os.path.join(ROOT, ".device")]):
        if d and os.path.isdir(d):
            return d
    sys.exit("project.py: no converted sources: build the tree (cmake --build build) or run "
             "bench/gpu/prepare.sh, or name the folder with --converted")


def measure(args):
    nvcc, cuobjdump = tool("nvcc"), tool("cuobjdump")
    with open(os.path.join(ROOT, "examples", "CMakeLists.txt")) as f:
        vs = variants(f.read())
    conv = find_converted(args.converted)
    tmp = args.keep or tempfile.mkdtemp(prefix="cp_project_")
    os.makedirs(tmp, exist_ok=True)
    rows = []
    for ex, var, kind, defines in vs:
        if args.only and ex != args.only:
            continue
        if kind == "source":
            src = os.path.join(ROOT, "examples", ex, f"{ex}.cu")
            extra = []
        else:
            src = os.path.join(conv, f"{ex}_{var}.cu")
            extra = list(args.backend_flags) + ([] if args.all_paths else ["-DCP_PROJECT_COMMON_PATH"])
        if not os.path.exists(src):
            sys.exit(f"project.py: {src} is missing")
        for arch in args.arch:
            cubin = compile_variant(nvcc, src, arch, defines, tmp, f"{ex}_{var}", extra)
            sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True, check=True).stdout
            regs = resource_usage(cuobjdump, cubin)
            for sym, insns in sorted(parse_sass(sass).items()):
                body, nloops = hot_loop(insns)
                c = counts(body)
                cyc, lim = cycles(c)
                rows.append({"example": ex, "variant": var, "arch": arch, "kernel": demangle_name(sym),
                             "symbol": sym, "loops": nloops, "counts": c, "whole": len(insns),
                             "regs": regs.get(sym), "cycles": cyc, "limit": lim})
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


# ---- report ----

def ms_per_1e9(cyc, part):
    _, sms, ghz = part
    return cyc * 1e9 / (sms * ghz * 1e9) * 1e3


def report(rows, out):
    w = out.write
    w("PROJECTION, not a measurement: static SASS counts of each kernel's hot loop\n")
    w("(innermost loop reading global memory, unrolling off; whole kernel when it has no loop)\n")
    w("x published per-SM rates (bench/project.py docstring). Times: ms per 10^9\n")
    w("thread-iterations. Composite variants: common path only (special-value fallbacks not\n")
    w("counted). Columns: instructions per iteration by class; regs: registers per thread.\n")
    for ex in dict.fromkeys(r["example"] for r in rows):
        w(f"\n## {ex} (PROJECTION)\n\n")
        w("| kernel | arch | variant | FP32 | FP64 | int | MUFU | conv | shfl | mem | other | regs "
          "| cycles/iter | limit | projected ms | vs float | vs double |\n")
        w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        ex_rows = [r for r in rows if r["example"] == ex]
        for kern in dict.fromkeys(r["kernel"] for r in ex_rows):
            for arch in dict.fromkeys(r["arch"] for r in ex_rows):
                group = [r for r in ex_rows if r["kernel"] == kern and r["arch"] == arch]
                base = {r["variant"]: r["cycles"] for r in group}
                part = PARTS.get(arch)
                for r in group:
                    c = r["counts"]
                    t = f"{ms_per_1e9(r['cycles'], part):.2f} ({part[0]})" if part and part[0] else "-"
                    vf = f"{r['cycles'] / base['float']:.2f}x" if base.get("float") else "-"
                    vd = f"{r['cycles'] / base['double']:.2f}x" if base.get("double") else "-"
                    other = c["other"] + c["ctrl"] + c["uniform"]
                    w(f"| {kern} | sm_{arch} | {r['variant']} | {c['fp32']} | {c['fp64']} | {c['int']} "
                      f"| {c['mufu']} | {c['conv']} | {c['shfl']} | {c['mem']} | {other} | {r['regs']} "
                      f"| {r['cycles']:.3f} | {r['limit']} | {t} | {vf} | {vd} |\n")
    for arch, parts in PARTS_ALSO.items():
        for name, sms, ghz in parts:
            p = PARTS[arch]
            w(f"\n{name} (sm_{arch}): the same cycles; times x {p[1] * p[2] / (sms * ghz):.3f} of {p[0]}'s.\n")


def self_test():
    """The parts that need no toolkit, on fixed inputs (ctest bench.project_selftest)."""
    assert classify("FFMA") == "fp32" and classify("DFMA") == "fp64" and classify("MUFU.RSQ") == "mufu"
    assert classify("LDG.E.64") == "mem" and classify("IMAD.WIDE") == "int" and classify("ULDC") == "uniform"
    assert classify("F2F.F64.F32") == "conv" and classify("SHFL.DOWN") == "shfl" and classify("MOV") == "other"
    sass = """
        Function : _Z1kPKfPf
        /*0000*/                   MOV R1, c[0x0][0x28] ;
        /*0010*/                   LDG.E R2, [R4.64] ;
        /*0020*/                   FADD R3, R3, R2 ;
        /*0030*/               @P0 BRA 0x10 ;
        /*0040*/                   SHFL.DOWN PT, R5, R3, 0x1, 0x1f ;
        /*0050*/                   FADD R3, R3, R5 ;
        /*0060*/                   FADD R3, R3, R5 ;
        /*0070*/               @P1 BRA 0x40 ;
        /*0080*/                   EXIT ;
        /*0090*/                   BRA 0x90;
"""
    f = parse_sass(sass)
    assert list(f) == ["_Z1kPKfPf"] and len(f["_Z1kPKfPf"]) == 10
    body, n = hot_loop(f["_Z1kPKfPf"])
    assert n == 2 and [a for a, _, _ in body] == [0x10, 0x20, 0x30], body  # the loop that loads
    c = counts(body)
    assert (c["mem"], c["fp32"], c["ctrl"], c["total"]) == (1, 1, 1, 3), c
    assert cycles(c)[1] in ("issue", "mem")
    assert demangle_name("_Z10global_sumPKfiPfS1_") == "global_sum"
    assert no_unroll("  for (i = 0; i < n; i++)\n") == "#pragma unroll 1\n  for (i = 0; i < n; i++)\n"
    assert no_unroll("#define F \\\n  for (;;)\n").count("pragma") == 0
    with open(os.path.join(ROOT, "examples", "CMakeLists.txt")) as fh:
        vs = variants(fh.read())
    assert ("global_sum", "double", "source", ["REAL_DOUBLE"]) in vs, vs
    assert ("md_nve", "acc", "converted", []) in vs
    assert ("mandelbrot", "cpff", "converted", []) in vs  # example() adds the ff twin
    assert ("matmul_kahan", "kahan", "converted", ["KAHAN"]) in vs
    assert not any("$" in e for e, _, _, _ in vs)
    print("project.py self-test: ok (%d variants)" % len(vs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--converted", help="folder of the converted sources (NAME_VARIANT.cu)")
    ap.add_argument("--arch", default="89,86,90", help="comma-separated SM versions")
    ap.add_argument("--backend", choices=["ff", "dp", "auto"], help="composite backend macro")
    ap.add_argument("--only", help="one example")
    ap.add_argument("--all-paths", action="store_true",
                    help="count the special-value fallbacks of composite operations too")
    ap.add_argument("--json", help="also write the rows as JSON")
    ap.add_argument("--keep", help="keep the cubins in this folder")
    ap.add_argument("--self-test", action="store_true", help="check the parsers and exit")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    args.arch = [a.strip() for a in args.arch.split(",") if a.strip()]
    args.backend_flags = ([f"-DCP_BACKEND={args.backend}", f"-DCP_BACKEND_{args.backend.upper()}"]
                          if args.backend else [])
    rows = measure(args)
    report(rows, sys.stdout)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
