#!/usr/bin/env python3
"""Distance from double of a program's builds: each FILE has the numbers one per line (the
double build's first); prints, per other build, the rms and max of |x - ref| / |ref| and
the ratio of float's rms to each build's (how much closer to double than float it is); and
the floor of results stored as floats (double's own values rounded to float).

  compare.py double.txt float.txt cp.txt before.txt   (names from the file names)
"""
import math
import os
import struct
import sys


def numbers(path):
    with open(path) as fh:
        return [float(w) for w in fh.read().split()]


def main():
    ref = numbers(sys.argv[1])
    rows = []
    for path in sys.argv[2:]:
        xs = numbers(path)
        if len(xs) != len(ref):
            print("%s: %d numbers, double has %d" % (path, len(xs), len(ref)))
            return 1
        rel = [abs(x - r) / abs(r) if r else abs(x) for x, r in zip(xs, ref)]
        bad = sum(1 for x in xs if not math.isfinite(x))
        rms = math.sqrt(sum(e * e for e in rel) / len(rel)) if not bad else float("nan")
        rows.append((os.path.basename(path).rsplit(".", 1)[0], rms, max(rel), bad))
    # the floor of a program that stores its results as floats: double's values rounded
    rounded = [struct.unpack("f", struct.pack("f", r))[0] for r in ref]
    rel = [abs(x - r) / abs(r) if r else abs(x) for x, r in zip(rounded, ref)]
    rows.append(("(double as float)", math.sqrt(sum(e * e for e in rel) / len(rel)), max(rel), 0))
    base = rows[0][1]
    print("%-18s %12s %12s %10s %s" % ("build", "rms rel", "max rel", "float/this", "non-finite"))
    for name, rms, mx, bad in rows:
        print("%-18s %12.3e %12.3e %10.3g %d" % (name, rms, mx, base / rms if rms else float("inf"), bad))
    return 0


if __name__ == "__main__":
    sys.exit(main())
