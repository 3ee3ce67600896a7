#!/usr/bin/env python3
"""The whole loop of docs/profile.md on examples/fpu_chain, on the GPU: --profile, a run,
--explain, --use-profile, and cpconvert-tune. Skips (77) where no CUDA device is present.

In three phases (--phase, default all), so that a GPU machine without libclang can run the
middle one on a folder the first wrote where cpconvert runs:
  convert  (cpconvert, nvcc) the profiled conversions of both variants; the tuner's first
           round built (cpconvert-tune --prepare), on the on-device variant;
  gpu      (nvcc, a GPU) the float, double and profiled programs built and run, their
           numbers and profiles kept in WORK; the tuner's round run (--run-prepared);
  check    (cpconvert) the budgets read and the assertions below; --use-profile; the
           tuner's result (--report).

Asserts:
  - the profiled build of the host-round-trip variant writes cp_profile.json; its budget
    names the input sites of x and v, copied in once a step (STEPS), among what composite
    cannot remove; the variant with the boundary on the device has no such site;
  - composite's distance from double is at least 0.2 of float's with the round trip (the
    error terms are dropped each step) and at most 0.1 of it without (the gain kept);
  - --use-profile converts and builds;
  - cpconvert-tune finds an annotation whose distance from the all-composite build is at
    most 0.1 of float's, and writes result.diff without touching the source.
"""
import argparse, hashlib, json, math, os, re, shutil, subprocess, sys

STEPS = 1000


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, cwd, env=None, timeout=300):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        fail("%s exited with %d:\n%s%s" % (cmd, p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
    return p.stdout


def numbers(text):
    return [float(t) for t in re.findall(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?",
                                         text)]


def distance(x, r):
    if len(x) != len(r):
        fail("%d numbers against %d" % (len(x), len(r)))
    return math.sqrt(sum((a - b) ** 2 for a, b in zip(x, r)) / sum(b * b for b in r))


def has_gpu():
    smi = shutil.which("nvidia-smi")
    return bool(smi) and subprocess.run([smi, "-L"], capture_output=True).returncode == 0


VARIANTS = (("host", []), ("device", ["-DBOUNDARY_ON_DEVICE"]))


def tune_args(a, work):
    inc = "-I" + a.runtime_include
    build = ("%s fpu_chain.cu -o cp.cu --backend ff -q -DBOUNDARY_ON_DEVICE && "
             "%s -O3 -arch=sm_90 %s -DBOUNDARY_ON_DEVICE cp.cu -o prog" % (a.tool, a.nvcc, inc))
    fbuild = "%s -O3 -arch=sm_90 -DBOUNDARY_ON_DEVICE fpu_chain.cu -o prog" % a.nvcc
    return [sys.executable, a.tune, "--build", build, "--float-build", fbuild,
            "--run", "./prog 4096 %d" % STEPS, "--repeat", "1", "--timeout", "300",
            "--out", os.path.join(work, "tune-out"), "fpu_chain.cu"]


def phase_convert(a, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    src = os.path.join(work, "fpu_chain.cu")
    shutil.copy(a.source, src)
    for dev, macro in VARIANTS:
        run([a.tool, src, "-o", os.path.join(work, "prof_%s.cu" % dev), "--backend", "ff",
             "--profile", "-q", "--no-cache"] + macro, work)
    proj = os.path.join(work, "proj")
    os.makedirs(proj)
    shutil.copy(a.source, os.path.join(proj, "fpu_chain.cu"))
    run(tune_args(a, work) + ["--prepare", os.path.join(work, "tune")], proj, timeout=1500)


def phase_gpu(a, work):
    src = os.path.join(work, "fpu_chain.cu")
    nvcc = [a.nvcc, "-O3", "-arch=sm_90", "-I" + a.runtime_include]
    outs = {}
    for dev, macro in VARIANTS:
        for v, extra in (("float", []), ("double", ["-DREAL_DOUBLE"])):
            run(nvcc + macro + extra + [src, "-o", os.path.join(work, v)], work)
            outs[dev + "/" + v] = numbers(run([os.path.join(work, v), "4096", str(STEPS)], work))
        run(nvcc + macro + [os.path.join(work, "prof_%s.cu" % dev), "-o",
                            os.path.join(work, "prof")], work)
        env = dict(os.environ, CP_PROFILE_OUT=os.path.join(work, "prof_%s.json" % dev))
        outs[dev + "/cp"] = numbers(run([os.path.join(work, "prof"), "4096", str(STEPS)],
                                        work, env))
    with open(os.path.join(work, "runs.json"), "w") as f:
        json.dump(outs, f)
    run([sys.executable, a.tune, "--run-prepared", os.path.join(work, "tune")],
        os.path.join(work, "proj"), timeout=1500)


def phase_check(a, work):
    src = os.path.join(work, "fpu_chain.cu")
    outs = json.load(open(os.path.join(work, "runs.json")))
    dist = {}
    for dev, macro in VARIANTS:
        ref = outs[dev + "/double"]
        dist[dev] = distance(outs[dev + "/cp"], ref) / distance(outs[dev + "/float"], ref)
        budget = json.loads(run([a.tool, "--explain", os.path.join(work, "prof_%s.json" % dev),
                                 "--diagnostics-format", "json"], work))
        lost = [i for o in budget["outputs"] for i in o["lost"]]
        inputs = {(i["name"], i["count"]) for i in lost if i["kind"] == "input"}
        print("%s: composite/float distance from double %.3g; input sites %s" %
              (dev, dist[dev], sorted(inputs)))
        steady = {n for n, c in inputs if c >= STEPS}
        if dev == "host" and steady != {"x", "v"}:
            fail("the round trip's budget does not name x and v copied in each step: %s" % inputs)
        if dev == "device" and steady:
            fail("the on-device build has inputs copied in each step: %s" % steady)
        if dev == "host" and not lost:
            fail("the round trip's budget lists nothing that composite cannot remove")
    if not dist["host"] >= 0.2:
        fail("with the round trip composite is %.3g of float's distance (expected >= 0.2: the "
             "error terms are dropped each step)" % dist["host"])
    if not dist["device"] <= 0.1:
        fail("on the device composite is %.3g of float's distance (expected <= 0.1)" %
             dist["device"])
    # --use-profile converts (and what it keeps in float compiles)
    run([a.tool, src, "-o", os.path.join(work, "use.cu"), "--backend", "ff", "-q", "--no-cache",
         "-DBOUNDARY_ON_DEVICE", "--use-profile", os.path.join(work, "prof_device.json")], work)
    run([a.nvcc, "-O3", "-arch=sm_90", "-I" + a.runtime_include, "-DBOUNDARY_ON_DEVICE",
         os.path.join(work, "use.cu"), "-o", os.path.join(work, "use")], work)
    # the tuner's first round: the best so far
    proj = os.path.join(work, "proj")
    run([sys.executable, a.tune, "--report", os.path.join(work, "tune"), "--out",
         os.path.join(work, "tune-out")], proj)
    result = json.load(open(os.path.join(work, "tune-out", "result.json")))
    best = [v for v in result["variants"] if v["variant"] == result["result"]][0]
    if not (best["distance_float"] is not None and best["distance_float"] <= 0.1):
        fail("the tuner's result is %s: %s" % (result["result"], best))
    digest = hashlib.sha256(open(a.source, "rb").read()).hexdigest()
    if hashlib.sha256(open(os.path.join(proj, "fpu_chain.cu"), "rb").read()).hexdigest() != digest:
        fail("the tuner changed the source")
    print("PASS: tuned %s, %.3g of float's distance" % (result["result"], best["distance_float"]))


def main():
    ap = argparse.ArgumentParser()
    for o in ("--tool", "--tune", "--nvcc", "--runtime-include", "--source", "--work"):
        ap.add_argument(o, required=True)
    ap.add_argument("--phase", choices=("all", "convert", "gpu", "check"), default="all")
    a = ap.parse_args()
    work = os.path.abspath(a.work)
    if a.phase in ("all", "gpu") and not has_gpu():
        print("no CUDA device: skipped")
        sys.exit(77)
    if a.phase in ("all", "convert"):
        phase_convert(a, work)
    if a.phase in ("all", "gpu"):
        phase_gpu(a, work)
    if a.phase in ("all", "check"):
        phase_check(a, work)


if __name__ == "__main__":
    main()
