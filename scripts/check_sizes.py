#!/usr/bin/env python3
"""Checks that the rewriter's C files and functions stay short enough to read at once.

A .c or .h file may have at most 800 lines, a function at most 60, counted from the first
line of its definition to its closing brace (the comment above it not counted). A function
is found as a top-level `{ ... }` whose opening brace follows a `)`, with comments, string
and character literals and preprocessor lines left out first, so a brace inside them
counts for nothing; struct, enum and array initializer bodies do not follow a `)`.
Exits 1, naming each file or function over its limit.

    scripts/check_sizes.py [DIR ...]     default: the rewriter/ beside this script
"""
import os
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 60

# a comment, a string or character literal, or a preprocessor line with its continuations
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#(?:\\\n|[^\n])*',
                   re.S | re.M)


def blank(m):
    """The match with everything but its line breaks turned into spaces."""
    return re.sub(r"[^\n]", " ", m.group())


def functions(text):
    """(name, first line, last line) of every function definition in C source `text`."""
    code = NOISE.sub(blank, text)
    found = []
    depth, start, head = 0, 0, 0  # head: where the text before a top-level brace began
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                header = code[head:start]
                if header.rstrip().endswith(")"):
                    name = re.search(r"(\w+)\s*\(", header)
                    first = code.count("\n", 0, head + len(header) - len(header.lstrip()))
                    found.append((name.group(1) if name else "?", first + 1, code.count("\n", 0, i) + 1))
                head = i + 1
        elif ch == ";" and depth == 0:
            head = i + 1
    return found


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    roots = sys.argv[1:] or [os.path.join(here, "..", "rewriter")]
    errors, n_files, n_functions = [], 0, 0
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, f)
                shown = os.path.relpath(path, os.path.join(root, ".."))
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                n_files += 1
                lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
                if lines > MAX_FILE_LINES:
                    errors.append(f"{shown}: {lines} lines, over {MAX_FILE_LINES}: split it along a seam")
                for name, first, last in functions(text):
                    n_functions += 1
                    if last - first + 1 > MAX_FUNCTION_LINES:
                        errors.append(f"{shown}:{first}: {name} is {last - first + 1} lines, over "
                                      f"{MAX_FUNCTION_LINES}")
    if n_functions == 0:  # the scan stopped finding functions: the check would pass vacuously
        errors.append("no function found in " + ", ".join(roots))
    for e in errors:
        print(e)
    if not errors:
        print(f"{n_files} files, {n_functions} functions: no file over {MAX_FILE_LINES} lines, "
              f"no function over {MAX_FUNCTION_LINES}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
