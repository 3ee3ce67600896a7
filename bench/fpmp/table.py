#!/usr/bin/env python3
"""The markdown tables of docs/results.md from a CSV that fpmp_bench --csv wrote.

    python3 bench/fpmp/table.py FILE.csv

One table per shape: every variant's time, its ratio to float, double and fpmp mid (all
measured in the same run), and its largest relative error; then one summary table: each
converted tier against the fpmp level of the same name.
"""
import csv
import sys


def main():
    lines = list(csv.reader(open(sys.argv[1])))
    keys = lines[0]
    # the shape's name is the first field; older files wrote the whole title, commas and all
    rows = [dict(zip(keys, [",".join(f[:len(f) - 7]).split(" (")[0]] + f[len(f) - 7:])) for f in lines[1:]]
    shapes = []
    for r in rows:
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
    for s in shapes:
        print(f"**{s}**\n")
        print("| variant | ms | x float | x double | x fpmp mid | max rel err | rms rel err |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            if r["shape"] == s:
                print(f"| {r['variant']} | {float(r['ms']):.4f} | {float(r['x_float']):.2f} | {float(r['x_double']):.2f} "
                      f"| {float(r['x_fpmp_mid']):.2f} | {float(r['max_rel_err']):.3g} | {float(r['rms_rel_err']):.3g} |")
        print()
    print("| shape | high / fpmp high | mid / fpmp mid | low / fpmp low | high / float | mid / float | strict / high |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for s in shapes:
        t = {r["variant"]: float(r["ms"]) for r in rows if r["shape"] == s}
        name = s.split(" (")[0]
        print(f"| {name} | {t['cp_ff_high'] / t['fpmp_high']:.2f} | {t['cp_ff_mid'] / t['fpmp_mid']:.2f} "
              f"| {t['cp_ff_low'] / t['fpmp_low']:.2f} | {t['cp_ff_high'] / t['float']:.2f} "
              f"| {t['cp_ff_mid'] / t['float']:.2f} | {t['cp_ff_strict'] / t['cp_ff_high']:.2f} |")


if __name__ == "__main__":
    main()
