#!/usr/bin/env python3
"""Warm conversion time of one file (default examples/global_sum), with and without the
verify pass, against the process's start-up alone.

The header cache is filled first (CPCONVERT_CACHE_SYNC=1), then each variant runs --runs
times; printed per variant: the median wall time and the median CPU time (user + system,
from wait4: on a loaded machine the wall time measures the other jobs too). "start-up" is
`cpconvert --version` (the dynamic loader and libclang's initialisation, no parse).

  python3 bench/warm_time.py --tool build/tool/cpconvert [--runs 11] [--input FILE]
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def once(cmd, env=None):
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err[:2000]))
    return wall, usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--input", default=os.path.join(ROOT, "examples/global_sum/global_sum.cu"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out.cu")
        once([a.tool, a.input, "-o", out], dict(os.environ, CPCONVERT_CACHE_SYNC="1"))
        variants = [("start-up (--version)", [a.tool, "--version"]),
                    ("warm, --no-verify", [a.tool, a.input, "-o", out, "--no-verify"]),
                    ("warm, verified", [a.tool, a.input, "-o", out])]
        print("%-22s %10s %10s" % ("run", "wall s", "CPU s"))
        for name, cmd in variants:
            runs = [once(cmd) for _ in range(a.runs)]
            print("%-22s %10.3f %10.3f" % (name, statistics.median(r[0] for r in runs),
                                           statistics.median(r[1] for r in runs)), flush=True)


if __name__ == "__main__":
    main()
