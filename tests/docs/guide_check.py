#!/usr/bin/env python3
"""The commands and outputs docs/guide.md shows, checked against examples/md_nve and the
tool as they are now, so the guide cannot go stale. Each checked block is preceded by a
marker line:

  <!-- guide-check: source FUNCTION -->   the block is md_nve.cu's annotation of FUNCTION:
                                           from its pragma through the line that opens the body
  <!-- guide-check: output ARGS -->       the block is what `cpconvert ARGS` prints
                                           (stdout and stderr), run in a copy of the example
  <!-- guide-check: error FUNCTION CLAUSES -->
                                           the block is `$ cpconvert md_nve.cu -o
                                           md_nve_cp.cu    # ...` and what it prints when
                                           FUNCTION's pragma gets CLAUSES
  <!-- guide-check: recombine-line NAME --> every `md_nve_cp.cu:N NAME` in the block names
                                           the line of the output's recombination of NAME

--update rewrites the blocks of the first three kinds with what the tool prints now."""
import argparse, os, re, shutil, subprocess, sys, tempfile

MARK = re.compile(r"^<!-- guide-check: (\S+)(?: (.*?))? -->$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def blocks(lines):
    """(marker index, kind, args, first block line, end line) for each marker."""
    for i, line in enumerate(lines):
        m = MARK.match(line.rstrip("\n"))
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            fail("line %d: a guide-check marker must precede a ``` block" % (i + 1))
        end = next((k for k in range(i + 2, len(lines)) if lines[k].startswith("```")), None)
        if end is None:
            fail("line %d: unterminated block" % (i + 2))
        yield i, m.group(1), (m.group(2) or ""), i + 2, end


def source_of(example, function):
    lines = open(os.path.join(example, "md_nve.cu")).read().split("\n")
    for k, line in enumerate(lines):
        if re.search(r"\b%s\(" % re.escape(function), line) and "__global__" in line:
            start = k - 1
            if not lines[start].startswith("#pragma cp composite"):
                fail("%s has no pragma on the line before it" % function)
            end = next(j for j in range(k, len(lines)) if lines[j].rstrip().endswith("{"))
            return lines[start:end + 1]
    fail("no kernel %s in md_nve.cu" % function)


def run(tool, work, args):
    p = subprocess.run([tool] + args + ["--no-cache"], cwd=work, capture_output=True, text=True)
    return (p.stdout + p.stderr).rstrip("\n").split("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--example", required=True)
    ap.add_argument("--guide", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    lines = open(a.guide).read().split("\n")
    work = tempfile.mkdtemp(prefix="cpguide-")
    try:
        shutil.copytree(a.example, os.path.join(work, "ex"))
        ex = os.path.join(work, "ex")
        src = open(os.path.join(ex, "md_nve.cu")).read()
        stale, checked = [], 0
        for mark, kind, args, first, end in reversed(list(blocks(lines))):
            shown = lines[first:end]
            if kind == "source":
                want = source_of(ex, args)
            elif kind == "output":
                want = run(a.tool, ex, args.split())
            elif kind == "error":
                function, clauses = args.split(" ", 1)
                edited = re.sub(r"#pragma cp composite[^\n]*\n(__global__ void %s\()" % function,
                                r"#pragma cp composite %s\n\1" % clauses.replace("\\", r"\\"), src)
                open(os.path.join(ex, "bad.cu"), "w").write(edited)
                out = run(a.tool, ex, ["bad.cu", "-o", "bad_cp.cu"])
                if os.path.exists(os.path.join(ex, "bad_cp.cu")):
                    fail("the guide's error example wrote an output")
                want = [shown[0]] + [l.replace("bad.cu", "md_nve.cu") for l in out]
            elif kind == "recombine-line":
                run(a.tool, ex, ["md_nve.cu", "-o", "md_nve_cp.cu"])
                conv = open(os.path.join(ex, "md_nve_cp.cu")).read().split("\n")
                at = [k + 1 for k, l in enumerate(conv) if "cp_recombine" in l and args in l]
                named = {int(n) for n in re.findall(r"md_nve_cp\.cu:(\d+) %s\b" % re.escape(args),
                                                    "\n".join(shown))}
                if not named or len(at) != 1 or named != {at[0]}:
                    fail("the guide names md_nve_cp.cu:%s for %s; the output recombines it "
                         "at %s" % (sorted(named), args, at))
                checked += 1
                continue
            else:
                fail("unknown guide-check kind %s" % kind)
            checked += 1
            if shown != want:
                stale.append((first + 1, kind, args, shown, want))
                lines[first:end] = want
        if stale and a.update:
            open(a.guide, "w").write("\n".join(lines))
            print("updated %d blocks of %s" % (len(stale), a.guide))
        elif stale:
            for line, kind, args, shown, want in stale:
                print("%s:%d: the %s block (%s) is stale; now:\n%s\n" %
                      (a.guide, line, kind, args, "\n".join(want)))
            fail("%d of %d checked blocks are stale (tests/docs/guide_check.py --update)" %
                 (len(stale), checked))
        if checked < 4:
            fail("only %d guide-check blocks found" % checked)
        print("PASS: %d blocks of the guide match the tool and the example" % checked)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
