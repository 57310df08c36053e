#!/usr/bin/env python3
"""Finds import circles between the source files of each crate of the workspace.

A file imports another when it names an item the other defines: through `use`, or a path
(`crate::`, `super::`, `self::`, or a child module's name) in its code. Paths are followed
through re-exports (`pub use`) to the file that defines the item, so a parent that re-exports
its children is no import of theirs. Unit-test modules (from `#[cfg(test)]` to the end of a
file) and comments are left out. Prints every circle (a strongly connected group of files),
one per line, and exits 1 if there is one; 0 and "no import circles" otherwise.

Usage: scripts/import_circles.py [ROOT]   (ROOT: the workspace, default this script's parent)
"""

import os
import re
import sys

CRATES = ["support", "hdl", "sim", "flow", "engines", "gen"]
ITEM = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+fn|async\s+fn|unsafe\s+fn|fn|struct|enum|trait|"
    r"type|const|static|union|mod)\s+([A-Za-z_]\w*)",
    re.M,
)
MACRO = re.compile(r"macro_rules!\s*([A-Za-z_]\w*)")
USE = re.compile(r"(?:^|;|\}|\{)\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M)
PATH = re.compile(r"\b((?:crate|super|self)(?:\s*::\s*[A-Za-z_]\w*)+)")
CHILD_PATH = re.compile(r"(?<![\w:])([a-z_]\w*)(?:\s*::\s*[A-Za-z_]\w*)+")


def strip(text):
    """The file's code: unit tests, comments and string literals taken out."""
    cut = text.find("#[cfg(test)]")
    if cut >= 0:
        text = text[:cut]
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*(?:.|\n)*?\*/", "", text)


def expand(tree):
    """The paths of a use tree `a::{b, c::d as e}`: [(segments, alias or None)]."""
    tree = re.sub(r"\s+", "", tree)
    if "{" not in tree:
        alias = None
        if "as" in tree and re.search(r"[\w*]as[A-Za-z_]", tree):
            tree, alias = re.split(r"(?<=[\w*])as(?=[A-Za-z_])", tree, maxsplit=1)
        return [(tree.split("::"), alias)]
    head, body = tree.split("{", 1)
    body = body[: body.rfind("}")]
    parts, depth, start = [], 0, 0
    for i, c in enumerate(body):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    out = []
    for part in filter(None, parts):
        for segs, alias in expand(part):
            out.append(([s for s in head.split("::") if s] + segs, alias))
    return out


class Crate:
    """One crate's files, their modules, items and re-exports."""

    def __init__(self, src):
        self.modules = {}  # module path tuple -> file
        self.code = {}
        for folder, _, names in os.walk(src):
            for name in names:
                if not name.endswith(".rs"):
                    continue
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, src)[:-3].split(os.sep)
                if rel == ["main"] and os.path.exists(os.path.join(src, "lib.rs")):
                    continue  # a binary that reaches its library by the crate's name
                if rel[-1] == "mod" or (len(rel) == 1 and rel[0] in ("lib", "main")):
                    rel = rel[:-1]
                elif rel[0] == "bin":
                    continue
                self.modules[tuple(rel)] = path
                with open(path, encoding="utf-8") as handle:
                    self.code[path] = strip(handle.read())
        self.items = {p: set(ITEM.findall(c)) | set(MACRO.findall(c)) for p, c in self.code.items()}
        self.macros = {m: p for p, c in self.code.items() for m in MACRO.findall(c)}
        self.uses = {}  # file -> {name: absolute path}
        self.globs = {}
        for module, path in self.modules.items():
            names, globs = {}, []
            for _, tree in USE.findall(self.code[path]):
                for segs, alias in expand(tree):
                    full = self.absolute(module, segs)
                    if full is None:
                        continue
                    if full[-1] == "*":
                        globs.append(full[:-1])
                    else:
                        names[alias or full[-1]] = full
            self.uses[path], self.globs[path] = names, globs

    def absolute(self, module, segs):
        """`segs` as a path from the crate root, seen from `module`; None for another crate."""
        segs = [s for s in segs if s]
        if not segs:
            return None
        if segs[0] == "crate":
            return tuple(segs[1:])
        if segs[0] in ("self", "super"):
            base = list(module)
            while segs and segs[0] in ("self", "super"):
                if segs.pop(0) == "super":
                    if not base:
                        return None
                    base.pop()
            return tuple(base + segs)
        if tuple(module) + (segs[0],) in self.modules:
            return tuple(module) + tuple(segs)
        return None

    def resolve(self, path, depth=0):
        """The file that defines what `path` (from the crate root) names."""
        if depth > 20:
            return None
        cut = max(n for n in range(len(path) + 1) if path[:n] in self.modules)
        module, rest = path[:cut], path[cut:]
        file = self.modules[module]
        if not rest:
            return file
        name = rest[0]
        if name in self.items[file]:
            return file
        if name in self.uses[file]:
            return self.resolve(self.uses[file][name] + rest[1:], depth + 1)
        for glob in self.globs[file]:
            target = self.resolve(glob + rest, depth + 1)
            if target is not None and name in self.items.get(target, ()):
                return target
        if not module and name in self.macros:
            return self.macros[name]
        return file

    def edges(self):
        """File -> the files it imports."""
        graph = {path: set() for path in self.code}
        for module, path in self.modules.items():
            code = self.code[path]
            found = [self.absolute(module, segs) for vis, tree in USE.findall(code)
                     if not vis for segs, _ in expand(tree)]
            rest = USE.sub(";", code)
            for match in PATH.finditer(rest):
                found.append(self.absolute(module, re.sub(r"\s", "", match.group(1)).split("::")))
            for match in CHILD_PATH.finditer(rest):
                segs = re.sub(r"\s", "", match.group(0)).split("::")
                if tuple(module) + (segs[0],) in self.modules:
                    found.append(self.absolute(module, segs))
            for full in found:
                if full is None:
                    continue
                full = full[:-1] if full and full[-1] == "*" else full
                target = self.resolve(full)
                if target is not None and target != path:
                    graph[path].add(target)
        return graph


def circles(graph):
    """The strongly connected groups of more than one file (Tarjan's algorithm)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    found = []
    for crate in CRATES:
        src = os.path.join(root, crate, "src")
        graph = Crate(src).edges()
        for group in circles(graph):
            names = [os.path.relpath(p, root) for p in group]
            found.append(" <-> ".join(names))
    for line in found:
        print("import circle:", line)
    if not found:
        print("no import circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
