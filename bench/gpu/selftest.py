#!/usr/bin/env python3
"""Checks the GPU batch's plumbing where there is no GPU (ctest bench.gpu_selftest):

- every example's composite variant has a forced-ff twin (NAME_cpff) in
  examples/CMakeLists.txt, and evaluate.py runs every variant CMake builds for it;
- evaluate.py --dry-run --budget S plans a run whose estimate fits S, and a larger budget
  never gets shorter MD drift runs;
- report.py, given a results.json with backend summaries (the recorded docs/gpu-raw run,
  its figures passed through evaluate.py's own summaries), writes a Backends table per
  example whose ratios are the summaries' time ratios, and the issue's targets;
- run.sh --dry-run lists exactly the parts asked for.
"""
import json, os, re, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import evaluate as ev  # noqa: E402


def check(cond, what):
    if not cond:
        sys.exit("bench/gpu/selftest.py: FAILED: " + what)


def cmake_variants():
    """{example: {variant}} built by examples/CMakeLists.txt."""
    text = re.sub(r"#.*", "", open(os.path.join(ROOT, "examples", "CMakeLists.txt")).read())
    out = {}
    for fn, args in re.findall(r"^(example|example_macro|example_composite)\(([^)]*)\)",
                               text, re.M):
        a = args.split()
        if fn == "example":
            out.setdefault(a[0], set()).update({"float", "double", "cp", "cpff"})
        else:
            out.setdefault(a[0], set()).add(a[1])
    return out


def check_variants():
    names = {"sum": "global_sum", "sum_large": "global_sum_large", "do_undo": "do_undo",
             "mandelbrot": "mandelbrot", "matmul": "matmul_kahan",
             "sum_product": "sum_product"}
    built = cmake_variants()
    for key, ex in names.items():
        ran = {v for v, _ in ev.VARIANTS[key]}
        check("cpff" in ran, "%s: evaluate.py does not run cpff" % key)
        check(ran <= built[ex], "%s: evaluate.py runs %s, not built" % (key, ran - built[ex]))
    md = {v for v, _ in ev.MD_VARIANTS}
    check(md == built["md_nve"], "md_nve: evaluate.py runs %s, CMake builds %s" %
          (sorted(md), sorted(built["md_nve"])))


def dry(budget):
    out = subprocess.run([sys.executable, os.path.join(HERE, "evaluate.py"), "--bin", "x",
                          "--out", "x", "--dry-run", "--budget", str(budget)],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"MD drift (\d+) steps.*estimated (\d+) s in all", out)
    check(m is not None, "evaluate.py --dry-run printed no plan: " + out)
    return int(m.group(1)), int(m.group(2))


def check_budget():
    small, large = dry(250), dry(330)
    check(small[1] <= 250 * 1.02, "budget 250 s planned %d s" % small[1])
    check(large[1] <= 330 * 1.02, "budget 330 s planned %d s" % large[1])
    check(small[0] < large[0], "more budget, no longer drift run: %s %s" % (small, large))


def check_report(tmp):
    prev = json.load(open(os.path.join(ROOT, "docs", "gpu-raw", "results.json")))
    for name in ev.BACKENDS:
        if name in prev:
            prev[name]["backends"] = ev.backends(name, prev[name])
    with open(os.path.join(tmp, "results.json"), "w") as f:
        json.dump(prev, f)
    subprocess.run([sys.executable, os.path.join(HERE, "report.py"), tmp, "--docs",
                    os.path.join(tmp, "docs")], check=True, capture_output=True)
    page = open(os.path.join(tmp, "docs", "results.md")).read()
    check("## Backends" in page, "no Backends section")
    for name, be in ((k, prev[k]["backends"]) for k in ev.BACKENDS if k in prev):
        sec = page.split("### %s\n" % name, 1)
        check(len(sec) == 2, "no Backends table for %s" % name)
        row = re.search(r"^\| dp \(auto on sm_90\) \|[^|]*\|[^|]*\| ([0-9.]+)x \|", sec[1], re.M)
        want = be["cp"]["time_ms"] / be["double"]["time_ms"]
        check(row and abs(float(row.group(1)) - want) < 0.006,
              "%s: dp vs double %s, summaries say %.3f" % (name, row and row.group(1), want))
        check("| %s whole run, dp |" % name in page, "no whole-run target for " + name)
    check("| MD force kernel, scope(all), dp |" in page, "no dp force-kernel target")


def check_run_plan():
    out = subprocess.run([os.path.join(HERE, "run.sh"), "--dry-run", "--parts",
                          "textbook,difftest"], capture_output=True, text=True,
                         check=True).stdout
    parts = re.findall(r"^  (\w+)\s+<=", out, re.M)
    check(parts == ["textbook", "difftest"], "run.sh --dry-run planned %s" % parts)


def main():
    check_variants()
    check_budget()
    with tempfile.TemporaryDirectory() as tmp:
        check_report(tmp)
    check_run_plan()
    print("bench/gpu/selftest.py: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
