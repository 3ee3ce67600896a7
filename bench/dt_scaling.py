#!/usr/bin/env python3
"""The integrator test of MD validation: the conserved energy's fluctuation against dt.

For a symplectic integrator (velocity Verlet) the RMS fluctuation of the total energy over
a fixed stretch of simulated time scales as dt^2, as long as the arithmetic keeps up: in
float, rounding dominates below some dt and the curve flattens. This runs each build of
an MD program at 5 time steps spanning 16x (same initial state, same simulated time T,
energies sampled every tau of simulated time), and reports per build and dt the RMS
deviation of the total energy from its mean, and the log-log slope over all five dt and
between neighbouring ones.

  bench/dt_scaling.py --program NAME KIND EXE [--program ...] --out DIR
      KIND: md_nve (examples/md_nve: argv side steps every dt, CSV column total_full)
            textbook (tests/realcode/textbook_md: argv cells steps every dt, "total X")
      [--size N] [--time T] [--tau TAU] [--dt0 DT] [--timeout S]

Writes DIR/dt_scaling.json, DIR/dt_scaling.md (the tables) and DIR/dt_scaling.png (log-log
plot, one panel per program), and prints the tables. Needs a GPU; numpy; matplotlib for
the plot (skipped without it).
"""
import argparse, json, math, os, re, subprocess, sys

DTS = 5  # dt0, dt0/2, ..., dt0/16


def energies(kind, text):
    """The sampled total energies a run printed, in step order."""
    if kind == "textbook":
        return [float(v) for v in re.findall(r"^step\s+\d+\s+total (\S+)", text, re.M)]
    lines = [l for l in text.splitlines() if l and not l.startswith("#")]
    head = lines[0].split(",")
    col = head.index("total_full")
    return [float(l.split(",")[col]) for l in lines[1:] if l[0].isdigit()]


def run(exe, kind, size, dt, time, tau, timeout):
    steps, every = round(time / dt), max(1, round(tau / dt))
    p = subprocess.run([exe, str(size), str(steps), str(every), repr(dt)], capture_output=True,
                       text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (exe, p.returncode, p.stderr[-500:]))
    e = energies(kind, p.stdout)
    if len(e) < 10:
        raise RuntimeError("%s printed %d energies" % (exe, len(e)))
    mean = sum(e) / len(e)
    return {"dt": dt, "steps": steps, "samples": len(e), "mean": mean,
            "rms": math.sqrt(sum((x - mean) ** 2 for x in e) / len(e))}


def slope(points):
    """Least-squares slope of log(rms) against log(dt)."""
    xs = [math.log(p["dt"]) for p in points]
    ys = [math.log(p["rms"]) if p["rms"] > 0 else float("nan") for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def table(program, rows):
    dts = [p["dt"] for p in next(iter(rows.values()))["points"]]
    out = ["#### %s" % program, "",
           "| build | " + " | ".join("dt %g" % d for d in dts) + " | slope (all 5) | local slopes |",
           "|---|" + "---:|" * (len(dts) + 2)]
    for build, r in rows.items():
        local = [slope(r["points"][k:k + 2]) for k in range(len(dts) - 1)]
        out.append("| %s | " % build + " | ".join("%.3e" % p["rms"] for p in r["points"]) +
                   " | %.2f | %s |" % (r["slope"], " ".join("%.1f" % s for s in local)))
    return "\n".join(out) + "\n"


def plot(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return False
    fig, axes = plt.subplots(1, len(results), figsize=(6 * len(results), 4.5), squeeze=False)
    for ax, (program, rows) in zip(axes[0], results.items()):
        for build, r in rows.items():
            ax.loglog([p["dt"] for p in r["points"]], [p["rms"] for p in r["points"]], "o-",
                      label="%s (slope %.2f)" % (build, r["slope"]))
        ref = next(iter(rows.values()))["points"]
        d0, y0 = ref[0]["dt"], rows.get("double", next(iter(rows.values())))["points"][0]["rms"]
        ax.loglog([p["dt"] for p in ref], [y0 * (p["dt"] / d0) ** 2 for p in ref], "k:",
                  label="dt^2")
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("dt (reduced units)")
        ax.set_ylabel("RMS fluctuation of the total energy")
        ax.set_title(program)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--program", nargs=3, action="append", metavar=("NAME", "KIND", "EXE"),
                    required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", type=int, help="side (md_nve, default 10) or cells (textbook, 6)")
    ap.add_argument("--time", type=float, default=4.0, help="simulated time per run")
    ap.add_argument("--tau", type=float, default=0.02, help="simulated time between samples")
    ap.add_argument("--dt0", type=float, default=0.004, help="the largest dt")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    dts = [a.dt0 / 2 ** k for k in range(DTS)]
    results = {}
    for name, kind, exe in a.program:
        program = "md_nve" if kind == "md_nve" else "textbook"
        size = a.size or (10 if kind == "md_nve" else 6)
        try:
            points = [run(exe, kind, size, dt, a.time, a.tau, a.timeout) for dt in dts]
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            print("%s %s: %s" % (program, name, e), file=sys.stderr)
            continue
        results.setdefault(program, {})[name] = {"points": points, "slope": slope(points),
                                                 "size": size}
    os.makedirs(a.out, exist_ok=True)
    text = "".join(table(p, rows) + "\n" for p, rows in results.items())
    text += ("RMS deviation of the total energy from its mean over %g time units, sampled "
             "every %g; slope: least squares of log RMS against log dt.\n" % (a.time, a.tau))
    open(os.path.join(a.out, "dt_scaling.md"), "w").write(text)
    json.dump({"time": a.time, "tau": a.tau, "dts": dts, "results": results},
              open(os.path.join(a.out, "dt_scaling.json"), "w"), indent=1)
    plot(results, os.path.join(a.out, "dt_scaling.png"))
    print(text)
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
