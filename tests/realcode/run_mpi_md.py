#!/usr/bin/env python3
"""The domain-decomposed MPI MD program (mpi_md/md_mpi.cu), converted with pragma lines only.

  run_mpi_md.py --tool cpconvert --nvcc nvcc --mpiexec mpiexec --runtime-include DIR \
                --work DIR [--mpi-flag -I... --mpi-flag LIB ...] --mode plain|all|fixed
                [--converted-dir DIR] [--table] [--nc 6 --steps 200 --every 20 --dt 0.005]

Mode `plain` builds the program as float and as double (-DDOUBLE_PRECISION); `all` and
`fixed` convert it (cpconvert, and --accumulate fixed) and build the output. Fails on a
conversion error, any cpconvert warning, a dropped error term in the output (the checks of
run_textbook.py), any nvcc error. Then, where a CUDA device is present, it runs each build
under mpiexec with 1, 2 and 4 ranks sharing the device:
  plain  float and double run, every rank count prints N atoms throughout;
  all    at every printed step, |E_converted - E_double| <= |E_float - E_double| + 2 ulp
         of float, for E in ekin, epot, etot and every rank count;
  fixed  the printed energies are the same bits for 1, 2 and 4 ranks (64-bit fixed-point
         sums inside each rank, 64-bit integer sums across ranks).
Exit 77 (skipped) after the builds without a device; --no-run stops after the builds
(exit 0), as CI does. --converted-dir takes the converted
sources from DIR/all and DIR/fixed (a GPU machine without libclang). --table builds all
variants (float, double, all and fixed under the auto and the float-float backend), runs
them on --ranks and prints a Markdown table instead: the number of GPUs the ranks ran on
(the program counts distinct PCI bus ids; ranks take devices round robin, so with two
GPUs visible two ranks run on two), total energy at the first and last printed step, its
drift (least-squares slope over the printed steps, relative to |E(0)|, per 10^6 steps),
time per step and its ratios to float and double in the same run. Builds run --jobs at a
time; a build whose source bytes and command are those recorded beside its program
(PROGRAM.cmd) is not run again, so calls sharing --work build each program once.
"""
import argparse, concurrent.futures, hashlib, os, re, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "mpi_md", "md_mpi.cu")
sys.path.insert(0, os.path.join(HERE, "..", "semantics"))
from check_semantics import have_device  # noqa: E402
from run_textbook import dropped_error_terms  # noqa: E402

MODES = {"all": [], "fixed": ["--accumulate", "fixed"]}
STEP = re.compile(r"^step (\d+) ekin (\S+) epot (\S+) etot (\S+)$", re.M)
RANKS = (1, 2, 4)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout + p.stderr


def convert(a, mode, out):
    """Converts the program in `mode` into out/md_mpi.cu; a list of problems."""
    os.makedirs(out, exist_ok=True)
    dst = os.path.join(out, "md_mpi.cu")
    if a.converted_dir:
        shutil.copy(os.path.join(a.converted_dir, mode, "md_mpi.cu"), dst)
        return []
    incs = [f for f in a.mpi_flag if f.startswith("-I")]
    rc, text = run([a.tool, SOURCE, "-o", dst] + MODES[mode] + ["--"] + incs)
    sys.stdout.write(text)
    if rc != 0:
        return [f"cpconvert exited {rc} in mode {mode}"]
    return (["cpconvert printed warnings"] if "warning:" in text else []) + dropped_error_terms(dst)


def build(a, src, exe, flags=()):
    """Builds `exe`, unless it was built from the same source bytes with the same command
    (EXE.cmd records both), so that calls sharing --work build each program once."""
    cmd = [a.nvcc, "-O2", "-arch=sm_90", "-I" + a.runtime_include, src, "-o", exe] + \
        list(flags) + a.mpi_flag
    with open(src, "rb") as f:
        stamp = " ".join(cmd) + "\n" + hashlib.sha256(f.read()).hexdigest() + "\n"
    try:
        with open(exe + ".cmd") as f:
            if f.read() == stamp and os.path.exists(exe):
                return []
    except OSError:
        pass
    rc, text = run(cmd)
    sys.stdout.write(text)
    if rc != 0:
        return [f"nvcc could not build {os.path.basename(exe)}"]
    with open(exe + ".cmd", "w") as f:
        f.write(stamp)
    return []


def build_all(a, jobs):
    """Runs the builds (src, exe, flags) side by side; the problems of all of them."""
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        return sum(pool.map(lambda j: build(a, *j), jobs), [])


def execute(a, exe, ranks):
    """Runs `exe` on `ranks` ranks: (energies per printed step, the whole output)."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    args = [str(a.nc), str(a.steps), str(a.every), str(a.dt)]
    rc, text = run([a.mpiexec, "-np", str(ranks), "--oversubscribe", exe] + args, env=env,
                   timeout=a.timeout)
    if rc != 0:
        raise SystemExit(f"FAIL: {os.path.basename(exe)} on {ranks} ranks exits {rc}:\n{text[-800:]}")
    return [(int(s), ek, ep, et) for s, ek, ep, et in STEP.findall(text)], text


def worse_than_float(cp, fl, db, where):
    """Printed energies of the converted build farther from double's than float's are."""
    bad = []
    for (s, *c), (_, *f), (_, *d) in zip(cp, fl, db):
        for name, x, y, z in zip(("ekin", "epot", "etot"), c, f, d):
            x, y, z = float(x), float(y), float(z)
            ulp = abs(z) * 2.0 ** -23
            if abs(x - z) > abs(y - z) + 2 * ulp:
                bad.append(f"{where}step {s} {name}: converted {x!r}, float {y!r}, double {z!r}")
    return bad


def value(text, key):
    m = re.search(r"^%s (\S+)$" % key, text, re.M)
    return float(m.group(1)) if m else float("nan")


def drift_rate(steps):
    """The least-squares slope of the total energy over the printed steps, relative to
    |E(0)|, per 10^6 steps."""
    xs, ys = [s for s, *_ in steps], [float(e[-1]) for e in steps]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return slope * 1e6 / abs(ys[0])


def table(a, exes):
    """Runs every build on each rank count; prints the Markdown table."""
    print("| build | ranks | GPUs | E(0) | E(end) | drift / 10^6 steps | ms / step | / float | / double |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in a.ranks:
        runs = {name: execute(a, exe, r) for name, exe in exes}
        ms = {name: value(text, "time_per_step_ms") for name, (_, text) in runs.items()}
        for name, (steps, text) in runs.items():
            gpus = re.search(r"^atoms .* gpus (\d+)$", text, re.M)
            print(f"| {name} | {r} | {gpus.group(1) if gpus else '?'} | {steps[0][3]} | "
                  f"{steps[-1][3]} | {drift_rate(steps):+.2e} | {ms[name]:.3f} | "
                  f"{ms[name] / ms['float']:.2f} | {ms[name] / ms['double']:.2f} |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--tool", "--nvcc", "--mpiexec", "--runtime-include", "--work"):
        ap.add_argument(opt, required=opt != "--tool")
    ap.add_argument("--mpi-flag", action="append", default=[])
    ap.add_argument("--mode", choices=["plain", "all", "fixed"])
    ap.add_argument("--converted-dir")
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--no-run", action="store_true", help="convert and build only")
    ap.add_argument("--nc", type=int, default=6)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--dt", type=float, default=0.005)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1, help="builds side by side")
    ap.add_argument("--no-ff", action="store_true", help="--table: leave out the ff builds")
    ap.add_argument("--ranks", type=lambda t: [int(x) for x in t.split(",")], default=list(RANKS),
                    help="--table: the rank counts, e.g. 1,2,4")
    a = ap.parse_args()
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    w = lambda name: os.path.join(work, name)
    problems = []
    exes, jobs = [], []
    if a.table or a.mode == "plain" or a.mode == "all":
        jobs += [(SOURCE, w("md_float")), (SOURCE, w("md_double"), ["-DDOUBLE_PRECISION"])]
        exes += [("float", w("md_float")), ("double", w("md_double"))]
    for mode in (("all", "fixed") if a.table else (a.mode,) if a.mode != "plain" else ()):
        problems += convert(a, mode, w(mode))
        src = os.path.join(w(mode), "md_mpi.cu")
        jobs.append((src, w("md_" + mode)))
        exes.append(("converted" if mode == "all" else "converted, accumulate(fixed)", w("md_" + mode)))
        if a.table and not a.no_ff:
            jobs.append((src, w("md_%s_ff" % mode), ["-DCP_BACKEND=1"]))
            exes.append((exes[-1][0] + ", ff", w("md_%s_ff" % mode)))
    problems += build_all(a, jobs)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    if a.no_run:
        print("PASS: converted and built")
        return 0
    if not have_device():
        print("SKIP: no CUDA device (the builds succeed)")
        return 77
    if a.table:
        table(a, exes)
        return 0
    bad, fixed_one = [], None
    for r in RANKS:
        outs = {name: execute(a, exe, r) for name, exe in exes}
        runs = {name: steps for name, (steps, _) in outs.items()}
        gpus = sorted({m.group(1) for _, text in outs.values()
                       for m in [re.search(r"^atoms .* gpus (\d+)$", text, re.M)] if m})
        if a.mode == "all":
            bad += worse_than_float(runs["converted"], runs["float"], runs["double"], f"{r} ranks, ")
        elif a.mode == "fixed":
            got = runs["converted, accumulate(fixed)"]
            fixed_one = got if fixed_one is None else fixed_one
            if got != fixed_one:
                bad.append(f"{r} ranks print other energies than 1 rank")
        print(f"{r} ranks on {','.join(gpus) or '?'} GPU(s): " + "; ".join(f"{n}: etot {v[-1][3]}" for n, v in runs.items() if v))
    for b in bad:
        print("FAIL: " + b)
    print("PASS" if not bad else "FAIL: %d problems" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
