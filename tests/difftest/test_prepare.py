#!/usr/bin/env python3
"""The two-phase difftest (run.py --prepare / --from) without a GPU.

  test_prepare.py CPCONVERT NVCC WORK [--no FEATURE ...]

Prepares 5 seeds and checks the manifest and the seed folders; runs --from with a stand-in
nvcc whose "programs" print fixed numbers, once with the composite equal to the double
reference (must pass, and write the summary) and once worse than float (must fail the
accuracy check), so the manifest really drives the build/run/compare path; finally runs
--from with the real nvcc, which must exit 77 (skip) where there is no CUDA device (or
pass where there is one). Exits 0 when all of that holds.
"""
import json
import os
import shutil
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED, COUNT = 5000, 5
# The plumbing is checked on these five programs as the generator drew them before its
# real-code features (drawn last, so leaving them out gives the same programs): they
# include a strict one, which the accuracy check below needs.
REAL_CODE = ["ref_param", "struct_by_value", "mixed_compound", "type_macro", "arch_branch",
             "fixed_shuffle", "template_kernel", "library_reduce"]
# what each stand-in program prints: float off by 1e-3 relative, the reference, and a
# composite result that is exact (good) or twice as far off as float (bad)
VALUES = {"float": "1.001", "ref": "1", "good": "1", "bad": "0.998"}


def run(*args):
    p = subprocess.run([sys.executable, os.path.join(HERE, "run.py")] + list(args),
                       capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def fail(msg, text=""):
    print("FAIL: " + msg + ("\n" + text if text else ""))
    sys.exit(1)


def check_manifest(prep):
    with open(os.path.join(prep, "manifest.json")) as fh:
        manifest = json.load(fh)
    seeds = manifest["seeds"]
    if (manifest["seed"], manifest["count"]) != (SEED, COUNT) or \
            sorted(map(int, seeds)) != list(range(SEED, SEED + COUNT)):
        fail("manifest seeds: %s" % sorted(seeds))
    for seed, entry in seeds.items():
        folder = os.path.join(prep, seed)
        for name in ("dt_%s.cu", "dt_%s.ref.cu"):
            if not os.path.getsize(os.path.join(folder, name % seed)):
                fail("seed %s: %s missing or empty" % (seed, name % seed))
        converted = os.path.exists(os.path.join(folder, "dt_%s.cp.cu" % seed))
        if entry["class"] == "converted" and not converted:
            fail("seed %s: converted but no dt_%s.cp.cu" % (seed, seed))
        if entry["class"] == "refused" and (converted or not entry["reason"]):
            fail("seed %s: refused with an output or without a reason" % seed)
        if entry["class"] not in ("converted", "refused"):
            fail("seed %s: %s: %s" % (seed, entry["class"], entry["reason"]))
    return seeds


def fake_nvcc(work, composite):
    """An "nvcc" whose output program (named by -o) prints that build's fixed value, as
    many times as the seed's program prints values (the manifest's per-value categories;
    run.py builds in DIR/SEED)."""
    path = os.path.join(work, "nvcc_" + composite)
    values = {"float": VALUES["float"], "ref": VALUES["ref"], "cp": VALUES[composite]}
    with open(path, "w") as fh:
        fh.write("#!%s\nimport json, os, sys\n"
                 "out = sys.argv[sys.argv.index('-o') + 1]\n"
                 "v, n = %r.get(out), 0\n"
                 "if v:  # not the device probe\n"
                 "    with open('../manifest.json') as fh:\n"
                 "        entry = json.load(fh)['seeds'][os.path.basename(os.getcwd())]\n"
                 "    n = sum(count for count, _ in entry['values'])\n"
                 "with open(out, 'w') as fh:\n"
                 "    fh.write('#!/bin/sh\\nfor i in $(seq %%d); do echo %%s; done\\n' %% (n, v))\n"
                 "os.chmod(out, 0o755)\n" % (sys.executable, values))
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def main():
    tool, nvcc, work = sys.argv[1:4]
    no = sys.argv[4:] + [a for f in REAL_CODE for a in ("--no", f)]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prep = os.path.join(work, "prep")
    rc, text = run("--tool", tool, "--nvcc", nvcc, "--prepare", prep, "--seed", str(SEED),
                   "--count", str(COUNT), "-j", "2", *no)
    if rc != 0 or "prepared %d seeds" % COUNT not in text.splitlines()[-1]:
        fail("--prepare exited %d" % rc, text)
    seeds = check_manifest(prep)
    converted = sum(e["class"] == "converted" for e in seeds.values())
    if not any(e["class"] == "converted" and e["strict"] for e in seeds.values()):
        fail("no strict converted seed: the accuracy check below would test nothing")
    summary = os.path.join(work, "summary.txt")
    rc, text = run("--from", prep, "--gpu", "--nvcc", fake_nvcc(work, "good"),
                   "--summary", summary, "-j", "2")
    if rc != 0 or "  converted        %d" % converted not in text:
        fail("--from with an exact composite exited %d" % rc, text)
    for path in (summary, os.path.join(prep, "summary.txt")):
        with open(path) as fh:
            if fh.read() not in text:
                fail("%s is not the printed report" % path)
    rc, text = run("--from", prep, "--gpu", "--nvcc", fake_nvcc(work, "bad"), "-j", "2")
    if rc != 1 or "gpu-accuracy" not in text:
        fail("--from with a worse composite exited %d" % rc, text)
    rc, text = run("--from", prep, "--gpu", "--nvcc", nvcc)
    if rc not in (0, 77):
        fail("--from with nvcc exited %d" % rc, text)
    print(text, end="")
    return 0  # the CPU checks passed; a skip here would hide them


if __name__ == "__main__":
    sys.exit(main())
