#!/usr/bin/env python3
"""Checks that the rewriter's files call only downwards.

The files of rewriter/ form layers (rewriter/internal.h lists them, docs/design.md
explains them). Each file may call the functions defined in files of its own layer or of
layers below it, never those of a layer above. The check is textual: it collects the
cp_* functions each file defines (a definition starts at the beginning of a line and is
not static) and looks for `name(` in every other file. It also checks that the documents
describe every file: internal.h's layer list and docs/design.md's file and layer tables
name each .c file of rewriter/ (and the file table each .c file of tool/). Exits 1, naming
each offending call or missing name, when a file calls upwards, when a .c file is in no
layer, or when a document leaves a file out.

    scripts/check_layers.py [REWRITER_DIR]
"""
import os
import re
import sys

# Bottom up. Files of one layer may call each other (expr.c and call.c recurse into each
# other); otherwise each file is a layer of its own, so the order is strict.
LAYERS = [
    ["arena.c"], ["rules.c"], ["diag.c"], ["edit.c"],  # base
    ["parse.c"], ["tree.c"], ["macro.c"],              # parse
    ["run.c"],                                         # the run's tables
    ["annotate.c"],
    ["accum.c"], ["analyse.c"], ["writes.c"],
    ["expr.c", "call.c"], ["host.c"], ["symbol.c"], ["cas.c"], ["function.c"],  # rewrite
    ["dropped.c"],                                     # check
    ["lines.c"],
    ["verify.c"],                                      # the outputs parsed again
    ["convert.c"],                                     # the driver
]

DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t*]*?\b(cp_\w+)\s*\([^;{]*\)\s*\{", re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "rewriter")
    rank = {f: i for i, layer in enumerate(LAYERS) for f in layer}
    files = sorted(f for f in os.listdir(root) if f.endswith(".c"))
    errors = [f"{f}: in no layer of scripts/check_layers.py" for f in files if f not in rank]
    text = {}
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            # comments out (they name functions), their line breaks kept for line numbers
            text[f] = COMMENT.sub(lambda m: "\n" * m.group().count("\n") or " ", fh.read())
    defined = {}
    for f in files:
        for name in DEFINITION.findall(text[f]):
            defined.setdefault(name, f)
    if len(defined) < 20:  # the pattern stopped matching: the check would pass vacuously
        errors.append(f"only {len(defined)} definitions found in {root}")
    for f in files:
        for name, owner in sorted(defined.items()):
            if owner == f or rank.get(owner, -1) <= rank.get(f, -1):
                continue
            for m in re.finditer(r"\b" + name + r"\s*\(", text[f]):
                line = text[f].count("\n", 0, m.start()) + 1
                errors.append(f"rewriter/{f}:{line}: calls {name} of {owner}, a later layer")
    errors += documented(root, files)
    for e in errors:
        print(e)
    if not errors:
        print(f"{len(files)} files, {len(defined)} functions: every call goes downwards")
    return 1 if errors else 0


def documented(root, files):
    """The files internal.h's layer list or docs/design.md's tables leave out."""
    errors = []
    with open(os.path.join(root, "internal.h"), encoding="utf-8") as fh:
        header = fh.read().split("*/", 1)[0]
    design_path = os.path.join(root, "..", "docs", "design.md")
    if not os.path.exists(design_path):
        return errors  # an installed copy of the sources without docs
    with open(design_path, encoding="utf-8") as fh:
        design = fh.read()
    rows = [l for l in design.splitlines() if l.startswith("| ")]
    tool = os.path.join(root, "..", "tool")
    tool_files = sorted(f for f in os.listdir(tool) if f.endswith(".c")) if os.path.isdir(tool) else []
    for f in files:
        if not re.search(r"\b" + re.escape(f) + r"\b", header):
            errors.append(f"rewriter/{f}: not in rewriter/internal.h's list of layers")
        if not any(f"`rewriter/{f}`" in r for r in rows):
            errors.append(f"rewriter/{f}: not in docs/design.md's table of files")
        if not any(f"`{f}`" in r for r in rows):
            errors.append(f"rewriter/{f}: not in docs/design.md's table of layers")
    for f in tool_files:
        if not any(f"`tool/{f}`" in r for r in rows):
            errors.append(f"tool/{f}: not in docs/design.md's table of files")
    return errors


if __name__ == "__main__":
    sys.exit(main())
