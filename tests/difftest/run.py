#!/usr/bin/env python3
"""Differential test driver: generate, convert, compile (and with --gpu run) many seeds.

Every seed is classified as one of
  converted  cpconvert wrote an output and `nvcc -c -arch=sm_90` compiles it (a multi_tu
             program: every output, and they link)
  refused    cpconvert exited 1 with located (file:line:col) errors, each documented
             (its [rule] is in docs/rules.md or docs/conversion.md, or, for a message
             without a rule tag, four consecutive words of it appear in those docs)
and every other outcome is a bug:
  crashed    cpconvert died on a signal, exited with another status, or ran over time
  nvcc       the output does not compile (or, multi_tu, does not link)
  output-files  (multi_tu) exit 0, but --o-dir lacks a converted input or holds a file
             that is neither one nor the header
  unlocated  a refusal whose message has no file:line:col
  undocumented  a refusal whose rule or message the docs do not describe
  output-on-error  exit 1 but an output file was written
  gpu-*      (--gpu) a build fails, a program fails to run, or the accuracy check fails
The exit status is 1 if any seed is a bug, else 0. Failing seeds are copied to --save.

Two phases, for a GPU machine without libclang: `--prepare DIR` generates and converts the
seeds here and keeps each seed's folder (DIR/SEED: the float program, the converted file,
the double reference; multi_tu: their several files, the converted ones in cp/) with
DIR/manifest.json (every seed's class and reason); there,
`--from DIR --gpu` builds, runs and compares the converted seeds of the manifest.
"""
import argparse
import collections
import json
import math
import multiprocessing
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
TIMEOUT = 120


def docs_text():
    text = ""
    for name in ("rules.md", "conversion.md"):
        path = os.path.join(ROOT, "docs", name)
        if os.path.exists(path):
            with open(path) as fh:
                text += fh.read().lower() + "\n"
    return re.sub(r"\s+", " ", text)


def reason_of(msg):
    """A message with its names and numbers blanked: one reason per kind of message."""
    msg = re.sub(r"'[^']*'", "'X'", msg)
    return re.sub(r"\b\d+\b", "N", msg).strip()


def documented(msg, docs):
    tag = re.search(r"\[([a-z-]+)\]\s*$", msg)
    if tag:
        return "`%s`" % tag.group(1) in docs
    words = re.sub(r"'[^']*'", " ", msg).lower().split()
    return any(" ".join(words[k:k + 4]) in docs for k in range(max(len(words) - 3, 0)))


def sh(cmd, cwd, timeout=TIMEOUT):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return None, "timeout after %ds" % timeout


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()
    return text.strip().splitlines()[-1] if text.strip() else "(no output)"


def link_error(text):
    """The linker's first complaint (undefined reference, multiple definition), not
    collect2's closing line; its quoted symbol blanked as reason_of does."""
    for line in text.splitlines():
        if "undefined reference" in line or "multiple definition" in line:
            line = re.sub(r"^.*?(undefined reference|multiple definition)", r"\1", line)
            return re.sub(r"`[^']*'", "'X'", line.strip())
    return first_error(text)


# A multi_tu program (gen.py) is converted with --o-dir into this folder of its seed's.
CP_DIR = "cp"


def sources(seed, tag, multi):
    """The files a build compiles (tag: float, cp or ref), relative to the seed's folder,
    and the include options it needs besides runtime/include."""
    if not multi:
        return ["dt_%d%s.cu" % (seed, {"float": "", "cp": ".cp", "ref": ".ref"}[tag])], []
    ref = ".ref" if tag == "ref" else ""
    names = ["dt_%d%s.cu" % (seed, ref), "dt_%d_k%s.cu" % (seed, ref)]
    if tag != "cp":
        return names, []
    # the converted header is in cp/; where no signature in it changed cpconvert leaves
    # it alone, and the inputs' one (-I.) is the one to use
    return [os.path.join(CP_DIR, n) for n in names], ["-I" + CP_DIR, "-I."]


def output_files(seed, work, prog):
    """multi_tu, exit 0: the reason the files under cp/ are not the converted inputs
    (and at most the header), or None."""
    want = prog.inputs()
    allowed = set(want) | {prog.file_names(False)[2]}
    got = set()
    for root, _, names in os.walk(os.path.join(work, CP_DIR)):
        for n in names:
            got.add(os.path.relpath(os.path.join(root, n), os.path.join(work, CP_DIR)))
    short = lambda n: n.replace(str(seed), "S")  # one reason for every seed
    for n in want:
        if n not in got:
            return "no converted %s in %s/" % (short(n), CP_DIR)
    for n in sorted(got - allowed):
        return "an unexpected file %s in %s/" % (short(n), CP_DIR)
    return None


def convert(seed, opts):
    """Generate and convert one seed; returns (class, reason, detail, program)."""
    work = os.path.join(opts.work, str(seed))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prog = gen.Program(seed, set(opts.no))
    for double in (False, True):
        for name, text in prog.files(double).items():
            with open(os.path.join(work, name), "w") as fh:
                fh.write(text)
    src, out = "dt_%d.cu" % seed, "dt_%d.cp.cu" % seed
    if prog.multi:  # every file of the program may be named in a refusal
        located = set(prog.file_names(False))
        rc, text = sh([opts.tool] + opts.tool_args + prog.inputs() + ["--o-dir", CP_DIR], work)
        wrote = any(files for _, _, files in os.walk(os.path.join(work, CP_DIR)))
    else:
        located = {src}
        rc, text = sh([opts.tool] + opts.tool_args + [src, "-o", out], work)
        wrote = os.path.exists(os.path.join(work, out))
    if rc is None or rc not in (0, 1) or "internal error" in text:
        return "crashed", "exit %s" % rc, text, prog
    if rc == 1:
        if wrote:
            return "output-on-error", "exit 1 with an output file", text, prog
        errors = [l for l in text.splitlines() if " error: " in l or l.startswith("error")]
        for line in errors:
            m = LOCATED.match(line)
            if not m or os.path.normpath(m.group("file")) not in located:
                return "unlocated", reason_of(line), text, prog
            if not documented(m.group("msg"), opts.docs):
                return "undocumented", reason_of(m.group("msg")), text, prog
        reason = reason_of(LOCATED.match(errors[0]).group("msg")) if errors else "no message"
        return "refused", reason, text, prog
    if prog.multi:
        bad = output_files(seed, work, prog)
        if bad:
            return "output-files", bad, text, prog
    inc = "-I" + os.path.join(ROOT, "runtime", "include")
    outs, incs = sources(seed, "cp", prog.multi)
    objs = []
    for k, out in enumerate(outs):
        objs.append("dt%s.o" % ("_%d" % k if prog.multi else ""))
        rc, ntext = sh([opts.nvcc, "-c", "-arch=sm_90", inc] + incs + [out, "-o", objs[-1]],
                       work)
        if rc != 0:
            return "nvcc", reason_of(re.sub(r"^.*?\(\d+\): ", "", first_error(ntext))), \
                ntext, prog
    if prog.multi:
        # the point of multi_tu: a prototype in the header that was not rewritten with its
        # definition compiles, and fails here (an undefined reference); linking needs no GPU
        rc, ntext = sh([opts.nvcc, "-arch=sm_90"] + objs + ["-o", "dt"], work)
        if rc != 0:
            return "nvcc", "link: " + reason_of(link_error(ntext)), ntext, prog
        os.remove(os.path.join(work, "dt"))
    for obj in objs:  # only the build status matters; --prepare ships the folder
        os.remove(os.path.join(work, obj))
    return "converted", "", text, prog


def run_gpu(seed, opts, cats, strict, multi):
    """Build and run float, converted and double (multi_tu: each from its files, the
    program prog_TAG); compare every printed value."""
    work = os.path.join(opts.work, str(seed))
    inc = "-I" + os.path.join(ROOT, "runtime", "include")
    outs = {}
    for tag in ("float", "cp", "ref"):
        srcs, incs = sources(seed, tag, multi)
        exe = "prog_" + tag if multi else tag  # cp/ is the converted files' folder there
        rc, text = sh([opts.nvcc, "-arch=sm_90", inc] + incs + ["-o", exe] + srcs, work)
        if rc != 0:
            return "gpu-build", tag + ": " + first_error(text), None
        rc, text = sh(["./" + exe], work, 60)
        if rc != 0:
            return "gpu-run", "%s exit %s" % (tag, rc), None
        outs[tag] = [float(x) for x in text.split()]
    if not (len(outs["float"]) == len(outs["cp"]) == len(outs["ref"])):
        return "gpu-run", "different numbers of results", None
    return check(outs, cats, strict, low_tier(opts.tool_args))


# Categories of composite arithmetic that is float's own at the low tier (their values are
# checked at the other tiers): the composite exp keeps expf's rounding there.
LOW_TIER_LAX = {"exp"}


def low_tier(tool_args):
    """Whether cpconvert's options select the low tier (--accuracy low, the fast family)."""
    text = " ".join(tool_args).replace("=", " ")
    return "--accuracy low" in text or "--algo fast" in text


def check(outs, cats, strict, low=False):
    """The accuracy criterion, on the values no category of non-composite arithmetic
    reaches (cats: gen.Program.value_categories(); None, from a manifest older than
    them: every value takes the program's strictness); returns (class, reason, ratios)."""
    if cats is None:
        cats = [(len(outs["float"]), "" if strict else "program")]
    # each value's buffer scale: the largest |double result| among the values of its
    # buffer (they are printed one buffer after another, count values each)
    scales, at = [], 0
    for count, _ in cats:
        group = [abs(r) for r in outs["ref"][at:at + count] if math.isfinite(r)]
        scales += [max(group, default=0.0)] * count
        at += count
    cats = [cat for count, cat in cats for _ in range(count)]
    if len(cats) != len(outs["float"]):
        return "gpu-run", "%d values printed, the generator expects %d" % (
            len(outs["float"]), len(cats)), None
    ratios, bad = [], None
    for f, c, r, cat, scale in zip(outs["float"], outs["cp"], outs["ref"], cats, scales):
        strict = not cat or (not low and set(cat.split("+")) <= LOW_TIER_LAX)
        # a ratio is recorded as (log10 ratio, float's relative error > 1e-4, composite
        # more than 2x further from double than float beyond the reference's own noise,
        # the value's categories)
        if not math.isfinite(r) or not math.isfinite(f):
            bad = bad or "non-finite float or double result (a generator bug)"
            continue
        if not math.isfinite(c):
            bad = bad or "non-finite composite result where float is finite"
            continue
        ef, ec = abs(f - r), abs(c - r)
        # slack: the double reference itself is only good to ~1e-16 relative, and the
        # composite result is recombined into one float on the host, so it can sit one
        # rounding away from float's when float happens to round to the nearest value.
        # Relative to the value, or to its buffer's scale where the value is far smaller:
        # a value that cancels to (near) zero is known to the double reference, and to a
        # pair, only to a few units of 2^-53 (2^-48) of the operands it cancelled, which
        # are of the buffer's size, not of the value's (x - (x - 8) - 8 gives 0, or
        # -8.9e-16 in double, or 3.6e-15 in float-float)
        tol = 1e-12 * max(abs(r), scale)
        ratios.append((math.log10(max(ef, 1e-300) / max(ec, 1e-300)), ef > 1e-4 * abs(r),
                       ec > 2 * ef + tol, cat))
        if not strict:
            continue
        if ec > ef + tol:
            bad = bad or "composite error %.3g > float error %.3g (ref %.17g)" % (ec, ef, r)
        elif ef > 1e-4 * abs(r) and ec * 100 > ef + tol:
            bad = bad or "float rel. error %.3g, composite only %.3gx better" % (
                ef / max(abs(r), 1e-300), ef / max(ec, 1e-300))
    return ("gpu-accuracy", bad, ratios) if bad else ("converted", "", ratios)


def have_gpu(opts):
    os.makedirs(opts.work, exist_ok=True)
    probe = os.path.join(opts.work, "probe.cu")
    with open(probe, "w") as fh:
        fh.write("#include <cstdio>\nint main() { int n = 0;\n"
                 "  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0 ? 0 : 1; }\n")
    rc, _ = sh([opts.nvcc, "-o", "probe", "probe.cu"], opts.work)
    return rc == 0 and sh(["./probe"], opts.work)[0] == 0


def one(args):
    """One seed, end to end: converted here (or read from the manifest with --from), then
    with --gpu built, run and compared; the same path for both modes."""
    seed, opts = args
    if opts.source:
        entry = opts.source[seed]
        cls, reason, detail, strict = entry["class"], entry["reason"], "", entry["strict"]
        cats = entry.get("values")  # None in a manifest older than the categories
        multi = entry.get("multi_tu", False)  # absent in a manifest older than multi_tu
    else:
        cls, reason, detail, prog = convert(seed, opts)
        strict, cats, multi = prog.strict, prog.value_categories(), prog.multi
    ratios = None
    if cls == "converted" and opts.gpu:
        cls, reason, ratios = run_gpu(seed, opts, cats, strict, multi)
    if cls in ("converted", "refused") and not opts.keep:
        shutil.rmtree(os.path.join(opts.work, str(seed)), ignore_errors=True)
    return seed, cls, reason, detail, strict, cats, multi, ratios


def histogram(ratios):
    bins = collections.Counter()
    for x, *_ in ratios:
        bins[max(min(int(math.floor(x)), 12), -3)] += 1
    big = [x for x, b, *_ in ratios if b]
    lines = ["log10(err_float / err_composite) over %d strict values (no category of "
             "non-composite arithmetic reaches them); %d of them "
             "with float relative error > 1e-4, where the smallest ratio is 10^%.2f:" % (
                 len(ratios), len(big), min(big) if big else float("nan"))]
    for b in sorted(bins):
        label = "<= -3" if b == -3 else ">= 12" if b == 12 else "[%d, %d)" % (b, b + 1)
        lines.append("  %-8s %7d" % (label, bins[b]))
    return "\n".join(lines)


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", help="the cpconvert executable (not needed with --from)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("-j", type=int, default=os.cpu_count())
    ap.add_argument("--no", action="append", default=[], choices=gen.FEATURES)
    ap.add_argument("--work", default="difftest-work")
    ap.add_argument("--save", default=None, help="copy failing seeds here")
    ap.add_argument("--gpu", action="store_true", help="also build, run and compare")
    ap.add_argument("--keep", action="store_true", help="keep the work folders of passes")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--tool-arg", dest="tool_args", action="append", default=[],
                    metavar="OPT", help="an option for every cpconvert run (repeatable), "
                    "e.g. --tool-arg=--backend=ff --tool-arg=--accuracy=low")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--prepare", metavar="DIR", help="convert here, keep DIR for --from")
    mode.add_argument("--from", dest="source_dir", metavar="DIR",
                      help="run the seeds a --prepare wrote to DIR (implies --gpu)")
    ap.add_argument("--summary", metavar="FILE", help="also write the report to FILE")
    opts = ap.parse_args()
    if opts.prepare and opts.gpu:
        ap.error("--prepare converts only; run --from DIR --gpu where the GPU is")
    if not opts.source_dir and not opts.tool:
        ap.error("--tool is required unless --from is given")
    opts.tool = opts.tool and os.path.abspath(opts.tool)
    opts.source = None
    if opts.prepare:  # every seed's folder is the product, passes included
        opts.work, opts.keep = opts.prepare, True
    elif opts.source_dir:  # the prepared folders stay, so a batch can be run again
        opts.work, opts.keep, opts.gpu = opts.source_dir, True, True
    opts.work = os.path.abspath(opts.work)
    opts.docs = docs_text()
    return opts


def load_manifest(opts):
    """--from: the seeds, their classes and the exclusions come from the manifest."""
    with open(os.path.join(opts.work, "manifest.json")) as fh:
        manifest = json.load(fh)
    opts.source = {int(k): v for k, v in manifest["seeds"].items()}
    opts.no = manifest["no"]
    opts.tool_args = manifest.get("tool_args", opts.tool_args)
    return range(manifest["seed"], manifest["seed"] + manifest["count"])


def write_manifest(opts, seeds, classes):
    entries = {str(seed): {"class": cls, "reason": reason, "strict": strict, "values": cats,
                           "multi_tu": multi}
               for seed, (cls, reason, strict, cats, multi) in sorted(classes.items())}
    manifest = {"seed": seeds.start, "count": len(seeds), "no": sorted(opts.no),
                "tool": opts.tool, "tool_args": opts.tool_args, "seeds": entries}
    with open(os.path.join(opts.work, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)


def save_failure(opts, seed, cls, reason, detail):
    os.makedirs(opts.save, exist_ok=True)
    dst = os.path.join(opts.save, str(seed))
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(opts.work, str(seed)), dst)
    with open(os.path.join(dst, "report.txt"), "w") as fh:
        fh.write("%s: %s\n%s\n" % (cls, reason, detail))


def worse_than_float(every):
    """Values of every program run where the composite result is more than 2x further from
    the double reference than float's: how many, per category of non-composite arithmetic
    that reaches them (strict values: none), with the seeds."""
    values, worse, seeds = collections.Counter(), collections.Counter(), {}
    for seed, rs in every:
        for *_, w, cat in rs:
            key = cat or "strict"
            values[key] += 1
            if w:
                worse[key] += 1
                seeds.setdefault(key, set()).add(seed)
    lines = ["values where the composite result is more than 2x worse than float's: %d of %d "
             "(strict values %d of %d); per category:" % (
                 sum(worse.values()), sum(values.values()), worse["strict"], values["strict"])]
    for key in sorted(values, key=lambda k: (k != "strict", k)):
        line = "  %-60s %6d of %7d" % (key, worse[key], values[key])
        if key in seeds:
            few = sorted(seeds[key])
            line += "  seeds: " + " ".join(map(str, few[:12])) + (" ..." if len(few) > 12 else "")
        lines.append(line)
    return "\n".join(lines)


def report(opts, seeds, by_class, by_reason, ratios, fails, every=()):
    lines = ["difftest: seeds %d..%d, excluded features: %s" % (
        seeds.start, seeds.stop - 1, " ".join(sorted(opts.no)) or "none")]
    lines += ["  %-16s %d" % (cls, n) for cls, n in sorted(by_class.items())]
    lines += ["  %4d  %s: %s" % (n, cls, reason)
              for (cls, reason), n in sorted(by_reason.items(), key=lambda x: -x[1])]
    if opts.gpu and ratios:
        lines.append(histogram(ratios))
    if opts.gpu and every:
        lines.append(worse_than_float(every))
    if fails:
        lines.append("failing seeds: " + " ".join(map(str, sorted(fails))))
    if opts.prepare:  # the last line is what bench/gpu/prepare.sh shows
        lines.append("prepared %d seeds in %s: %d converted, %d refused, %d bugs" % (
            len(seeds), opts.work, by_class["converted"], by_class["refused"], len(fails)))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    paths = [opts.summary] + ([os.path.join(opts.work, "summary.txt")] if opts.source else [])
    for path in filter(None, paths):
        with open(path, "w") as fh:
            fh.write(text)


def main():
    opts = parse_args()
    if opts.source_dir and not os.path.exists(os.path.join(opts.work, "manifest.json")):
        print("difftest: no %s/manifest.json (run --prepare first)" % opts.work)
        return 2
    if opts.gpu and not have_gpu(opts):
        print("difftest: no CUDA device; skipped")
        return 77
    seeds = load_manifest(opts) if opts.source_dir else range(opts.seed, opts.seed + opts.count)
    os.makedirs(opts.work, exist_ok=True)
    by_class, by_reason, ratios, fails = collections.Counter(), collections.Counter(), [], []
    classes, every = {}, []
    with multiprocessing.Pool(opts.j) as pool:
        for seed, cls, reason, detail, strict, cats, multi, rs in pool.imap_unordered(
                one, [(s, opts) for s in seeds]):
            by_class[cls] += 1
            classes[seed] = (cls, reason, strict, cats, multi)
            if reason:
                by_reason[(cls, reason)] += 1
            if rs:
                ratios += [r for r in rs if not r[-1]]
                every.append((seed, rs))
            if cls not in ("converted", "refused"):
                fails.append(seed)
                print("seed %d: %s: %s" % (seed, cls, reason), flush=True)
                if opts.save:
                    save_failure(opts, seed, cls, reason, detail)
    if opts.prepare:
        write_manifest(opts, seeds, classes)
    report(opts, seeds, by_class, by_reason, ratios, fails, every)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
