#!/usr/bin/env python3
"""Runs the examples in every precision on the GPU and writes what they measured.

    bench/gpu/evaluate.py --bin BUILD/examples --out DIR [--quick | --budget SECONDS]
                          [--only md,sum,...] [--dry-run]

BUILD/examples holds the executables the examples' CMake builds, NAME_VARIANT (float,
double, cp, and the extra variants each example defines). Writes DIR/results.json (every
figure, with the GPU, driver, CUDA version and date), DIR/raw/*.csv (each program's output)
and DIR/*.png (plots); bench/gpu/report.py turns results.json into docs/results.md.
--quick runs every experiment at a small size, to check the chain end to end; --budget
shortens the MD drift runs (float, double, cp, cpff) so that the whole evaluation should
fit in SECONDS, estimated from an earlier run's figures (--prev); --dry-run prints that
plan. Each experiment's elapsed seconds are in the log and in results.json.
"""
import argparse, datetime, json, os, re, subprocess, sys, time

try:
    import numpy as np
except ImportError:  # --dry-run needs none; a real run stops at main()
    np = None

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
    ("cpff", "composite, scope(all), ff"),
    ("acc", "composite, scope(accumulators)"),
    ("accff", "composite, scope(accumulators), ff"),
    ("fixed", "scope(accumulators) accumulate(fixed)"),
    ("dacc", "scope(accumulators) accumulate(double)"),
    ("low", "composite, scope(all), ff, accuracy low"),
    ("mid", "composite, scope(all), ff, accuracy mid"),
    ("high", "composite, scope(all), ff, accuracy high"),
]


# The energy drift needs a long run; it is measured for these, the other variants run
# MD_TIMING_STEPS steps of the small system for their speed only.
MD_DRIFT = ("float", "double", "cp", "cpff")
MD_TIMING_STEPS = 50000


def md_plan(quick, drift_steps):
    """[(size, side, steps, variants)]: the runs md() makes."""
    if quick:
        return [("small", 10, 20000, [v for v, _ in MD_VARIANTS]),
                ("large", 22, 2000, [v for v, _ in MD_VARIANTS])]
    timing = [v for v, _ in MD_VARIANTS if v not in MD_DRIFT]
    plan = [("small", 10, drift_steps, list(MD_DRIFT))]
    if drift_steps > MD_TIMING_STEPS:
        plan.append(("small", 10, MD_TIMING_STEPS, timing))
    else:
        plan[0][3].extend(timing)
    return plan + [("large", 22, 20000, [v for v, _ in MD_VARIANTS])]


def md(bindir, quick, drift_steps=1000000):
    res = {"variants": dict(MD_VARIANTS), "small": {}, "large": {}, "registers": {}}
    for size, side, steps, variants in md_plan(quick, drift_steps):
        every = max(steps // 1000, 1)
        res[size]["atoms"] = side ** 3
        res[size].setdefault("steps", steps)
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
                "e0": float(total[0]), "e_end": float(total[-1]), "steps": steps,
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
    for v, label in (("cp", "composite (scope(all), dp)"), ("double", "double")):
        if v in small:
            axes[3].plot(small[v]["step"], small[v]["total_err"], label=label, lw=0.6)
    axes[3].set_title("error term of the total energy: total - RN_float(total)")
    axes[3].set_ylabel("energy (reduced units)")
    axes[3].legend()
    for key, ax, title in (("total", axes[0], "total energy"),
                           ("vdw", axes[1], "van der Waals (Lennard-Jones) energy"),
                           ("coulomb", axes[2], "electrostatic energy")):
        for v, label in (("float", "float"), ("cp", "composite (scope(all), dp)"),
                         ("double", "double")):
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
                ("cpff", "composite, ff"), ("handff", "hand-written float-float")]


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
                                 ("accff", "composite, scope(accumulators), ff"),
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
               ("cpff", "composite, ff"), ("paper", "composite, --algo paper")]


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
               ("cpff", "composite, ff"), ("fast", "composite, --algo fast")]


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
               ("cp", "composite"), ("cpff", "composite, ff"), ("double", "double")]


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
               ("cp", "composite, scope(all)"), ("cpff", "composite, scope(all), ff"),
               ("double", "double")]


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


# ---------------------------------------------------------------------------------------
# Backends: one time and one error per variant and example, so every example's run compares
# dp (cp: auto, dp on sm_90) and ff (cpff) against float and double of the same batch.

def _sum_be(s):
    return {v: (s["time_ms"][v], s["worst"][v]) for v in s["time_ms"]}


def _sum_large_be(s):
    out = {}
    for c in s["cells"].values():
        for v, x in c.items():
            t, e = out.get(v, (0.0, 0.0))
            out[v] = (t + x["time_ms"], max(e, x["rel_err"]))
    return out


def _do_undo_be(s):
    out = {}
    for c in s["final"].values():
        for v, x in c.items():
            t, e = out.get(v, (0.0, 0.0))
            out[v] = (t + x["time_ms"], max(e, x["max"]))
    return out


def _matmul_be(s):
    out, last = {}, max(s["rows"], key=int) if s["rows"] else None
    for k, c in s["rows"].items():
        for v, x in c.items():
            t, _ = out.get(v, (0.0, 0.0))
            out[v] = (t + x["time_ms"], s["rows"][last][v]["mean"] if v in s["rows"][last]
                      else None)
    return out


def _md_be(m):
    """Whole run: ms per step of the large system; error: drift of the small one."""
    out = {}
    for v, x in m.get("large", {}).items():
        if isinstance(x, dict) and x.get("steps_per_s"):
            d = m.get("small", {}).get(v, {}).get("drift_per_1e6")
            out[v] = (1e3 / x["steps_per_s"], None if d is None else abs(d))
    return out


BACKENDS = {
    "sum": _sum_be, "sum_large": _sum_large_be, "do_undo": _do_undo_be,
    "mandelbrot": lambda s: {v: (x["time_ms"], x["avg_rel_err_z100"])
                             for v, x in s["rows"].items()},
    "matmul": _matmul_be,
    "sum_product": lambda s: {v: (x["matrix_ms"] + x["matvec_ms"] + x["energy_ms"],
                                  x["energy_rel_err"]) for v, x in s["rows"].items()},
    "md": _md_be,
}


def backends(name, res):
    """{variant: {time_ms, err}} for the report, and the ratios in the log."""
    be = {v: {"time_ms": t, "err": e} for v, (t, e) in BACKENDS[name](res).items()}
    f, d = be.get("float", {}).get("time_ms"), be.get("double", {}).get("time_ms")
    for v in ("cp", "cpff", "acc", "accff"):
        if v in be and f and d:
            print("  %-10s %-6s %.3f ms  %.2fx float  %.2fx double" %
                  (name, v, be[v]["time_ms"], be[v]["time_ms"] / f, be[v]["time_ms"] / d),
                  flush=True)
    return be


EXPERIMENTS = {"sum": global_sum, "sum_large": global_sum_large, "do_undo": do_undo,
               "mandelbrot": mandelbrot, "matmul": matmul, "sum_product": sum_product,
               "md": md}


VARIANTS = {"sum": SUM_VARIANTS, "sum_large": SUML_VARIANTS, "do_undo": DU_VARIANTS,
            "mandelbrot": MB_VARIANTS, "matmul": MK_VARIANTS, "sum_product": SP_VARIANTS}
START_S = 1.5   # per program: CUDA context, inputs, the host reference (a guess)
KERNEL_REPEAT = 3  # kernel time as printed to the program's time (a guess)


def _sps(prev, size, v):
    s = prev.get("md", {}).get(size, {})
    x = s.get(v) or s.get(v.replace("ff", "")) or s.get("cp") or {}
    return x.get("steps_per_s") or 5000.0


def estimate(name, prev, quick, drift_steps):
    """Seconds the experiment should take, from the previous run's figures (PREV, a
    results.json); an estimate only, printed by --dry-run and used by --budget."""
    if name == "md":
        return sum(steps / _sps(prev, size, v) + START_S
                   for size, _, steps, vs in md_plan(quick, drift_steps) for v in vs)
    be = BACKENDS[name](prev[name]) if name in prev and "error" not in prev[name] else {}
    total = 0.0
    for v, _ in VARIANTS[name]:
        t = (be.get(v) or be.get(v.replace("ff", "")) or be.get("cp") or (1000.0, 0))[0]
        total += START_S + KERNEL_REPEAT * t / 1e3 * (0.05 if quick else 1)
    return total


def drift_steps_for(budget, prev, names):
    """The longest MD drift run (a multiple of 10^4, 10^5 to 10^6 steps) that keeps the
    estimated total within BUDGET seconds."""
    per_step = sum(1.0 / _sps(prev, "small", v) for v in MD_DRIFT)
    d0 = 10 * MD_TIMING_STEPS  # any size above the timing runs': the rest is fixed
    fixed = sum(estimate(n, prev, False, d0) for n in names) - d0 * per_step
    steps = int((budget - fixed) / per_step) // 10000 * 10000 if "md" in names else 10 ** 6
    return max(100000, min(10 ** 6, steps))


def main():
    global OUT, RAW
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true", help="small sizes: checks the chain")
    ap.add_argument("--budget", type=float, metavar="SECONDS",
                    help="size the MD drift runs so that the estimated total fits")
    ap.add_argument("--prev", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                   "docs", "gpu-raw", "results.json"),
                    help="results.json of an earlier run, for the estimates")
    ap.add_argument("--dry-run", action="store_true", help="print the plan and estimates")
    ap.add_argument("--only", default=",".join(EXPERIMENTS))
    a = ap.parse_args()
    names = a.only.split(",")
    prev = json.load(open(a.prev)) if os.path.exists(a.prev) else {}
    drift = drift_steps_for(a.budget, prev, names) if a.budget else 10 ** 6
    est = {n: estimate(n, prev, a.quick, drift) for n in names}
    print("plan: %s; MD drift %d steps (%s); estimated %.0f s in all" %
          (", ".join("%s ~%.0f s" % kv for kv in est.items()), drift,
           ",".join(MD_DRIFT), sum(est.values())), flush=True)
    if a.dry_run:
        return 0
    if np is None:
        sys.exit("evaluate.py: numpy is needed (python3 -m pip install numpy matplotlib)")
    OUT, RAW = a.out, os.path.join(a.out, "raw")
    os.makedirs(RAW, exist_ok=True)
    results = {"machine": machine(), "quick": a.quick, "md_drift_steps": drift,
               "command": os.environ.get("CPCONVERT_GPU_COMMAND")}
    print(results["machine"], flush=True)
    for name in names:
        print("== %s (estimated %.0f s)" % (name, est[name]), flush=True)
        t0 = time.time()
        try:
            fn = EXPERIMENTS[name]
            results[name] = fn(a.bin, a.quick, drift) if name == "md" else fn(a.bin, a.quick)
            results[name]["backends"] = backends(name, results[name])
        except Exception as e:  # noqa: BLE001 - one experiment failing keeps the others
            import traceback
            traceback.print_exc()
            results[name] = {"error": repr(e)}
        results.setdefault("elapsed_s", {})[name] = round(time.time() - t0, 1)
        print("== %s done in %.0f s" % (name, time.time() - t0), flush=True)
        with open(os.path.join(OUT, "results.json"), "w") as f:
            json.dump(results, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
