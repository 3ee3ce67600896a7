#!/usr/bin/env python3
"""Turns the evaluation's results.json (bench/gpu/evaluate.py) into docs/results.md and
copies its plots into docs/img/.

    bench/gpu/report.py RESULTS_DIR [--docs docs]

Every figure on the page comes from results.json; the page states the machine, the date
and the command that reproduces it. bench/gpu/analysis.md (written by hand: why a target
is missed and what would close it) is appended as it is.
"""
import argparse, glob, json, os, re, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def e(x):
    return "—" if x is None else "%.2e" % x


def ratio(a, b):
    return "—" if not a or not b else "%.2fx" % (a / b)


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---:" if i else "---"
                                                          for i in range(len(head))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def met(ok):
    return "met" if ok else "**missed**"


class Page:
    def __init__(self, r):
        self.r, self.lines, self.targets = r, [], []

    def add(self, *text):
        self.lines.extend(text)

    def target(self, what, value, goal, ok):
        self.targets.append((what, value, goal, met(ok)))


def sum_section(p, s):
    v = [k for k in s["variants"] if k in s["worst"]]
    rows = [[cell] + [e(s["cells"][cell].get(k)) for k in v] for cell in s["cells"]]
    rows.append(["**worst**"] + ["**%s**" % e(s["worst"][k]) for k in v])
    rows.append(["time, 24 cells (ms)"] + ["%.3f" % s["time_ms"][k] for k in v])
    p.add("## 1. Global summation, 1000 values (Saponaro/Taufer tables 2-5)", "",
          "1000 values of magnitude 1e6 and 1e-6 in +/- pairs (exact sum 0), six orders, "
          "1-1000 threads; each thread sums a strided slice and adds it to one total with "
          "atomicAdd. |sum| per cell (`examples/global_sum`):", "",
          table(["order/threads"] + [s["variants"][k] for k in v], rows))
    w, h = s["worst"].get("cp"), s["worst"].get("handff")
    p.target("global sum: worst abs(sum) over 24 cells, composite", e(w), "<= 2e-6",
             w is not None and w <= 2e-6)
    p.target("global sum: composite against hand-written float-float (worst cell)",
             "%s vs %s" % (e(w), e(h)), "no worse", w is not None and h is not None and
             w <= h * 1.0001)


def sum_large_section(p, s):
    v = [k for k in s["variants"]]
    rows = []
    for cell, c in s["cells"].items():
        rows.append([cell] + ["%s (%.2f ms)" % (e(c[k]["rel_err"]), c[k]["time_ms"])
                              if k in c else "—" for k in v])
    p.add("## 1b. Global summation, %d values" % s["n"], "",
          "Data sets small (1e-1, 1e0), large (1e6, 1e7) and mixed, summed by 1, 1024 and "
          "2^20 threads; relative error against a long double reference computed on the "
          "host, and kernel time (`examples/global_sum_large`):", "",
          table(["set/threads"] + [s["variants"][k] for k in v], rows))
    worst = 0
    for cell, c in s["cells"].items():
        if cell.endswith("/1048576") and "acc" in c and "float" in c:
            worst = max(worst, c["acc"]["time_ms"] / c["float"]["time_ms"])
    if worst:
        p.add("With 2^20 threads every thread ends with an atomicAdd to the one total, so "
              "those cells are bound by the atomics on one address, which composite "
              "doubles (value and error cell): `scope(accumulators)` takes up to %.2fx "
              "float's time there. The memory-bound target is measured on the block "
              "reduction of section 6." % worst, "")


def do_undo_section(p, s):
    v = [k for k in s["variants"]]
    rows = []
    worst = {}
    for key, c in s["final"].items():
        rows.append([key] + ["%s (%.1f ms)" % (e(c[k]["max"]), c[k]["time_ms"]) if k in c
                             else "—" for k in v])
        for k in c:
            worst[k] = max(worst.get(k, 0), c[k]["max"])
    rows.append(["**worst**"] + ["**%s**" % e(worst.get(k)) for k in v])
    p.add("## 2. Do/undo (thesis table 6, figure 12)", "",
          "x = (x*y)/y or (x/y)*y for %d iterations, y from three ranges; largest "
          "|x - x0|/|x0| over the trials at the end, and kernel time (`examples/do_undo`):"
          % s["iters"], "",
          table(["op y-range"] + [s["variants"][k] for k in v], rows),
          "The `--algo` columns are compiled with the default backend, `dp` on sm_90, "
          "where every composite operation is one double operation and `CP_ALGO` has no "
          "effect: they repeat the default's accuracy. The algorithms differ under `ff` "
          "(the `composite, ff` column is the default algorithm; the projection section "
          "compares their costs).", "",
          "![do/undo drift](img/do_undo.png)", "")
    p.target("do/undo: drift after %d iterations, composite" % s["iters"],
             e(worst.get("cp")), "<= 1e-9", worst.get("cp") is not None and worst["cp"] <= 1e-9)


def mandelbrot_section(p, s):
    v = [k for k in s["variants"] if k in s["rows"]]
    rows = [[s["variants"][k], e(s["rows"][k]["avg_rel_err_z100"]),
             e(s["rows"][k]["max_rel_err_z100"]), "%.1f" % s["rows"][k]["mean_iter"],
             "%.3f" % s["rows"][k]["time_ms"],
             ratio(s["rows"][k]["time_ms"], s["rows"]["float"]["time_ms"]),
             ratio(s["rows"][k]["time_ms"], s["rows"]["double"]["time_ms"])] for k in v]
    p.add("## 4. Mandelbrot deep zoom (Narumi et al.)", "",
          "Centre (-0.7677000147655, 0.09478599420880), zoom 3.2e12, %dx%d pixels, at most "
          "%d iterations; average relative error of |Z_100| against a long double "
          "reference (`examples/mandelbrot`):" % (s["width"], s["width"], s["maxit"]), "",
          table(["precision", "avg rel. error |Z_100|", "max", "mean iterations",
                 "time (ms)", "vs float", "vs double"], rows),
          "Float is no baseline here: neighbouring pixels are %.1e apart (4 / (zoom x "
          "width)) at a centre near 0.77, where floats are 6e-8 apart, so every float "
          "pixel starts at the same point and its image is flat (its error and time are "
          "shown, not compared). The fair comparison is with double." %
          (4 / (3.2e12 * s["width"])), "",
          "![Mandelbrot at zoom 3.2e12](img/mandelbrot.png)", "")


def md_section(p, m):
    names = m["variants"]
    p.add("## 3. Molecular dynamics: ions in a Lennard-Jones solvent, NVE", "",
          "`examples/md_nve`: shifted-force Lennard-Jones and shifted-force Coulomb "
          "(cutoff 2.5), 10% ions (+/-1), density 0.8, T0 = 1.0, dt = 0.002, Verlet list, "
          "velocity Verlet. Drift: slope of a straight line fitted to the total energy "
          "(after the first 10% of the run), per 10^6 steps, relative to |E|; RMS: the "
          "deviation about that line, relative to |E|. Force kernel: the time of one launch "
          "without energies (mean of 200).", "")
    for size in ("small", "large"):
        s = m.get(size, {})
        v = [k for k in names if k in s]
        if not v:
            continue
        f, d = s.get("float", {}), s.get("double", {})
        rows = [[names[k], str(s[k].get("steps", s["steps"])), "%+.2e" % s[k]["drift_per_1e6"], "%.1e" % s[k]["rms"],
                 "%.0f" % s[k]["steps_per_s"], "%.4f" % s[k]["forces_ms"],
                 ratio(s[k]["forces_ms"], f.get("forces_ms")),
                 ratio(s[k]["forces_ms"], d.get("forces_ms")),
                 str(m["registers"].get(k, {}).get("forces", "—"))] for k in v]
        p.add("### %d atoms" % s["atoms"], "",
              table(["precision", "steps", "drift / 10^6 steps", "RMS", "steps/s",
                     "force kernel (ms)", "vs float", "vs double", "registers"], rows))
    p.add("![MD energies](img/md_energy.png)", "")
    s = m.get("small", {})
    if all(k in s for k in ("float", "double", "cp")):
        df, dd, dc = (abs(s[k]["drift_per_1e6"]) for k in ("float", "double", "cp"))
        p.target("MD drift: composite within 2x of double's", "%.2e vs %.2e" % (dc, dd),
                 "<= 2x double", dc <= 2 * max(dd, s["double"]["rms"] / 10))
        p.target("MD drift: composite at least 100x below float's",
                 "%.2e vs %.2e" % (dc, df), ">= 100x", dc * 100 <= df)
        f = s["float"]["forces_ms"]
        for k, goal in (("cp", 4.0),):  # scope(accumulators) <= 1.5x: the ff one, md_targets
            if k in s:
                rr = s[k]["forces_ms"] / f
                p.target("MD force kernel, %s" % names[k], "%.2fx float" % rr,
                         "<= %.1fx float" % goal, rr <= goal)


def matmul_section(p, s):
    v = list(s["variants"])
    ks = sorted(s["rows"], key=int)
    rows = [[k] + ["%s (%.2f ms)" % (e(s["rows"][k][x]["mean"]), s["rows"][k][x]["time_ms"])
                   if x in s["rows"][k] else "—" for x in v] for k in ks]
    p.add("## 5. Matrix product with Kahan summation (Anderson et al.)", "",
          "C = A B, A %d x K, B K x %d, entries in (0, 1); mean relative error of 256 "
          "sampled elements against a long double reference, and kernel time "
          "(`examples/matmul_kahan`):" % (s["m"], s["n"]), "",
          table(["K"] + [s["variants"][x] for x in v], rows),
          "![matrix product error](img/matmul.png)", "")


def sum_product_section(p, s):
    rows = [[s["variants"][k], e(r["phi_rel_err"]), e(r["energy_rel_err"]),
             "%.4f" % r["matrix_ms"], "%.4f" % r["matvec_ms"], "%.4f" % r["energy_ms"],
             ratio(r["matvec_ms"], s["rows"]["float"]["matvec_ms"]),
             ratio(r["matvec_ms"], s["rows"]["double"]["matvec_ms"])]
            for k, r in s["rows"].items()]
    p.add("## 6. Sum-product (Sakalli)", "",
          "%d charges, the dense matrix of 1/r_ij, phi = A q (one block per row, a "
          "shared-memory reduction tree) and E = 1/2 sum q_i phi_i; relative errors against "
          "a long double reference and kernel times (`examples/sum_product`). The matrix "
          "product reads the whole matrix once: it is bound by memory." % s["n"], "",
          table(["precision", "phi (norm-wise)", "E", "matrix (ms)", "matvec (ms)",
                 "energy (ms)", "matvec vs float", "vs double"], rows))
    r = s["rows"]
    if "acc" in r and "float" in r:
        rr = r["acc"]["matvec_ms"] / r["float"]["matvec_ms"]
        p.target("memory-bound reduction (matvec), scope(accumulators) time",
                 "%.2fx float" % rr, "<= 1.05x float", rr <= 1.05)


BACKEND_ROWS = (("float", "float"), ("double", "double"), ("cp", "dp (auto on sm_90)"),
                ("cpff", "ff (--backend ff)"), ("acc", "scope(accumulators), dp"),
                ("accff", "scope(accumulators), ff"))
BACKEND_TIME = {"md": "ms per step, %d atoms", "sum": "kernel ms, 24 cells",
                "sum_large": "kernel ms, all cells", "do_undo": "kernel ms, all runs",
                "mandelbrot": "kernel ms", "matmul": "kernel ms, all K",
                "sum_product": "kernel ms, all kernels"}
BACKEND_ERR = {"md": "abs(drift) / 10^6 steps", "sum": "worst abs(sum)",
               "sum_large": "worst rel. error", "do_undo": "worst drift",
               "mandelbrot": "avg rel. error abs(Z_100)", "matmul": "mean rel. error, largest K",
               "sum_product": "rel. error of E"}


def backends_section(p, r):
    """A table per example: float, double, dp and ff side by side (evaluate.py's
    "backends"), and the whole-run targets of the dp and ff backends."""
    p.add("## Backends", "",
          "Each example's converted source compiled twice: `cp` with the runtime's auto "
          "choice (dp, native double, on sm_90) and `cpff` converted with `--backend ff` "
          "(float-float). Times and ratios against float and double of the same batch: "
          "the sum of the kernel times each program reports over all its cases (MD: the "
          "whole step loop, per step), so start-up and the host references are left out.",
          "")
    for key, be in ((k, r[k].get("backends")) for k in BACKEND_TIME if k in r):
        if not be:
            continue
        f, d = be.get("float", {}).get("time_ms"), be.get("double", {}).get("time_ms")
        unit = BACKEND_TIME[key]
        if "%d" in unit:
            unit %= r[key].get("large", {}).get("atoms", 0)
        rows = [[label, "%.4g" % be[v]["time_ms"], ratio(be[v]["time_ms"], f),
                 ratio(be[v]["time_ms"], d), e(be[v]["err"])]
                for v, label in BACKEND_ROWS if v in be]
        p.add("### %s" % key, "", table(["precision", unit, "vs float", "vs double",
                                          BACKEND_ERR[key]], rows))
        if "cp" in be and d:
            rr = be["cp"]["time_ms"] / d
            p.target("%s whole run, dp" % key, "%.2fx double" % rr, "<= 1.2x double",
                     rr <= 1.2)
    md_targets(p, r.get("md", {}))
    handff_target(p, r.get("sum_large", {}))


def md_targets(p, m):
    s = m.get("large", {})
    d, f = s.get("double", {}).get("forces_ms"), s.get("float", {}).get("forces_ms")
    if d and "cp" in s:
        rr = s["cp"]["forces_ms"] / d
        p.target("MD force kernel, scope(all), dp", "%.2fx double" % rr, "<= 1.2x double",
                 rr <= 1.2)
    if f and "accff" in s:
        rr = s["accff"]["forces_ms"] / f
        p.target("MD force kernel, scope(accumulators), ff", "%.2fx float" % rr,
                 "<= 1.5x float", rr <= 1.5)


def handff_target(p, s):
    """Converted ff against the hand-written renormalised float-float kernel, summed over
    the cells of global_sum_large."""
    t = {}
    for c in s.get("cells", {}).values():
        if all(v in c for v in ("handffn", "cpff")):
            for v in ("handffn", "cpff", "accff"):
                if v in c:
                    t[v] = t.get(v, 0.0) + c[v]["time_ms"]
    for v in ("cpff", "accff"):
        if v in t and t["handffn"]:
            rr = t[v] / t["handffn"]
            p.target("global sum 10^7, converted %s vs hand-written float-float" % v,
                     "%.2fx" % rr, "<= 1.05x", rr <= 1.05)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--docs", default=os.path.join(HERE, "..", "..", "docs"))
    a = ap.parse_args()
    with open(os.path.join(a.results, "results.json")) as f:
        r = json.load(f)
    mach = r["machine"]
    p = Page(r)
    sections = (("sum", sum_section), ("sum_large", sum_large_section),
                ("do_undo", do_undo_section), ("md", md_section),
                ("mandelbrot", mandelbrot_section), ("matmul", matmul_section),
                ("sum_product", sum_product_section))
    if any("backends" in r[k] for k in BACKEND_TIME if k in r and "error" not in r[k]):
        backends_section(p, r)
    for key, fn in sections:
        if key in r and "error" not in r[key]:
            fn(p, r[key])
        elif key in r:
            p.add("## %s" % key, "", "Not measured: %s" % r[key]["error"], "")
    head = ["# Results on the GPU", "",
            "Measured on an %s (driver %s, CUDA %s) on %s, sources at commit %s%s. Every "
            "figure in sections 1 to 8 comes from one GPU batch, on a machine with nvcc, a "
            "GPU and libclang (later sections name their own batch); a second command "
            "writes the page:" %
            (mach["gpu"], mach["driver"], mach["cuda"], mach["date"], mach.get("commit", "?"),
             " (quick sizes: not the evaluation)" if r.get("quick") else ""), "",
            "```", r.get("command") or "bench/gpu/run.sh  # builds every variant, runs the "
            "gpu tests and bench/gpu/evaluate.py", "bench/gpu/report.py gpu-out  # this page",
            "```",
            "",
            "Where the GPU machine has no libclang, `bench/gpu/prepare.sh` converts the "
            "examples first on one that has it, and `bench/gpu/run.sh .device` takes them "
            "from there. Every example is built three ways from one annotated source: as "
            "written (float), with `-DREAL_DOUBLE` (double), and converted by cpconvert at "
            "build time (composite), plus the variants named in its table. The figures "
            "themselves are kept in `docs/gpu-raw/` (`results.json`, the gpu test log); "
            "`bench/gpu/report.py docs/gpu-raw` rewrites this page from them.", "",
            "## Targets", ""]
    head.append(table(["what", "measured", "target", ""], p.targets))
    log = os.path.join(a.results, "ctest_gpu.log")
    if os.path.exists(log):  # the tests labelled gpu, run in the same batch
        with open(log) as f:
            lines = f.read().splitlines()
        tests = [l.split(":", 1)[1].split()[0] + " " + l.split()[-3]
                 for l in lines if l.strip().startswith(tuple("0123456789")) and "Test" in l]
        summary = [l for l in lines if "tests passed" in l]
        head += ["The tests labelled `gpu` ran in the same batch: %s (%s)." %
                 (summary[0].strip() if summary else "no summary",
                  ", ".join("`%s`" % t.split()[0] for t in tests)), ""]
    body = head + p.lines
    book = os.path.join(a.results, "textbook.md")
    if os.path.exists(book):  # tests/realcode/run_gpu.sh, run by run.sh --parts textbook
        with open(book) as f:
            body += ["", "## 8. The textbook MD program (tests/realcode/textbook_md)", "",
                     "Total energy every few steps and the step loop's time, float, double "
                     "and the converted builds (cp, cp_acc: the runtime's auto choice, dp on "
                     "sm_90; *_ff: the same files with the float-float backend forced), "
                     "with the command that produced it:", "", f.read()]
    proj = os.path.join(a.results, "projection.md")
    if os.path.exists(proj):  # bench/project.py, run by run.sh in the same batch
        with open(proj) as f:
            body += ["", "## 7. PROJECTION for FP64-weak GPUs (not measured)", "",
                     "Static SASS counts of each kernel's hot loop times published per-SM "
                     "rates (method: `bench/project.py`), from the batch's own toolkit: "
                     "`python3 bench/project.py`.", "",
                     f.read().replace("\n## ", "\n### ")]
    extra = os.path.join(HERE, "analysis.md")
    if os.path.exists(extra):
        with open(extra) as f:
            body += ["", f.read()]
    # Sections of other batches, kept beside the raw figures as written (section_N_*.md,
    # in N's order): the before/after runs, the dt-scaling test (bench/gpu/gain.sh).
    sections = glob.glob(os.path.join(a.results, "section_*.md"))
    for path in sorted(sections, key=lambda s: int(re.match(r"section_(\d+)", os.path.basename(s)).group(1))):
        with open(path) as f:
            body += [f.read().rstrip()]
    os.makedirs(os.path.join(a.docs, "img"), exist_ok=True)
    for png in ("md_energy.png", "do_undo.png", "mandelbrot.png", "matmul.png", "dt_scaling.png"):
        src = os.path.join(a.results, png)
        if os.path.exists(src):
            shutil.copy(src, os.path.join(a.docs, "img", png))
    with open(os.path.join(a.docs, "results.md"), "w") as f:
        f.write("\n".join(body).rstrip() + "\n")
    print("wrote %s" % os.path.join(a.docs, "results.md"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
