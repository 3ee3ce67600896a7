#!/usr/bin/env python3
"""How cpconvert's cost grows with the file: generated files of 1k, 10k and 100k lines
(device helpers, kernels and one host function launching them all; see convert_time.py).

For each size it prints the conversion's CPU time (user + system, median of --runs runs:
wall time on a shared machine measures the other jobs as much as this one) and peak
resident memory, and the time of the same file with its annotations blanked out (parse and
analysis, nothing to rewrite). The difference is the rewriting cost. It then fits
time = c * lines^k over the sizes and prints the exponents k; a k near 1 is linear.
Parsing is against the built-in prelude (-nocudainc), so the CUDA headers' fixed cost
does not hide the growth.

  python3 bench/scale.py --tool build/tool/cpconvert [--runs 3] [--lines 1000,10000,100000]
  cmake --build build --target bench_scale
"""
import argparse, math, os, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from convert_time import generated_source  # noqa: E402


def measure(tool, path, out, runs):
    """Median CPU time (user + system) of `runs` conversions, and the largest peak RSS (MiB)."""
    times, peak = [], 0.0
    for _ in range(runs):
        p = subprocess.Popen([tool, path, "-o", out, "-nocudainc"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        times.append(usage.ru_utime + usage.ru_stime)
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("cpconvert failed on %s:\n%s" % (path, err[:2000]))
        peak = max(peak, usage.ru_maxrss / 1024.0)
    return statistics.median(times), peak


def exponent(xs, ys):
    """Least-squares slope of log(y) on log(x)."""
    lx = [math.log(x) for x in xs]
    ly = [math.log(max(y, 1e-6)) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lines", default="1000,10000,100000")
    a = ap.parse_args()
    sizes = [int(s) for s in a.lines.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        print("%8s %8s %10s %10s %10s %10s" % ("lines", "functions", "total s", "parse s",
                                               "rewrite s", "peak MiB"))
        for n in sizes:
            src, kernels = generated_source(n)
            path, plain = os.path.join(d, "scale_%d.cu" % n), os.path.join(d, "plain_%d.cu" % n)
            open(path, "w").write(src)
            open(plain, "w").write(src.replace("#pragma cp composite", "// (no annotation)"))
            total, peak = measure(a.tool, path, os.path.join(d, "out.cu"), a.runs)
            base, _ = measure(a.tool, plain, os.path.join(d, "out.cu"), a.runs)
            rows.append((n, total, base, max(total - base, 1e-6), peak))
            print("%8d %8d %10.3f %10.3f %10.3f %10.1f" % (n, 2 * kernels, total, base,
                                                          total - base, peak), flush=True)
    xs = [r[0] for r in rows]
    if len(rows) > 2:
        print("exponent between the two largest sizes: total %.2f, rewrite %.2f"
              % (exponent(xs[-2:], [r[1] for r in rows[-2:]]),
                 exponent(xs[-2:], [r[3] for r in rows[-2:]])))
    print("exponent k in time ~ lines^k: total %.2f, parse %.2f, rewrite %.2f; peak memory %.2f"
          % (exponent(xs, [r[1] for r in rows]), exponent(xs, [r[2] for r in rows]),
             exponent(xs, [r[3] for r in rows]), exponent(xs, [r[4] for r in rows])))


if __name__ == "__main__":
    main()
