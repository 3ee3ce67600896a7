#!/usr/bin/env python3
"""The two-phase difftest (run.py --prepare / --from) without a GPU.

  test_prepare.py CPCONVERT NVCC WORK [--no FEATURE ...]

Prepares 5 seeds and checks the manifest and the seed folders (exactly the files of each
layout: one file, or multi_tu's three and the converted ones in cp/); runs --from with a
stand-in nvcc whose "programs" print fixed numbers (and which checks that each build is
given exactly the files of its layout), once with the composite equal to the double
reference (must pass, and write the summary) and once worse than float (must fail the
accuracy check), so the manifest really drives the build/run/compare path; then, on one
multi_tu seed, checks that --prepare finds a converted file missing or a stray one in cp/
(class output-files), a link that fails (class nvcc, reason "link: ..."), and a header
prototype left as it was (class nvcc); finally runs --from with the real nvcc, which must
exit 77 (skip) where there is no CUDA device (or pass where there is one). Exits 0 when
all of that holds.
"""
import json
import os
import shutil
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

SEED, COUNT = 5000, 5
# The plumbing is checked on these five programs as the generator drew them before its
# real-code features (drawn last, so leaving them out gives the same programs): they
# include a strict one, which the accuracy check below needs, and both layouts: 5003 in
# one file, the others multi_tu (drawn from a stream of its own, so it is not left out).
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


def layout(seed, multi):
    """The files of a seed's folder after --prepare, converted (optional ones apart), and
    the sources of each build (float, cp, ref), as run.py must give them to nvcc."""
    if not multi:
        src = {t: ["dt_%s%s.cu" % (seed, x)] for t, x in (("float", ""), ("cp", ".cp"),
                                                         ("ref", ".ref"))}
        return {"dt_%s.cu" % seed, "dt_%s.ref.cu" % seed}, set(src["cp"]), set(), src
    inputs = {"dt_%s.cu" % seed, "dt_%s_k.cu" % seed, "dt_%s.h" % seed}
    ref = {"dt_%s.ref.cu" % seed, "dt_%s_k.ref.cu" % seed, "dt_%s.ref.h" % seed}
    src = {"float": ["dt_%s.cu" % seed, "dt_%s_k.cu" % seed],
           "cp": ["cp/dt_%s.cu" % seed, "cp/dt_%s_k.cu" % seed],
           "ref": ["dt_%s.ref.cu" % seed, "dt_%s_k.ref.cu" % seed]}
    return inputs | ref, set(src["cp"]), {"cp/dt_%s.h" % seed}, src


def folder_files(folder):
    found = set()
    for root, _, names in os.walk(folder):
        for n in names:
            found.add(os.path.relpath(os.path.join(root, n), folder))
    return found


def check_manifest(prep, no):
    with open(os.path.join(prep, "manifest.json")) as fh:
        manifest = json.load(fh)
    seeds = manifest["seeds"]
    if (manifest["seed"], manifest["count"]) != (SEED, COUNT) or \
            sorted(map(int, seeds)) != list(range(SEED, SEED + COUNT)):
        fail("manifest seeds: %s" % sorted(seeds))
    for seed, entry in seeds.items():
        folder = os.path.join(prep, seed)
        multi = entry.get("multi_tu")
        if multi != gen.Program(int(seed), set(no)).multi:
            fail("seed %s: multi_tu %s in the manifest, not the generator's" % (seed, multi))
        program, converted, optional, _ = layout(seed, multi)
        found = folder_files(folder)
        for name in sorted(program):
            if name not in found or not os.path.getsize(os.path.join(folder, name)):
                fail("seed %s: %s missing or empty" % (seed, name))
        if entry["class"] == "converted" and not converted <= found:
            fail("seed %s: converted but no %s" % (seed, " ".join(sorted(converted - found))))
        if entry["class"] == "refused" and (found - program or not entry["reason"]):
            fail("seed %s: refused with an output or without a reason" % seed)
        extra = found - program - converted - optional
        if extra:
            fail("seed %s: unexpected files %s" % (seed, " ".join(sorted(extra))))
        if entry["class"] not in ("converted", "refused"):
            fail("seed %s: %s: %s" % (seed, entry["class"], entry["reason"]))
    return seeds


def fake_nvcc(work, composite):
    """An "nvcc" whose output program (named by -o) prints that build's fixed value, as
    many times as the seed's program prints values (the manifest's per-value categories;
    run.py builds in DIR/SEED); it fails, as nvcc would, a build not given exactly the
    sources of the seed's layout (or one of them missing)."""
    path = os.path.join(work, "nvcc_" + composite)
    values = {"float": VALUES["float"], "ref": VALUES["ref"], "cp": VALUES[composite]}
    exes = {"float": "float", "ref": "ref", "cp": "cp", "prog_float": "float",
            "prog_ref": "ref", "prog_cp": "cp"}
    with open(path, "w") as fh:
        fh.write("#!%s\nimport json, os, sys\n"
                 "sys.path.insert(0, %r)\n"
                 "from test_prepare import layout\n"
                 "out = sys.argv[sys.argv.index('-o') + 1]\n"
                 "tag, n = %r.get(out), 0\n"
                 "v = %r.get(tag)\n"
                 "if v:  # not the device probe\n"
                 "    seed = os.path.basename(os.getcwd())\n"
                 "    with open('../manifest.json') as fh:\n"
                 "        entry = json.load(fh)['seeds'][seed]\n"
                 "    n = sum(count for count, _ in entry['values'])\n"
                 "    multi = entry.get('multi_tu', False)\n"
                 "    want = layout(seed, multi)[3][tag]\n"
                 "    if out != (('prog_' + tag) if multi else tag):\n"
                 "        sys.exit('error: %%s built as %%s' %% (tag, out))\n"
                 "    srcs = [a for a in sys.argv[1:] if a.endswith('.cu')]\n"
                 "    if srcs != want or not all(map(os.path.exists, srcs)):\n"
                 "        sys.exit('error: %%s built from %%s, not %%s' %% (tag, srcs, want))\n"
                 "with open(out, 'w') as fh:\n"
                 "    fh.write('#!/bin/sh\\nfor i in $(seq %%d); do echo %%s; done\\n' %% (n, v))\n"
                 "os.chmod(out, 0o755)\n" % (sys.executable, HERE, exes, values))
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def script(work, name, body):
    path = os.path.join(work, name)
    with open(path, "w") as fh:
        fh.write("#!%s\nimport os, subprocess, sys\n%s" % (sys.executable, body))
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def check_multi_failures(work, tool, nvcc, seeds, no):
    """On one converted multi_tu seed whose header cpconvert rewrites: --prepare must
    find a converted file missing or a stray one in cp/, a link that fails, and the
    header's prototypes left as they were."""
    prep = os.path.join(work, "prep")
    multi = [s for s, e in sorted(seeds.items()) if e.get("multi_tu") and
             e["class"] == "converted" and os.path.exists(os.path.join(prep, s, "cp",
                                                                        "dt_%s.h" % s))]
    if not multi:
        fail("no converted multi_tu seed with a rewritten header among %s" % sorted(seeds))
    seed = multi[0]
    # a cpconvert that runs the real one, then spoils its --o-dir output (MODE: argv[1])
    spoil = script(work, "spoil", "mode = os.environ['SPOIL']\n"
                   "rc = subprocess.call([%r] + sys.argv[1:])\n"
                   "cp = sys.argv[sys.argv.index('--o-dir') + 1]\n"
                   "names = sorted(os.listdir(cp))\n"
                   "if mode == 'missing':\n"
                   "    os.remove(os.path.join(cp, [n for n in names if '_k' in n][0]))\n"
                   "elif mode == 'extra':\n"
                   "    open(os.path.join(cp, 'stray.cu'), 'w').write('int x;\\n')\n"
                   "elif mode == 'header':  # the prototypes as they were\n"
                   "    os.remove(os.path.join(cp, [n for n in names if n.endswith('.h')][0]))\n"
                   "sys.exit(rc)\n" % os.path.abspath(tool))
    # an nvcc whose compiles succeed (an empty object) and whose link fails
    linkfail = script(work, "nvcc_linkfail", "out = sys.argv[sys.argv.index('-o') + 1]\n"
                      "if '-c' in sys.argv:\n"
                      "    open(out, 'w').close()\n"
                      "    sys.exit(0)\n"
                      "print(\"/usr/bin/ld: dt_0.o: in function `main':\")\n"
                      "print(\"tmpxft_0001(.text+0x2c1): undefined reference to "
                      "`launch_map1(float const*, float*, int)'\")\n"
                      "print('collect2: error: ld returned 1 exit status')\n"
                      "sys.exit(1)\n")
    cases = [("missing", nvcc, "output-files: no converted dt_S_k.cu in cp/"),
             ("extra", nvcc, "output-files: an unexpected file stray.cu in cp/"),
             ("none", linkfail, "nvcc: link: undefined reference to 'X'"),
             ("header", nvcc, "nvcc: ")]
    for mode, compiler, want in cases:
        os.environ["SPOIL"] = mode
        rc, text = run("--tool", spoil, "--nvcc", compiler, "--seed", seed, "--count", "1",
                       "--work", os.path.join(work, "spoil_" + mode), *no)
        if rc != 1 or "seed %s: %s" % (seed, want) not in text:
            fail("--prepare with cpconvert's output spoiled (%s) or a failing link: exit %d, "
                 "not the bug %r" % (mode, rc, want), text)


def main():
    tool, nvcc, work = sys.argv[1:4]
    work = os.path.abspath(work)  # the stand-ins run in the seeds' folders
    no = sys.argv[4:] + [a for f in REAL_CODE for a in ("--no", f)]
    disabled = [a for a in no if a != "--no"]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prep = os.path.join(work, "prep")
    rc, text = run("--tool", tool, "--nvcc", nvcc, "--prepare", prep, "--seed", str(SEED),
                   "--count", str(COUNT), "-j", "2", *no)
    if rc != 0 or "prepared %d seeds" % COUNT not in text.splitlines()[-1]:
        fail("--prepare exited %d" % rc, text)
    seeds = check_manifest(prep, disabled)
    converted = sum(e["class"] == "converted" for e in seeds.values())
    if not any(e["class"] == "converted" and e["strict"] for e in seeds.values()):
        fail("no strict converted seed: the accuracy check below would test nothing")
    for multi in (False, True):
        if not any(e["class"] == "converted" and e["multi_tu"] == multi
                   for e in seeds.values()):
            fail("no converted %s seed: its build path is not tested" % (
                "multi_tu" if multi else "single-file"))
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
    check_multi_failures(work, tool, nvcc, seeds, no)
    rc, text = run("--from", prep, "--gpu", "--nvcc", nvcc)
    if rc not in (0, 77):
        fail("--from with nvcc exited %d" % rc, text)
    print(text, end="")
    return 0  # the CPU checks passed; a skip here would hide them


if __name__ == "__main__":
    sys.exit(main())
