#!/usr/bin/env python3
"""Checks that the rewriter's files call only downwards, with no circle inside a folder, and
that the documents map them.

The folders of rewriter/ are the layers of its pipeline. rewriter/README.md lists them
bottom up (a numbered list of `folder/` names under "## Layers, bottom up"); each folder's
README.md says the order of its own files in one line:

    Files, bottom up: `expr.c` + `call.c`, `cas.c`, `function.c`.

(`a.c` + `b.c`: one step, files that recurse into each other). A file may call the
functions defined in files of the folders before its own, and in its own folder those of
the files before it or in its step; never one that comes later. The check is textual: it
collects the cp_* functions each file defines (a definition starts at the beginning of a
line and is not static) and looks for `name(` in every other file, comments and string
literals left out.

A folder's header shares code too: the `static inline` functions of `folder/x.h` are the
code of `folder/x.c` (a header is named after the file whose state or helpers it holds).
Their calls count as x.c's calls, and a call of one of them, from a file that includes the
header, counts as a call of x.c. So a header at the top of a folder whose helpers every
file uses puts every file below it in a circle with it.

No files of one folder may call each other in a circle, whatever their order: a step of
several files, and any circle the calls make, must be one of ALLOWED_CIRCLES below.

It also checks that docs/design.md maps the tree: its file table names every .c, .h and
.def file of rewriter/ by path (a row for a folder such as `rewriter/parse/prelude/`
covers the files under it) and every .c file of tool/, and names no rewriter path that does
not exist; its layer table has a row per folder, in the order of rewriter/README.md, that
names the folder's .c files (a row whose second cell is the folder: | host | `host/` | ...).

Exits 1, naming each offending call or missing name, when a file calls upwards, when files
of a folder call each other in a circle that is not allowed (or an allowed one is gone),
when a .c file is in no layer (outside the listed folders, or missing from its folder's
line), when a header defines functions but no .c file has its name, when a listed folder
or file does not exist, or when a document leaves a file out.

    scripts/check_layers.py [REWRITER_DIR]
"""
import os
import re
import sys

DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t*]*?\b(cp_\w+)\s*\([^;{]*\)\s*\{", re.M)
INLINE = re.compile(r"^static\s+inline\b[\w \t*]*?\b(\w+)\s*\([^;{]*\)\s*\{", re.M)
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([\w./-]+)"', re.M)
# comments (they name functions) and string literals (messages quote calls)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)

LAYER_ITEM = re.compile(r"^\d+\.\s+`([\w-]+)/`", re.M)
FILES_LINE = re.compile(r"^Files, bottom up:(.*)$", re.M)

# The circles of files a folder may have, each with the reason it cannot be ordered away.
ALLOWED_CIRCLES = {
    # The grammar's own recursion: an expression holds calls, casts and lvalues of paired
    # buffers (expr.c hands them to call.c), and a call can be an expression's operator:
    # C++'s `v = make_float4(...)` is a call of operator= that is an assignment (call.c
    # hands it back to expr.c's). What both use (values, double arithmetic, the split of a
    # double) lies below them, in value.c and double.c.
    ("device", frozenset({"expr.c", "call.c"})),
}


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


def uncommented(path):
    """The text of a file with its comments and string literals blanked, line breaks kept."""
    return COMMENT.sub(lambda m: "\n" * m.group().count("\n") or
                       ('""' if m.group()[0] == '"' else "' '" if m.group()[0] == "'" else " "),
                       read(path))


def bodies(text):
    """`text` with all that is outside braces blanked (prototypes, macros), line breaks kept:
    what a header's inline functions run."""
    out, depth = [], 0
    for ch in text:
        depth -= ch == "}"
        out.append(ch if depth > 0 or ch == "\n" else " ")
        depth += ch == "{"
    return "".join(out)


def headers(root, folders, rank, errors):
    """The headers of the layer folders (not those under a subfolder, such as the prelude's),
    each as {path, owner, text, inline}: owner is the .c file it is named after (None if
    none), text its inline functions' code, inline the names of those functions."""
    found = []
    for folder in folders:
        d = os.path.join(root, folder)
        for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if not n.endswith(".h"):
                continue
            path = f"{folder}/{n}"
            text = uncommented(os.path.join(root, path))
            owner = f"{folder}/{n[:-2]}.c"
            inline = INLINE.findall(text)
            if owner not in rank:
                owner = None
                if inline:
                    errors.append(f"rewriter/{path}: defines functions ({', '.join(inline)}) but "
                                  f"no file of rewriter/{folder}/ has its name, whose code they are")
            found.append({"path": path, "owner": owner, "text": bodies(text), "inline": inline})
    return found


def includes(root, path, seen=None):
    """The headers of its own folder that `path` includes, directly or through one another."""
    seen = set() if seen is None else seen
    folder = os.path.dirname(path)
    for name in INCLUDE.findall(read(os.path.join(root, path))):
        h = os.path.normpath(os.path.join(folder, name))
        if os.path.dirname(h) == folder and h not in seen and os.path.exists(os.path.join(root, h)):
            seen.add(h)
            includes(root, h, seen)
    return seen


def calls(root, files, rank, hdrs, defined):
    """Every call of a function another file owns: (where, line, caller, name, owner), the
    caller being the .c file whose code `where` (a .c file or a header) is; the name of an
    inline function is followed by its header's, `text (host/state.h)`."""
    inline = {}  # name -> (owner, header)
    for h in hdrs:
        for name in h["inline"]:
            if h["owner"]:
                inline[name] = (h["owner"], h["path"])
    units = [(f, f, uncommented(os.path.join(root, f))) for f in files if f in rank]
    units += [(h["path"], h["owner"], h["text"]) for h in hdrs if h["owner"]]
    found = []
    for where, caller, text in units:
        seen = includes(root, where)
        names = {n: (o, n) for n, o in defined.items()}
        names.update({n: (o, f"{n} ({h})") for n, (o, h) in inline.items() if h in seen})
        for name, (owner, label) in sorted(names.items()):
            if owner == caller:
                continue
            for m in re.finditer(r"\b" + name + r"\s*\(", text):
                found.append((where, text.count("\n", 0, m.start()) + 1, caller, label, owner))
    return found


def circles(folder, edges):
    """The circles of files in one folder: the strongly connected sets of more than one file
    of the graph `edges` (file -> {callee: (where, line, name)})."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = set()
            while True:
                w = stack.pop()
                on.discard(w)
                scc.add(w)
                if w == v:
                    break
            if len(scc) > 1:
                found.append(frozenset(scc))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def circle_text(scc, edges):
    """One circle through the files of `scc`, as the calls that make it."""
    start = min(scc)
    paths, queue = {start: []}, [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, {})):
            if w not in scc:
                continue
            if w == start:
                steps = paths[v] + [(v, w)]
                return ", ".join(f"{a.split('/')[-1]} calls {edges[a][b][2]} of {b.split('/')[-1]} "
                                 f"(rewriter/{edges[a][b][0]}:{edges[a][b][1]})" for a, b in steps)
            if w not in paths:
                paths[w] = paths[v] + [(v, w)]
                queue.append(w)
    return ""


def check_circles(root, folders, steps, found):
    """Errors for the circles of files inside a folder that ALLOWED_CIRCLES does not list, for
    a step of several files it does not list, and for a listed circle that is gone."""
    errors, allowed = [], {(f, s) for f, s in ALLOWED_CIRCLES}
    for folder, step in steps:
        if (folder, frozenset(step)) not in allowed:
            errors.append(f"rewriter/{folder}/README.md: {' + '.join(step)} is one step, files that "
                          "call each other in a circle, which scripts/check_layers.py's "
                          "ALLOWED_CIRCLES does not list: order them, moving what they share down")
    for folder in folders:
        edges = {}
        for where, line, caller, name, owner in found:
            if caller.startswith(folder + "/") and owner.startswith(folder + "/"):
                edges.setdefault(caller, {}).setdefault(owner, (where, line, name))
        sccs = circles(folder, edges)
        for scc in sccs:
            names = frozenset(f.split("/")[-1] for f in scc)
            if (folder, names) not in allowed:
                errors.append(f"rewriter/{folder}/: {', '.join(sorted(names))} call each other in a "
                              f"circle ({circle_text(scc, edges)}): order them, moving what they "
                              "share down or passing it as a parameter")
        for f, names in sorted(allowed, key=lambda a: (a[0], sorted(a[1]))):
            if f == folder and not any({f"{folder}/{n}" for n in names} <= scc for scc in sccs):
                errors.append(f"scripts/check_layers.py: ALLOWED_CIRCLES lists {' + '.join(sorted(names))} "
                              f"of rewriter/{folder}/, which no longer call each other in a circle: "
                              "remove it")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "rewriter")
    errors = []
    folders = layer_folders(root, errors)
    rank, steps = {}, []
    for i, folder in enumerate(folders):
        for j, step in enumerate(folder_steps(root, folder, errors)):
            if len(step) > 1:
                steps.append((folder, step))
            for f in step:
                path = f"{folder}/{f}"
                if not os.path.exists(os.path.join(root, path)):
                    errors.append(f"rewriter/{path}: named in rewriter/{folder}/README.md but missing")
                rank[path] = (i, j)
    files = sources(root)
    errors += [f"rewriter/{f}: in no layer (a folder of rewriter/README.md, and its README's "
               "'Files, bottom up' line)" for f in files if f not in rank]
    defined = {}
    for f in files:
        for name in DEFINITION.findall(uncommented(os.path.join(root, f))):
            defined.setdefault(name, f)
    if len(defined) < 20:  # the pattern stopped matching: the check would pass vacuously
        errors.append(f"only {len(defined)} definitions found in {root}")
    hdrs = headers(root, folders, rank, errors)
    found = calls(root, files, rank, hdrs, defined)
    for where, line, caller, name, owner in found:
        if rank.get(owner, (-1, -1)) > rank[caller]:
            whose = f" (the code of {caller})" if where != caller else ""
            errors.append(f"rewriter/{where}:{line}: calls {name} of {owner}, a later layer{whose}")
    errors += check_circles(root, folders, steps, found)
    errors += documented(root, folders, files)
    for e in errors:
        print(e)
    if not errors:
        print(f"{len(folders)} layers, {len(files)} files, {len(defined)} functions: every call "
              "goes downwards, no circle but the allowed ones, and docs/design.md maps every file")
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
