#!/usr/bin/env python3
"""The documentation's examples compile as the docs say.

Each example is a fenced block in a Markdown file, announced by the comment
`<!-- example: NAME ... -->` on the line before it. check_examples.py writes it to NAME,
converts it with cpconvert, and compiles and links both the annotated source (the float
build: nvcc alone) and the converted one (with the runtime headers) with nvcc; no GPU is
needed. Without nvcc the test is skipped (77) after the conversion.

  check_examples.py --tool cpconvert --runtime-include DIR --work DIR [--nvcc NVCC] DOC.md"""
import argparse, os, re, shutil, subprocess, sys

SKIP = 77


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def examples(doc):
    with open(doc) as f:
        text = f.read()
    found = re.findall(r"<!-- example: (\S+)[^\n]*-->\n```[a-z]*\n(.*?)\n```", text, re.S)
    if not found:
        fail("%s has no example" % doc)
    return found


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s:\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--nvcc")
    ap.add_argument("doc")
    a = ap.parse_args()
    a.runtime_include, a.doc = os.path.abspath(a.runtime_include), os.path.abspath(a.doc)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    for name, code in examples(a.doc):
        with open(os.path.join(a.work, name), "w") as f:
            f.write(code + "\n")
        stem, ext = os.path.splitext(name)
        out = stem + "_cp" + ext
        run([os.path.abspath(a.tool), name, "-o", out], a.work)
        with open(os.path.join(a.work, out)) as f:
            converted = f.read()
        if "#define CP_CONVERTED 1\n" not in converted or "_err" not in converted:
            fail("%s: the conversion has no CP_CONVERTED or no companion:\n%s" % (name, converted))
        if not a.nvcc:
            continue
        run([a.nvcc, "-arch=sm_90", name, "-o", stem], a.work)
        run([a.nvcc, "-arch=sm_90", "-I" + a.runtime_include, out, "-o", stem + "_cp"], a.work)
        print("%s: converted, and both builds compile and link" % name)
    if not a.nvcc:
        print("SKIP: no nvcc; the examples were converted, not compiled")
        sys.exit(SKIP)
    print("PASS")


if __name__ == "__main__":
    main()
