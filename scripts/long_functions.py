#!/usr/bin/env python3
"""Checks the house rule on long functions in the crates' sources (`*/src/**/*.rs`).

A function over 100 lines (from its `fn` line to its closing brace) needs a reason in the
comments right above it, a line that starts `Over 100 lines (N):` with its length N. Over 120
lines, the reason must name the rust-hdl limit that forces it (`docs/rust-hdl.md`). Prints each
function that breaks the rule, one per line, and exits 1 if there is one; 0 and "no function
breaks the rule" otherwise.

Usage: scripts/long_functions.py [ROOT]   (ROOT: the workspace, default this script's parent)
"""

import glob
import os
import re
import sys

CRATES = ["support", "hdl", "sim", "flow", "engines", "gen"]
FN = re.compile(r"\s*(pub(\([^)]*\))?\s+)?(const\s+)?fn\s+(\w+)")


def functions(lines):
    """(first line index, name, length) of every function in `lines`."""
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            code = lines[j].split("//")[0]
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                break
            if not opened and code.rstrip().endswith(";"):
                break
            j += 1
        if opened:
            yield i, m.group(4), j - i + 1
        i = j + 1


def reason(lines, at):
    """The comment lines right above line `at` (attributes between them skipped), joined."""
    found = []
    k = at - 1
    while k >= 0:
        text = lines[k].strip()
        if text.startswith("//"):
            found.append(text.lstrip("/").strip())
        elif not text.startswith("#["):
            break
        k -= 1
    return " ".join(reversed(found))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    broken = []
    for crate in CRATES:
        for path in sorted(glob.glob(os.path.join(root, crate, "src", "**", "*.rs"), recursive=True)):
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            name = os.path.relpath(path, root)
            for at, fn, length in functions(lines):
                if length <= 100:
                    continue
                why = reason(lines, at)
                said = re.search(r"Over 100 lines \((\d+)\):", why)
                if not said or int(said.group(1)) != length:
                    broken.append(f"{name}:{at + 1} {fn}: {length} lines, and no "
                                  f"`Over 100 lines ({length}): <reason>` comment above it")
                elif length > 120 and "docs/rust-hdl.md" not in why:
                    broken.append(f"{name}:{at + 1} {fn}: {length} lines, over 120, and its "
                                  "reason names no rust-hdl limit (docs/rust-hdl.md)")
    for line in broken:
        print("long function:", line)
    if not broken:
        print("no function breaks the rule")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
