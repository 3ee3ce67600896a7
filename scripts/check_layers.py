#!/usr/bin/env python3
"""Checks that the rewriter's files call only downwards, and that the documents map them.

The folders of rewriter/ are the layers of its pipeline. rewriter/README.md lists them
bottom up (a numbered list of `folder/` names under "## Layers, bottom up"); each folder's
README.md says the order of its own files in one line:

    Files, bottom up: `expr.c` + `call.c`, `cas.c`, `function.c`.

(`a.c` + `b.c`: one step, files that recurse into each other). A file may call the
functions defined in files of the folders before its own, and in its own folder those of
the files before it or in its step; never one that comes later. The check is textual: it
collects the cp_* functions each file defines (a definition starts at the beginning of a
line and is not static) and looks for `name(` in every other file.

It also checks that docs/design.md maps the tree: its file table names every .c, .h and
.def file of rewriter/ by path (a row for a folder such as `rewriter/parse/prelude/`
covers the files under it) and every .c file of tool/, and names no rewriter path that does
not exist; its layer table has a row per folder, in the order of rewriter/README.md, that
names the folder's .c files (a row whose second cell is the folder: | host | `host/` | ...).

Exits 1, naming each offending call or missing name, when a file calls upwards, when a .c
file is in no layer (outside the listed folders, or missing from its folder's line), when a
listed folder or file does not exist, or when a document leaves a file out.

    scripts/check_layers.py [REWRITER_DIR]
"""
import os
import re
import sys

DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t*]*?\b(cp_\w+)\s*\([^;{]*\)\s*\{", re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
LAYER_ITEM = re.compile(r"^\d+\.\s+`([\w-]+)/`", re.M)
FILES_LINE = re.compile(r"^Files, bottom up:(.*)$", re.M)


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def layer_folders(root, errors):
    """The layer folders of rewriter/README.md, bottom up."""
    readme = os.path.join(root, "README.md")
    if not os.path.exists(readme):
        errors.append("rewriter/README.md: missing (it lists the layers, bottom up)")
        return []
    text = read(readme)
    section = text.split("## Layers, bottom up", 1)
    folders = LAYER_ITEM.findall(section[1].split("\n## ", 1)[0]) if len(section) == 2 else []
    if not folders:
        errors.append("rewriter/README.md: no numbered list of `folder/` names under "
                      "'## Layers, bottom up'")
    return folders


def folder_steps(root, folder, errors):
    """The steps of one folder, bottom up, from its README's `Files, bottom up:` line: a
    list of lists of file names (a step of several: files that call each other)."""
    readme = os.path.join(root, folder, "README.md")
    if not os.path.isdir(os.path.join(root, folder)):
        errors.append(f"rewriter/{folder}/: listed in rewriter/README.md but missing")
        return []
    if not os.path.exists(readme):
        errors.append(f"rewriter/{folder}/README.md: missing (its role, what it may call, "
                      "and the order of its files)")
        return []
    lines = FILES_LINE.findall(read(readme))
    if len(lines) != 1:
        errors.append(f"rewriter/{folder}/README.md: needs one line 'Files, bottom up: ...'")
        return []
    steps = [re.findall(r"`([\w.-]+\.c)`", part) for part in lines[0].split(",")]
    return [s for s in steps if s]


def sources(root):
    """Every .c file under root, as a path relative to it."""
    found = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        found += [os.path.relpath(os.path.join(d, f), root) for f in sorted(files) if f.endswith(".c")]
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "rewriter")
    errors = []
    folders = layer_folders(root, errors)
    rank = {}
    for i, folder in enumerate(folders):
        for j, step in enumerate(folder_steps(root, folder, errors)):
            for f in step:
                path = f"{folder}/{f}"
                if not os.path.exists(os.path.join(root, path)):
                    errors.append(f"rewriter/{path}: named in rewriter/{folder}/README.md but missing")
                rank[path] = (i, j)
    files = sources(root)
    errors += [f"rewriter/{f}: in no layer (a folder of rewriter/README.md, and its README's "
               "'Files, bottom up' line)" for f in files if f not in rank]
    text = {}
    for f in files:
        # comments out (they name functions), their line breaks kept for line numbers
        text[f] = COMMENT.sub(lambda m: "\n" * m.group().count("\n") or " ", read(os.path.join(root, f)))
    defined = {}
    for f in files:
        for name in DEFINITION.findall(text[f]):
            defined.setdefault(name, f)
    if len(defined) < 20:  # the pattern stopped matching: the check would pass vacuously
        errors.append(f"only {len(defined)} definitions found in {root}")
    for f in (f for f in files if f in rank):  # a file in no layer is reported above
        for name, owner in sorted(defined.items()):
            if owner == f or rank.get(owner, (-1, -1)) <= rank[f]:
                continue
            for m in re.finditer(r"\b" + name + r"\s*\(", text[f]):
                line = text[f].count("\n", 0, m.start()) + 1
                errors.append(f"rewriter/{f}:{line}: calls {name} of {owner}, a later layer")
    errors += documented(root, folders, files)
    for e in errors:
        print(e)
    if not errors:
        print(f"{len(folders)} layers, {len(files)} files, {len(defined)} functions: every call "
              "goes downwards, and docs/design.md maps every file")
    return 1 if errors else 0


def documented(root, folders, files):
    """What docs/design.md's tables leave out, or name wrongly."""
    errors = []
    design_path = os.path.join(root, "..", "docs", "design.md")
    if not os.path.exists(design_path):
        return errors  # an installed copy of the sources without docs
    rows = [l for l in read(design_path).splitlines() if l.startswith("| ")]
    mapped = set()
    for r in rows:
        mapped.update(re.findall(r"`rewriter/([\w./-]+)`", r))
    for path in sorted(mapped):
        if not os.path.exists(os.path.join(root, path)):
            errors.append(f"docs/design.md: names `rewriter/{path}`, which does not exist")
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in sorted(names):
            rel = os.path.relpath(os.path.join(d, n), root)
            if not n.endswith((".c", ".h", ".def")):
                continue
            covered = rel in mapped or any(m.endswith("/") and rel.startswith(m) for m in mapped)
            if not covered:
                errors.append(f"rewriter/{rel}: not in docs/design.md's table of files")
    last = -1
    for folder in folders:
        row = [i for i, r in enumerate(rows) if r.split("|")[2:3] == [f" `{folder}/` "]]
        if not row:
            errors.append(f"rewriter/{folder}/: not in docs/design.md's table of layers")
            continue
        if row[0] < last:
            errors.append(f"rewriter/{folder}/: docs/design.md's table of layers has it out of "
                          "the order of rewriter/README.md")
        last = row[0]
        for f in files:
            if f.startswith(folder + "/") and f"`{f.split('/')[-1]}`" not in rows[row[0]]:
                errors.append(f"rewriter/{f}: not in docs/design.md's table of layers, row "
                              f"`{folder}/`")
    tool = os.path.join(root, "..", "tool")
    tool_files = sorted(f for f in os.listdir(tool) if f.endswith(".c")) if os.path.isdir(tool) else []
    for f in tool_files:
        if not any(f"`tool/{f}`" in r for r in rows):
            errors.append(f"tool/{f}: not in docs/design.md's table of files")
    return errors


if __name__ == "__main__":
    sys.exit(main())
