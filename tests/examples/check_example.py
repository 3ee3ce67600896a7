#!/usr/bin/env python3
"""An example program converts with the installed CUDA headers and with the built-in
prelude to the same output, and nvcc builds the converted program (when nvcc is given)."""
import argparse, os, subprocess, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail, nvcc_build  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--nvcc")
    ap.add_argument("--runtime-include")
    ap.add_argument("source")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    name = os.path.splitext(os.path.basename(a.source))[0]
    outs = []
    for mode in ([], ["-nocudainc"]):
        out = os.path.join(a.work, "%s_cp%s.cu" % (name, "_prelude" if mode else ""))
        p = subprocess.run([a.tool, a.source, "-o", out] + mode, capture_output=True)
        if p.returncode != 0:
            sys.stdout.write(p.stderr.decode())
            fail("conversion %s failed" % (" ".join(mode) or "with CUDA headers"))
        outs.append(open(out, "rb").read())
    if outs[0] != outs[1]:
        fail("-nocudainc output differs from the output with CUDA headers")
    if a.nvcc:
        nvcc_build(a.nvcc, a.runtime_include, [os.path.join(a.work, name + "_cp.cu")],
                   os.path.join(a.work, name + "_cp"))
    print("PASS")


if __name__ == "__main__":
    main()
