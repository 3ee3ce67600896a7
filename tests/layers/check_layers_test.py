#!/usr/bin/env python3
"""The layer check (scripts/check_layers.py) on made-up rewriter trees: it passes a tree whose
calls go downwards, and fails, naming the files, on each way a circle of files can be made:
two files of one step, a call upwards between steps, a header's inline helpers used below
the file it belongs to, a third file joining the allowed circle, and an allowed circle that
is gone. Each tree is a few lines per file, written to a temporary folder.

    tests/layers/check_layers_test.py [scripts/check_layers.py]
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "scripts",
                                                           "check_layers.py")

# The check refuses a tree with fewer than 20 definitions (its pattern would have stopped
# matching): the bottom layer defines them.
FILLER = "".join(f"int cp_fill_{i}(void) {{ return {i}; }}\n" for i in range(20))

# device/: the allowed circle, expr.c and call.c, above double.c.
DEVICE = {
    "device/double.c": "int cp_double(int x) { return cp_fill_0() + x; }\n",
    "device/expr.c": "int cp_expr(int x) { return x ? cp_call(x - 1) : cp_double(x); }\n",
    "device/call.c": "int cp_call(int x) { return cp_expr(x); }\n",
}
DEVICE_ORDER = "`double.c`, `expr.c` + `call.c`"


def tree(mid_order, mid, device=None, device_order=DEVICE_ORDER):
    """The files of a tree: layers base/, mid/, device/; `mid` and `device` map paths to text."""
    files = {
        "README.md": "# rewriter\n\n## Layers, bottom up\n\n1. `base/`\n2. `mid/`\n3. `device/`\n",
        "base/README.md": "Files, bottom up: `fill.c`.\n",
        "base/fill.c": FILLER,
        "mid/README.md": f"Files, bottom up: {mid_order}.\n",
        "device/README.md": f"Files, bottom up: {device_order}.\n",
    }
    files.update(mid)
    files.update(DEVICE if device is None else device)
    return files


def run(files):
    """The check's exit status and output on a tree of `files`."""
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "rewriter")
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as fh:
                fh.write(text)
        p = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


# mid/: a.c below b.c. Quoted and commented calls are no calls.
DOWN = {
    "mid/a.c": '/* cp_b() calls it */\nint cp_a(void) { return cp_fill_1() + (int)sizeof "cp_b("; }\n',
    "mid/b.c": "int cp_b(void) { return cp_a(); }\n",
}
# A header named after the file at the bottom, whose inline helper the files above use.
STATE = {
    "mid/s.c": "int cp_s(void) { return 1; }\n",
    "mid/s.h": "static inline int text(void) { return cp_s(); }\nint cp_a(void);\n",
    "mid/a.c": '#include "s.h"\nint cp_a(void) { return text(); }\n',
    "mid/h.c": '#include "s.h"\nint cp_h(void) { return cp_a() + text(); }\n',
}
# The same helper in a header named after the entrance at the top: a circle through it.
ENTRANCE = {
    "mid/h.h": "static inline int text(void) { return 1; }\nint cp_a(void);\n",
    "mid/a.c": '#include "h.h"\nint cp_a(void) { return text(); }\n',
    "mid/h.c": '#include "h.h"\nint cp_h(void) { return cp_a() + text(); }\n',
}

CASES = [
    # (name, files, expected status, texts the output must hold)
    ("calls downwards", tree("`a.c`, `b.c`", DOWN), 0, ["every call goes downwards"]),
    ("a step of two files calling each other",
     tree("`a.c` + `b.c`", {"mid/a.c": "int cp_a(void) { return cp_b(); }\n",
                            "mid/b.c": "int cp_b(void) { return cp_a(); }\n"}), 1,
     ["mid/README.md: a.c + b.c is one step", "rewriter/mid/: a.c, b.c call each other in a circle",
      "a.c calls cp_b of b.c (rewriter/mid/a.c:1)", "b.c calls cp_a of a.c (rewriter/mid/b.c:1)"]),
    ("a circle across steps",
     tree("`a.c`, `b.c`", {"mid/a.c": "int cp_a(void) { return cp_b(); }\n",
                           "mid/b.c": "int cp_b(void) { return cp_a(); }\n"}), 1,
     ["rewriter/mid/a.c:1: calls cp_b of mid/b.c, a later layer",
      "rewriter/mid/: a.c, b.c call each other in a circle"]),
    ("shared helpers at the bottom", tree("`s.c`, `a.c`, `h.c`", STATE), 0, ["no circle"]),
    ("shared helpers in the entrance's header", tree("`a.c`, `h.c`", ENTRANCE), 1,
     ["rewriter/mid/a.c:2: calls text (mid/h.h) of mid/h.c, a later layer",
      "rewriter/mid/: a.c, h.c call each other in a circle"]),
    ("a header's helper calling upwards",
     tree("`s.c`, `a.c`, `h.c`",
          dict(STATE, **{"mid/s.h": "int cp_a(void);\nstatic inline int text(void) {\n"
                                    "  return cp_a();\n}\n"})), 1,
     ["rewriter/mid/s.h:3: calls cp_a of mid/a.c, a later layer (the code of mid/s.c)",
      "rewriter/mid/: a.c, s.c call each other in a circle"]),
    ("a header with helpers but no file of its name",
     tree("`a.c`, `b.c`", dict(DOWN, **{"mid/x.h": "static inline int x(void) { return 0; }\n"})), 1,
     ["rewriter/mid/x.h: defines functions (x) but no file of rewriter/mid/ has its name"]),
    ("a third file joining the allowed circle",
     tree("`a.c`, `b.c`", DOWN,
          dict(DEVICE, **{"device/double.c": "int cp_double(int x) { return cp_expr(x); }\n"}),
          "`double.c` + `expr.c` + `call.c`"), 1,
     ["device/README.md: double.c + expr.c + call.c is one step",
      "rewriter/device/: call.c, double.c, expr.c call each other in a circle"]),
    ("an allowed circle that is gone",
     tree("`a.c`, `b.c`", DOWN,
          dict(DEVICE, **{"device/call.c": "int cp_call(int x) { return x; }\n"})), 1,
     ["ALLOWED_CIRCLES lists call.c + expr.c of rewriter/device/, which no longer call each "
      "other in a circle"]),
]


def main():
    failed = 0
    for name, files, status, texts in CASES:
        rc, out = run(files)
        missing = [t for t in texts if t not in out]
        if rc != status or missing:
            failed += 1
            print(f"FAIL: {name}: exit {rc}, expected {status}" +
                  "".join(f"\n  missing: {t}" for t in missing) + "\n  output:\n" + out)
        else:
            print(f"ok: {name}")
    print(f"{len(CASES) - failed} of {len(CASES)} cases as expected")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
