#!/usr/bin/env python3
"""What each test of a ctest run said last: per test `NAME (TIME, passed|failed)` and the
last lines of its output (at most TAIL, default 8), read from ctest's log
(BUILD/Testing/Temporary/LastTest.log). scripts/test.sh --long prints it after the long
tests, whose closing lines carry their counts (seeds converted and refused, files
disassembled and FP64 instructions found, inputs replayed, cases passed).
  test_counts.py LastTest.log [TAIL]"""
import re, sys


def main():
    tail = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    name, lines, out, time = None, [], False, ""
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"\d+/\d+ Testing: (.*)$", line)
            if m:
                name, lines, out = m.group(1), [], False
            elif line == "Output:":
                out = True
            elif line == "<end of output>":
                out = False
            elif out and line.strip() and not set(line) <= {"-"}:
                lines.append(line.strip())
            elif name and line.startswith("Test time ="):
                time = line.split("=", 1)[1].strip()
            elif name and line.startswith("Test ") and line.endswith("."):
                print("%s (%s, %s)" % (name, time, line[5:-1].lower()))
                for shown in lines[-tail:]:
                    print("    " + shown)
                name = None


if __name__ == "__main__":
    main()
