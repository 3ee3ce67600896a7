#!/usr/bin/env python3
"""Runs the examples in every precision on the GPU and writes what they measured.

    bench/gpu/evaluate.py --bin BUILD/examples --out DIR [--quick] [--only md,sum,...]

BUILD/examples holds the executables the examples' CMake builds, NAME_VARIANT (float,
double, cp, and the extra variants each example defines). Writes DIR/results.json (every
figure, with the GPU, driver, CUDA version and date), DIR/raw/*.csv (each program's output)
and DIR/*.png (plots); bench/gpu/report.py turns results.json into docs/results.md.
--quick runs every experiment at a small size, to check the chain end to end.
"""
import argparse, datetime, json, os, re, subprocess, sys, time

import numpy as np

OUT = None
RAW = None


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True,
                              timeout=60).stdout.strip()
    except Exception as e:  # noqa: BLE001 - a missing tool leaves the field empty
        return "unavailable (%s)" % e


def machine():
    return {
        "gpu": sh("nvidia-smi --query-gpu=name --format=csv,noheader | head -1"),
        "driver": sh("nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1"),
        "cuda": sh("nvcc --version | sed -n 's/.*release \\([0-9.]*\\).*/\\1/p'"),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": os.environ.get("CPCONVERT_COMMIT") or sh("git rev-parse --short HEAD"),
    }


class Run:
    """One program's output: the CSV rows, and the '# key value' comments."""

    def __init__(self, name, text, seconds):
        self.name, self.seconds = name, seconds
        self.comments, self.header, self.rows = {}, None, []
        for line in text.splitlines():
            if line.startswith("#"):
                parts = line[1:].split()
                if len(parts) >= 2:
                    self.comments.setdefault(parts[0], " ".join(parts[1:]))
            elif line.strip():
                cells = line.strip().split(",")
                if self.header is None:
                    self.header = cells
                else:
                    self.rows.append(cells)

    def column(self, key, kind=float):
        k = self.header.index(key)
        return np.array([kind(r[k]) for r in self.rows])

    def value(self, key, default=None):
        v = self.comments.get(key)
        if v is None:
            return default
        try:
            return float(v.split()[0])
        except ValueError:
            return v


def run(bindir, exe, args, tag, timeout):
    """Runs BINDIR/EXE ARGS, keeps its output in raw/TAG.csv, returns a Run (or None)."""
    path = os.path.join(bindir, exe)
    if not os.path.exists(path):
        print("  missing %s" % exe, flush=True)
        return None
    t0 = time.time()
    try:
        p = subprocess.run([path] + [str(a) for a in args], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        print("  %s: timed out after %d s" % (tag, timeout), flush=True)
        return None
    dt = time.time() - t0
    with open(os.path.join(RAW, tag + ".csv"), "w") as f:
        f.write(p.stdout)
        if p.stderr:
            f.write("".join("# stderr: " + l + "\n" for l in p.stderr.splitlines()))
    print("  %-28s exit %d, %.1f s" % (tag, p.returncode, dt), flush=True)
    if p.returncode != 0:
        return None
    return Run(tag, p.stdout, dt)


def registers(bindir, exe):
    """Registers per thread of each kernel, from cuobjdump's resource report."""
    text = sh("cuobjdump -res-usage %s 2>/dev/null" % os.path.join(bindir, exe))
    regs, fn = {}, None
    for line in text.splitlines():
        if "Function" in line:
            fn = line.split("Function")[-1].strip(" :")
            m = re.match(r"_Z(\d+)", fn)  # the plain name of a mangled one
            if m:
                fn = fn[m.end():m.end() + int(m.group(1))]
        elif "REG:" in line and fn:
            regs[fn] = int(line.split("REG:")[1].split()[0])
    return regs


def pyplot():
    """matplotlib without a display."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(plt, fig, name, dpi):
    fig.tight_layout()
    fig.savefig(os.path.join(OUT, name), dpi=dpi)
    plt.close(fig)


def drift(step, energy):
    """Slope of the total energy per 10^6 steps relative to |E|, and the RMS deviation
    about that line relative to |E|; the first 10% of the run (the lattice melting) is
    left out."""
    skip = len(step) // 10
    e = np.asarray(energy[skip:], dtype=np.float64)
    s = np.asarray(step[skip:], dtype=np.float64)
    slope, icpt = np.polyfit(s, e, 1)
    scale = abs(e.mean())
    rms = float(np.sqrt(np.mean((e - (slope * s + icpt)) ** 2)) / scale)
    return float(slope * 1e6 / scale), rms


# ---------------------------------------------------------------------------------------
# Molecular dynamics

MD_VARIANTS = [
    ("float", "float"),
    ("double", "double"),
    ("cp", "composite, scope(all)"),
    ("acc", "composite, scope(accumulators)"),
    ("fixed", "scope(accumulators) accumulate(fixed)"),
    ("dacc", "scope(accumulators) accumulate(double)"),
]


def md(bindir, quick):
    side_s, steps_s = (10, 20000) if quick else (10, 1000000)
    side_l, steps_l = (22, 2000) if quick else (22, 20000)
    res = {"variants": dict(MD_VARIANTS), "small": {}, "large": {}, "registers": {}}
    for size, side, steps, variants in (
            ("small", side_s, steps_s, [v for v, _ in MD_VARIANTS]),
            ("large", side_l, steps_l, [v for v, _ in MD_VARIANTS])):
        every = max(steps // 1000, 1)
        res[size]["atoms"] = side ** 3
        res[size]["steps"] = steps
        for v in variants:
            r = run(bindir, "md_nve_" + v, [side, steps, every], "md_%s_%s" % (size, v),
                    timeout=420)
            if r is None:
                continue
            step, total = r.column("step"), r.column("total")
            d, rms = drift(step, total)
            res[size][v] = {
                "drift_per_1e6": d, "rms": rms,
                "steps_per_s": r.value("steps_per_s"),
                "forces_ms": r.value("forces_ms"),
                "e0": float(total[0]), "e_end": float(total[-1]),
                "step": step.tolist(), "total": total.tolist(),
                "vdw": r.column("vdw").tolist(), "coulomb": r.column("coulomb").tolist(),
                "total_err": r.column("total_err").tolist(),
            }
    for v, _ in MD_VARIANTS:
        res["registers"][v] = registers(bindir, "md_nve_" + v)
    md_plot(res)
    return res


def md_plot(res):
    plt = pyplot()
    small = res["small"]
    fig, axes = plt.subplots(4, 1, figsize=(8, 12.5), sharex=True)
    for v, label in (("cp", "composite"), ("double", "double")):
        if v in small:
            axes[3].plot(small[v]["step"], small[v]["total_err"], label=label, lw=0.6)
    axes[3].set_title("error term of the total energy: total - RN_float(total)")
    axes[3].set_ylabel("energy (reduced units)")
    axes[3].legend()
    for key, ax, title in (("total", axes[0], "total energy"),
                           ("vdw", axes[1], "van der Waals (Lennard-Jones) energy"),
                           ("coulomb", axes[2], "electrostatic energy")):
        for v, label in (("float", "float"), ("cp", "composite"), ("double", "double")):
            if v not in small:
                continue
            s = np.array(small[v]["step"])
            e = np.array(small[v][key])
            ax.plot(s, (e - e[0]) / abs(small[v]["e0"]), label=label, lw=0.8)
        ax.set_title(title)
        ax.set_ylabel("(E - E(0)) / |E_total(0)|")
        ax.legend()
    axes[-1].set_xlabel("step")
    fig.suptitle("NVE MD, %d atoms, dt 0.002" % small["atoms"])
    save(plt, fig, "md_energy.png", 110)


# ---------------------------------------------------------------------------------------
# Global summation: 24 cells (6 orders x 4 thread counts), and 10^7 values

SUM_VARIANTS = [("float", "float"), ("double", "double"), ("cp", "composite"),
                ("handff", "hand-written float-float")]


def global_sum(bindir, quick):
    res = {"variants": dict(SUM_VARIANTS), "cells": {}, "worst": {}, "time_ms": {}}
    for v, _ in SUM_VARIANTS:
        r = run(bindir, "global_sum_" + v, [1000], "global_sum_" + v, timeout=60)
        if r is None:
            continue
        order, threads = r.column("order", str), r.column("threads", int)
        err, ms = r.column("abs_sum"), r.column("time_ms")
        for o, t, e in zip(order, threads, err):
            res["cells"].setdefault("%s/%d" % (o, t), {})[v] = float(e)
        res["worst"][v] = float(err.max())
        res["time_ms"][v] = float(ms.sum())
    return res


SUML_VARIANTS = SUM_VARIANTS + [("acc", "composite, scope(accumulators)"),
                                 ("handffn", "hand-written float-float, renormalised")]


def global_sum_large(bindir, quick):
    n = 100000 if quick else 10000000
    res = {"variants": dict(SUML_VARIANTS), "n": n, "cells": {}}
    for v, _ in SUML_VARIANTS:
        r = run(bindir, "global_sum_large_" + v, [n], "global_sum_large_" + v, timeout=120)
        if r is None:
            continue
        for row in zip(r.column("set", str), r.column("threads", int),
                       r.column("rel_err"), r.column("time_ms")):
            cell = res["cells"].setdefault("%s/%d" % row[:2], {})
            cell[v] = {"rel_err": float(row[2]), "time_ms": float(row[3])}
    return res


# ---------------------------------------------------------------------------------------
# Do/undo

DU_VARIANTS = [("float", "float"), ("double", "double"), ("cp", "composite (accurate)"),
               ("paper", "composite, --algo paper")]


def do_undo(bindir, quick):
    args = [100000, 1000, 1024] if quick else [1000000, 10000, 4096]
    res = {"variants": dict(DU_VARIANTS), "iters": args[0], "final": {}, "curves": {}}
    for v, _ in DU_VARIANTS:
        r = run(bindir, "do_undo_" + v, args, "do_undo_" + v, timeout=120)
        if r is None:
            continue
        op, rng, it = r.column("op", str), r.column("y_range", str), r.column("iter", int)
        mean, mx, ms = r.column("mean_drift"), r.column("max_drift"), r.column("time_ms")
        for key in sorted(set(zip(op, rng))):
            sel = [(o, g) == key for o, g in zip(op, rng)]
            k = "%s %s" % key
            last = np.flatnonzero(sel)[-1]
            res["final"].setdefault(k, {})[v] = {"mean": float(mean[last]),
                                                 "max": float(mx[last]),
                                                 "time_ms": float(ms[last])}
            res["curves"].setdefault(k, {})[v] = [it[sel].tolist(), mean[sel].tolist()]
    du_plot(res)
    return res


def du_plot(res):
    plt = pyplot()
    keys = sorted(res["curves"])
    fig, axes = plt.subplots(2, (len(keys) + 1) // 2, figsize=(13, 7), squeeze=False)
    for ax, k in zip(axes.flat, keys):
        for v, label in DU_VARIANTS:
            if v in res["curves"][k]:
                it, d = res["curves"][k][v]
                ax.plot(it, np.maximum(d, 1e-20), label=label, lw=0.9)
        ax.set_yscale("log")
        ax.set_title(k, fontsize=9)
        ax.set_xlabel("iteration")
        ax.set_ylabel("mean |x - x0| / |x0|")
    axes.flat[0].legend(fontsize=8)
    save(plt, fig, "do_undo.png", 100)


# ---------------------------------------------------------------------------------------
# Mandelbrot deep zoom

MB_VARIANTS = [("float", "float"), ("double", "double"), ("cp", "composite (accurate)"),
               ("fast", "composite, --algo fast")]


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    w, h, maxval = int(fields[1]), int(fields[2]), int(fields[3])
    pos += 1
    if fields[0] == b"P5":
        dt = np.uint8 if maxval < 256 else np.dtype(">u2")
        return np.frombuffer(data[pos:], dtype=dt, count=w * h).reshape(h, w)
    return np.array(data[pos:].split(), dtype=np.int64)[:w * h].reshape(h, w)


def mandelbrot(bindir, quick):
    width, maxit = (256, 2000) if quick else (1024, 10000)
    res = {"variants": dict(MB_VARIANTS), "width": width, "maxit": maxit, "rows": {}}
    images = {}
    for v, _ in MB_VARIANTS:
        pgm = os.path.join(RAW, "mandelbrot_%s.pgm" % v)
        r = run(bindir, "mandelbrot_" + v, [pgm, width, maxit], "mandelbrot_" + v,
                timeout=120)
        if r is None:
            continue
        res["rows"][v] = {k: float(r.column(k)[0]) for k in
                          ("mean_iter", "inside", "samples", "avg_rel_err_z100",
                           "max_rel_err_z100", "time_ms")}
        if os.path.exists(pgm):
            images[v] = read_pgm(pgm)
    if images:
        plt = pyplot()
        fig, axes = plt.subplots(1, len(images), figsize=(4 * len(images), 4.3))
        for ax, (v, img) in zip(np.atleast_1d(axes), images.items()):
            ax.imshow(img, cmap="magma")
            ax.set_title(dict(MB_VARIANTS)[v], fontsize=9)
            ax.axis("off")
        save(plt, fig, "mandelbrot.png", 90)
    return res


# ---------------------------------------------------------------------------------------
# Matrix product with growing inner dimension; sum-product

MK_VARIANTS = [("float", "float"), ("kahan", "Kahan (accumulate(kahan))"),
               ("cp", "composite"), ("double", "double")]


def matmul(bindir, quick):
    args = [64, 64, 16384] if quick else [256, 256, 65536]
    res = {"variants": dict(MK_VARIANTS), "m": args[0], "n": args[1], "rows": {}}
    for v, _ in MK_VARIANTS:
        r = run(bindir, "matmul_kahan_" + v, args, "matmul_kahan_" + v, timeout=180)
        if r is None:
            continue
        for k, mean, mx, ms in zip(r.column("K", int), r.column("mean_rel_err"),
                                   r.column("max_rel_err"), r.column("time_ms")):
            res["rows"].setdefault(str(k), {})[v] = {"mean": float(mean), "max": float(mx),
                                                     "time_ms": float(ms)}
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ks = sorted(res["rows"], key=int)
    for v, label in MK_VARIANTS:
        pts = [(int(k), res["rows"][k][v]["mean"]) for k in ks if v in res["rows"][k]]
        if pts:
            ax.loglog([p[0] for p in pts], [max(p[1], 1e-20) for p in pts], "o-", label=label)
    ax.set_xlabel("inner dimension K")
    ax.set_ylabel("mean relative error of C")
    ax.legend()
    save(plt, fig, "matmul.png", 100)
    return res


SP_VARIANTS = [("float", "float"), ("acc", "composite, scope(accumulators)"),
               ("cp", "composite, scope(all)"), ("double", "double")]


def sum_product(bindir, quick):
    n = 2048 if quick else 8192
    res = {"variants": dict(SP_VARIANTS), "n": n, "rows": {}}
    for v, _ in SP_VARIANTS:
        r = run(bindir, "sum_product_" + v, [n], "sum_product_" + v, timeout=120)
        if r is None:
            continue
        res["rows"][v] = {k: float(r.column(k)[0]) for k in
                          ("phi_rel_err", "energy", "energy_ref", "energy_rel_err",
                           "matrix_ms", "matvec_ms", "energy_ms")}
    return res


EXPERIMENTS = {"sum": global_sum, "sum_large": global_sum_large, "do_undo": do_undo,
               "mandelbrot": mandelbrot, "matmul": matmul, "sum_product": sum_product,
               "md": md}


def main():
    global OUT, RAW
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default=",".join(EXPERIMENTS))
    a = ap.parse_args()
    OUT, RAW = a.out, os.path.join(a.out, "raw")
    os.makedirs(RAW, exist_ok=True)
    results = {"machine": machine(), "quick": a.quick}
    print(results["machine"], flush=True)
    for name in a.only.split(","):
        print("== %s" % name, flush=True)
        t0 = time.time()
        try:
            results[name] = EXPERIMENTS[name](a.bin, a.quick)
        except Exception as e:  # noqa: BLE001 - one experiment failing keeps the others
            import traceback
            traceback.print_exc()
            results[name] = {"error": repr(e)}
        print("== %s done in %.0f s" % (name, time.time() - t0), flush=True)
        with open(os.path.join(OUT, "results.json"), "w") as f:
            json.dump(results, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
