#!/usr/bin/env python3
"""Every "annotate it" advice leads to a conversion that succeeds.

For each golden test whose expected diagnostics (NAME.warn, NAME.err) advise annotating a
function by name ("convert 'K' too (annotate it)", "annotate 'K' too", "annotate 'K' with
'#pragma cp composite ...'"), the advice is followed: the pragma line is put before the
definition of K in a copy of NAME.cu, and the copy is converted again with the golden's
flags. The conversion must exit 0 with no internal error; any advice it gives in turn is
followed the same way (at most 8 rounds). Exit 1 on the first golden where following the
advice fails, with the conversion's messages.

Usage: follow_advice.py --tool CPCONVERT --dir tests/golden --work DIR
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import golden_flags  # noqa: E402

ADVICE = [
    re.compile(r"convert '([A-Za-z_]\w*)' too \(annotate it\)"),
    re.compile(r"annotate '([A-Za-z_]\w*)' too"),
    re.compile(r"annotate '([A-Za-z_]\w*)' with '(#pragma cp composite[^']*)'"),
]


def advice(text):
    """[(function, pragma line)] that the messages advise, in order, each once."""
    found = []
    for line in text.splitlines():
        for pat in ADVICE:
            for m in pat.finditer(line):
                item = (m.group(1), m.group(2) if pat.groups > 1 else "#pragma cp composite")
                if item not in found:
                    found.append(item)
    return found


def annotate(lines, name, pragma):
    """Put pragma before the definition of function name (a __global__ or __device__
    function whose name is followed by '(' or '<', with a body); True if done, False if it
    is annotated already or no definition is found."""
    head = re.compile(r"\b%s\s*[(<]" % re.escape(name))
    for i, line in enumerate(lines):
        if not head.search(line):
            continue
        start = i
        while start > 0 and not re.search(r"\b(__global__|__device__)\b", lines[start]) \
                and i - start < 3:
            start -= 1
        if not re.search(r"\b(__global__|__device__)\b", lines[start]):
            continue
        rest = "".join(lines[i:i + 12])
        if rest.find("{") < 0 or 0 <= rest.find(";") < rest.find("{"):
            continue  # a declaration
        if start > 0 and lines[start - 1].lstrip().startswith("template"):
            start -= 1
        if start > 0 and lines[start - 1].lstrip().startswith("#pragma cp"):
            return False
        lines.insert(start, pragma + "\n")
        return True
    return False


def convert(tool, src, out, flags, cwd):
    p = subprocess.run([tool, src, "-o", out] + flags, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    a.tool = os.path.abspath(a.tool)
    os.makedirs(a.work, exist_ok=True)
    followed = 0
    for diag in sorted(os.listdir(a.dir)):
        if not diag.endswith((".warn", ".err")) or ".clang" in diag:
            continue
        name = diag.rsplit(".", 1)[0]
        if not os.path.exists(os.path.join(a.dir, name + ".cu")):
            continue
        todo = advice(open(os.path.join(a.dir, diag)).read())
        if not todo:
            continue
        flags = golden_flags(a.dir, name)
        if flags is None:
            continue  # needs MPI, not installed
        work = os.path.join(a.work, name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        for f in os.listdir(a.dir):  # headers the test includes
            if f.endswith((".h", ".cuh")):
                shutil.copy(os.path.join(a.dir, f), work)
        lines = open(os.path.join(a.dir, name + ".cu")).readlines()
        done = []
        for _ in range(8):
            changed = [(fn, pr) for fn, pr in todo if annotate(lines, fn, pr)]
            if not changed:
                break
            done += changed
            src = os.path.join(work, name + ".cu")
            open(src, "w").writelines(lines)
            code, err = convert(a.tool, name + ".cu", name + ".out.cu", flags, work)
            if code != 0 or "internal error" in err:
                sys.stdout.write(err)
                print("FAIL: %s: after annotating %s as advised, cpconvert exits %d" %
                      (name, ", ".join(fn for fn, _ in done), code))
                return 1
            todo = advice(err)
        followed += 1
        print("%s: annotated %s; converts" % (name, ", ".join(fn for fn, _ in done)))
    print("PASS: the advice of %d golden tests followed, each converts" % followed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
