#!/usr/bin/env python3
"""PROJECTION of the suite on FP64-weak GPUs, from static SASS instruction counts.

The suite runs on an H100 here (bench/fpmp/README.md). For the parts where `auto` gives
float-float, none of which is at hand, this script does not measure: it compiles every
variant of every shape for sm_89 (L40S, RTX 4090), sm_120 (RTX 5090, RTX PRO 6000
Blackwell) and sm_103 (B300), disassembles them, counts the instructions of each kernel's
hot loop by class and projects cycles per loop iteration with bench/project.py's model
(loops kept rolled with `#pragma unroll 1`, so one pass is one source iteration in every
variant; per-SM rates of the CUDA C++ Programming Guide's throughput table: FP32 128, FP64
2 on sm_89/sm_120 (1:64), 4 on sm_103 (1:32, NVIDIA's figure for B300 quoted in CCCL's
fpmp documentation), integer 64, MUFU 16, conversions 16; memory, latency and occupancy not
modelled). The float-float variants and fpmp share the FP32 pipe, so their ratio is what
the H100 measures too; what changes on these parts is double, whose FP64 instructions run at
1/64 (1/32) of the FP32 rate.

    python3 bench/fpmp/project.py OUT [--arch 89,120,103] [--cccl DIR]

OUT holds the converted shapes (bench/fpmp/run.sh convert OUT) and, unless --cccl names
CCCL's include folder, OUT/cccl from run.sh build. Every figure it prints is a PROJECTION.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import project as model  # noqa: E402  bench/project.py: SASS parsing, hot loop, cycles

# arch -> (parts it stands for, FP64 rate per SM per clock)
ARCHES = {"89": ("L40S, RTX 4090 (1:64)", 2), "120": ("RTX 5090, RTX PRO 6000 (1:64)", 2),
          "103": ("B300 (1:32)", 4)}
TIERS = [("cp_ff_high", []), ("cp_ff_mid", ["-DCP_ALGO=CP_ALGO_MID"]),
         ("cp_ff_low", ["-DCP_ALGO=CP_ALGO_FAST"])]
ANCHORS = [("float", "IfE"), ("double", "IdE"), ("fpmp_low", "fpmp2_accuracyE1"),
           ("fpmp_mid", "fpmp2_accuracyE2"), ("fpmp_high", "fpmp2_accuracyE3")]


def tool(name):
    found = shutil.which(name) or shutil.which(os.path.join(os.path.dirname(shutil.which("nvcc") or ""), name))
    if not found:
        sys.exit(f"project.py: {name} not found (PATH, or the PyPI wheel nvidia-cuda-{name})")
    return found


def sass(nvcc, cuobjdump, src, arch, flags, tmp, tag):
    cubin = os.path.join(tmp, f"{tag}.sm{arch}.cubin")
    subprocess.run([nvcc, "-cubin", f"-arch=sm_{arch}", "-std=c++17", "-O3", "-o", cubin, src] + flags,
                   check=True)
    return model.parse_sass(subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True,
                                           check=True).stdout)


def cyc(insns, fp64_rate):
    loop, _ = model.hot_loop(insns)
    c = model.counts(loop)
    saved = model.RATES["fp64"]
    model.RATES["fp64"] = fp64_rate
    try:
        return model.cycles(c)[0], c
    finally:
        model.RATES["fp64"] = saved


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--arch", default="89,120,103")
    ap.add_argument("--cccl")
    a = ap.parse_args()
    cccl = a.cccl or os.path.join(a.out, "cccl", "cuda", "cccl", "headers", "include")
    if not os.path.exists(os.path.join(cccl, "cuda", "fpmp")):
        sys.exit(f"project.py: no <cuda/fpmp> under {cccl} (run bench/fpmp/run.sh build first)")
    nvcc, cuobjdump = tool("nvcc"), tool("cuobjdump")
    tmp = tempfile.mkdtemp(prefix="fpmp-project-")
    try:
        os.makedirs(os.path.join(tmp, "shapes"))
        for f in ["common.cuh", "main.cu"] + [os.path.relpath(p, HERE) for p in glob.glob(os.path.join(HERE, "shapes", "*"))]:
            with open(os.path.join(HERE, f)) as fh, open(os.path.join(tmp, f), "w") as oh:
                oh.write(model.no_unroll(fh.read()))
        shapes = sorted(os.path.basename(p)[:-6] for p in glob.glob(os.path.join(a.out, "*_cp.cu")))
        for p in glob.glob(os.path.join(a.out, "*_cp.cu")):
            with open(p) as fh, open(os.path.join(tmp, os.path.basename(p)), "w") as oh:
                oh.write(model.no_unroll(fh.read()))
        inc = ["-I", os.path.join(ROOT, "runtime", "include"), "-I", tmp]
        print("PROJECTION from static SASS counts (bench/fpmp/project.py; model in its docstring):")
        print("cycles per SM per hot-loop iteration of one thread; last columns: cp_ff_mid over fpmp_mid, double over float\n")
        for arch in a.arch.split(","):
            parts, rate = ARCHES[arch]
            anchors = sass(nvcc, cuobjdump, os.path.join(tmp, "main.cu"), arch, inc + ["-I", cccl], tmp, "main")
            conv = {t: {} for t, _ in TIERS}
            for s in shapes:
                for t, d in TIERS:
                    conv[t].update(sass(nvcc, cuobjdump, os.path.join(tmp, s + "_cp.cu"), arch, inc + d, tmp, f"{s}{t}"))
            print(f"== sm_{arch}: {parts}")
            print(f"{'shape':10s} " + " ".join(f"{n:>11s}" for n, _ in ANCHORS + TIERS) + "   ff mid / fpmp mid")
            for s in shapes:
                row = {}
                for n, key in ANCHORS:
                    ks = [k for k in anchors if re.match(rf"_Z\d+a_{s}I", k) and key in k]
                    if ks:
                        row[n] = cyc(anchors[ks[0]], rate)[0]
                for t, _ in TIERS:
                    ks = [k for k in conv[t] if re.match(rf"_Z\d+k_{s}P", k)]
                    if ks:
                        row[t] = cyc(conv[t][ks[0]], rate)[0]
                cells = " ".join(f"{row[n]:11.3f}" if n in row else f"{'-':>11s}" for n, _ in ANCHORS + TIERS)
                ratio = row.get("cp_ff_mid", 0) / row["fpmp_mid"] if row.get("fpmp_mid") else float("nan")
                dbl = row.get("double", 0) / row["float"] if row.get("float") else float("nan")
                print(f"{s:10s} {cells}   {ratio:5.2f}  (double/float {dbl:5.1f})")
            print()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
