#!/usr/bin/env python3
"""How long cpconvert takes per file: a generated 2000-line CUDA file and the examples.

Prints, per file and per header set-up (installed CUDA headers, built-in prelude), the
median wall time of several runs without the header cache (--no-cache) and the peak
resident memory of one run. Then the precompiled-header cache: per file, the median wall
and CPU (user + system) time with no cache, with an empty cache (cold: the run builds the
PCH) and with a filled one (warm), on examples/md_nve and on the seven-file
tests/multi/md_code converted in one --o-dir run. Cold is what the user waits for: the
cpconvert process itself. A single input then converts with a plain parse and leaves the
PCH to a detached background builder, whose CPU time is the "builder" row (the benchmark
adopts it as a subreaper and waits for it before the warm run). The goal is 0.15 s per
file warm, and cold no slower than --no-cache.

  python3 bench/convert_time.py --tool build/tool/cpconvert [--runs 7]
"""
import argparse, ctypes, glob, os, statistics, subprocess, sys, tempfile, time

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h: orphaned descendants are reparented to us


def generated_source(lines):
    """Annotated CUDA of the kind MD codes have: device helpers, kernels, host launches,
    so that the time covers parsing, analysis and conversion of every function."""
    out = ["#include <cstdio>", ""]
    k = 0
    kernel_lines, host_lines = 21, 9
    while len(out) + kernel_lines + host_lines + k + 1 <= lines:
        out += [
            "#pragma cp composite",
            "__device__ float lj_%d(float r2, float eps, float sigma) {" % k,
            "  float s2 = sigma * sigma / r2;",
            "  float s6 = s2 * s2 * s2;",
            "  return 4.0f * eps * (s6 * s6 - s6);",
            "}",
            "",
            "#pragma cp composite",
            "__global__ void energy_%d(const float4 *pos, float *e, int n, float cut2) {" % k,
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
            "  if (i >= n) return;",
            "  float sum = 0.0f;",
            "  for (int j = 0; j < n; j++) {",
            "    float dx = pos[j].x - pos[i].x, dy = pos[j].y - pos[i].y;",
            "    float dz = pos[j].z - pos[i].z;",
            "    float r2 = dx * dx + dy * dy + dz * dz;",
            "    if (j != i && r2 < cut2) sum += lj_%d(r2, 0.2f, 3.4f);" % k,
            "  }",
            "  e[i] = 0.5f * sum;",
            "}",
            "",
        ]
        k += 1
    out += ["int main() {", "  float4 *pos; float *e; int n = 1024;",
            "  cudaMalloc(&pos, n * sizeof(float4));", "  cudaMalloc(&e, n * sizeof(float));"]
    out += ["  energy_%d<<<(n + 127) / 128, 128>>>(pos, e, n, 100.0f);" % i for i in range(k)]
    out += ["  cudaDeviceSynchronize();", "  cudaFree(pos); cudaFree(e);", "  return 0;", "}"]
    out += ["// padding"] * (lines - len(out))
    return "\n".join(out) + "\n", k


def time_one(tool, path, extra, runs, outdir):
    out = os.path.join(outdir, "out.cu")
    cmd = [tool, path, "-o", out, "--no-cache"] + extra
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True)
        times.append(time.perf_counter() - t)
        if p.returncode not in (0, 1):
            sys.exit("cpconvert failed on %s: %s" % (path, p.stderr.decode()))
    # peak resident memory of one more run: that child's own rusage
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    result = "converted" if code == 0 else "refused (exit %d)" % code
    return statistics.median(times), usage.ru_maxrss / 1024.0, result


def timed(cmd, cwd, env):
    """One run: wall seconds and the child's CPU seconds (user + system)."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("cpconvert failed: %s\n%s" % (" ".join(cmd), p.stderr.read().decode()))
    p.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime


def reap_builders():
    """CPU seconds of the background PCH builders a run left (reparented to us as the
    subreaper), after waiting for them to finish."""
    cpu = 0.0
    while True:
        try:
            _, _, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return cpu
        cpu += usage.ru_utime + usage.ru_stime


def time_cache(tool, inputs, cwd, extra, runs, d):
    """Median (wall, cpu) per file of: --no-cache, cold (a fresh cache dir each run),
    warm (the cache the cold runs filled)."""
    odir = os.path.join(d, "cache-out")
    cmd = [tool] + inputs + ["--o-dir", odir] + extra
    rows = {"no cache": [], "cold": [], "builder": [], "warm": [], "warm, no verify": []}
    for i in range(runs):
        cache = tempfile.mkdtemp(dir=d)  # empty: this run builds the PCH
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        env.pop("CPCONVERT_CACHE_SYNC", None)
        rows["no cache"].append(timed(cmd + ["--no-cache"], cwd, env))
        rows["cold"].append(timed(cmd, cwd, env))
        rows["builder"].append((0.0, reap_builders()))  # its wall time is nobody's wait
        rows["warm"].append(timed(cmd, cwd, env))
        rows["warm, no verify"].append(timed(cmd + ["--no-verify"], cwd, env))
    n = len(inputs)
    return [(k, statistics.median(w for w, _ in v) / n, statistics.median(c for _, c in v) / n)
            for k, v in rows.items()]


def cache_table(tool, root, runs, d):
    md = os.path.join(root, "examples", "md_nve")
    multi = os.path.join(root, "tests", "multi", "md_code")
    sets = [("examples/md_nve", md, ["md_nve.cu"], []),
            ("tests/multi/md_code (%d files)" % len(glob.glob(os.path.join(multi, "*.cu"))),
             multi, sorted(os.path.basename(f) for f in glob.glob(os.path.join(multi, "*.cu"))),
             [])]
    print()
    print("%-34s %-15s %12s %12s" % ("precompiled-header cache", "run", "wall s/file", "cpu s/file"))
    for label, cwd, inputs, extra in sets:
        rows = time_cache(tool, inputs, cwd, extra, runs, d)
        for kind, wall, cpu in rows:
            shown = "background" if kind == "builder" else "%.3f" % wall
            print("%-34s %-15s %12s %12.3f" % (label, kind, shown, cpu))
        warm = {kind: wall for kind, wall, _ in rows}
        print("%-34s verify costs %+.0f%% of a warm conversion (target <= 30%%)" % (
            label, 100.0 * (warm["warm"] / warm["warm, no verify"] - 1.0)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--examples", default=os.path.join(os.path.dirname(__file__), "..", "examples"))
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--only-cache", action="store_true", help="print only the cache table")
    a = ap.parse_args()
    root = os.path.abspath(os.path.join(a.examples, ".."))
    a.tool = os.path.abspath(a.tool)
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("prctl(PR_SET_CHILD_SUBREAPER) failed: the builder's time cannot be measured")
    with tempfile.TemporaryDirectory() as d:
        src, kernels = generated_source(2000)
        big = os.path.join(d, "generated_2000.cu")
        open(big, "w").write(src)
        if a.only_cache:
            return cache_table(a.tool, root, a.runs, d)
        files = [(big, "generated, %d lines, %d kernels" % (src.count("\n"), kernels))]
        for f in sorted(glob.glob(os.path.join(a.examples, "*", "*.cu"))):
            files.append((f, os.path.relpath(f, os.path.dirname(a.examples))))
        print("%-46s %-10s %10s %10s  %s" % ("file", "headers", "median s", "peak MiB", "result"))
        for path, label in files:
            for mode, extra in (("cuda", []), ("prelude", ["-nocudainc"])):
                t, mem, status = time_one(a.tool, path, extra, a.runs, d)
                print("%-46s %-10s %10.3f %10.1f  %s" % (label, mode, t, mem, status))
        cache_table(a.tool, root, a.runs, d)


if __name__ == "__main__":
    main()
