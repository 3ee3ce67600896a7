#!/usr/bin/env python3
"""Time and peak memory of one --o-dir run over many small files, against their number.

Generates N files, each one annotated kernel and the host function that launches it (no
file reaches another: the case of a large code's thousand files), converts them in one
`cpconvert --o-dir` run with the installed CUDA headers and a warm header cache (a first
run of 2 files fills it), and prints per N: the wall time, the CPU time (user + system
of cpconvert and its children), the peak resident memory, that memory per file, and what each file added to it since the
previous N (the growth: the fixed part, libclang and the PCH, is about 100 MiB); with
--jobs N (cpconvert's -j N, default 1) the peak is that of the largest process, and "sum
MiB" the largest sum of the proportional resident memory (PSS: shared pages counted once)
of cpconvert and its workers, sampled every 0.1 s. With
--linked every file also launches the previous file's kernel, so that all of them form
one group that converts jointly (driver/split.c): the cost without the split.

  python3 bench/many_files.py --tool build/tool/cpconvert [--files 50,100,200] [--linked]
                              [--jobs N]
"""
import argparse, os, resource, subprocess, sys, tempfile, threading, time

KERNEL = """#include <cstdio>
{extern}
#pragma cp composite
__global__ void sum{i}(const float *x, int n, float *total) {{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = t; k < n; k += gridDim.x * blockDim.x)
    s += x[k];
  atomicAdd(total, s);
}}

void launch{i}(const float *x, int n, float *total) {{
  sum{i}<<<64, 256>>>(x, n, total);{call}
}}
"""


def generate(d, n, linked):
    paths = []
    for i in range(n):
        prev = linked and i > 0
        text = KERNEL.format(
            i=i,
            extern="__global__ void sum%d(const float *x, int n, float *total);" % (i - 1)
            if prev else "",
            call="\n  sum%d<<<64, 256>>>(x, n, total);" % (i - 1) if prev else "")
        p = os.path.join(d, "k%05d.cu" % i)
        with open(p, "w") as f:
            f.write(text)
        paths.append(p)
    return paths


def tree_rss(pid):
    """Proportional resident KiB (PSS) of `pid` and its children (the workers of -j)."""
    total, pids = 0, [pid]
    try:  # the workers are children of the thread that converts
        for t in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, t)) as f:
                pids += [int(c) for c in f.read().split()]
    except OSError:
        pass
    for q in pids:  # proportional: libclang's pages, which they share, counted once
        try:
            with open("/proc/%d/smaps_rollup" % q) as f:
                total += next((int(l.split()[1]) for l in f if l.startswith("Pss:")), 0)
        except OSError:
            pass
    return total


def run(tool, paths, out, jobs):
    """Wall s, CPU s and peak RSS (MiB) of one run (wait4 of the child: the largest of
    cpconvert and its workers), and the largest sum of their PSS, sampled."""
    start = time.monotonic()
    p = subprocess.Popen([tool, "--o-dir", out, "-j", str(jobs)] + paths,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_sum, done = [0], threading.Event()

    def sample():
        while not done.wait(0.1):
            peak_sum[0] = max(peak_sum[0], tree_rss(p.pid))
    t = threading.Thread(target=sample)
    t.start()
    _, status, usage = os.wait4(p.pid, 0)
    done.set()
    t.join()
    wall = time.monotonic() - start
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("cpconvert failed:\n" + err[:2000])
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, peak_sum[0] / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--files", default="50,100,200")
    ap.add_argument("--linked", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        warm = os.path.join(d, "warm")
        os.mkdir(warm)
        env_sync = dict(os.environ, CPCONVERT_CACHE_SYNC="1")
        subprocess.run([a.tool, "--o-dir", os.path.join(d, "warm-out")] + generate(warm, 2, False),
                       check=True, env=env_sync, stderr=subprocess.DEVNULL)
        print("%7s %8s %8s %9s %11s %13s %8s" % ("files", "wall s", "CPU s", "peak MiB",
                                                 "MiB per file", "KiB per added", "sum MiB"))
        last = None
        for n in [int(s) for s in a.files.split(",")]:
            src = os.path.join(d, "src%d" % n)
            os.mkdir(src)
            wall, cpu, peak, peak_sum = run(a.tool, generate(src, n, a.linked),
                                            os.path.join(d, "out%d" % n), a.jobs)
            added = "%13.1f" % (1024 * (peak - last[1]) / (n - last[0])) if last else "%13s" % "-"
            print("%7d %8.2f %8.2f %9.1f %11.3f %s %8.1f" % (n, wall, cpu, peak, peak / n, added,
                                                            peak_sum), flush=True)
            last = (n, peak)


if __name__ == "__main__":
    main()
