"""Count what the layering contracts are about, for a before/after note: upward imports, import
cycles between modules, and deferred imports that do not say why.

    python scripts/layering_counts.py              # the installed tcgtui
    python scripts/layering_counts.py CHECKOUT     # a source checkout (another commit's worktree)
    python scripts/layering_counts.py -v ...       # and list each one

Upward: ``tcgtui.engine`` importing anything else of tcgtui; ``tcgtui.opponents`` importing
anything but the engine, the texts, ``tcgtui.errors`` and ``tcgtui.userfiles``; a module outside
the TUI and the command line (``cli``, ``commands``, ``perf``) importing ``tcgtui.tui``.  Cycles:
strongly connected groups of modules in the static import graph (imports inside functions
included).  Deferred: an import inside a function with no comment on its line or above its block
(``engine/<game>/__init__.py`` builders counted apart: lazy by the registry's rule).
"""

from __future__ import annotations

import ast
import importlib.util
import shutil
import sys
import tempfile
from pathlib import Path

import grimp

MAPPED = ("engine", "opponents", "locales")
FRONT = ("tcgtui.cli", "tcgtui.commands", "tcgtui.perf", "tcgtui.tui")
PLAYERS_MAY = ("tcgtui", "tcgtui.errors", "tcgtui.userfiles")


def tree(dest: Path, checkout: Path | None) -> Path:
    """The package's Python files as an install lays them out, under ``dest/tcgtui``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")

    def folder(name: str) -> Path:
        if checkout is not None:
            return checkout / (name.split(".")[1] if "." in name else name)
        spec = importlib.util.find_spec(name)
        return Path(next(iter(spec.submodule_search_locations)))
    shutil.copytree(folder("tcgtui"), dest / "tcgtui", ignore=ignore)
    for sub in MAPPED:
        shutil.copytree(folder(f"tcgtui.{sub}"), dest / "tcgtui" / sub, ignore=ignore, dirs_exist_ok=True)
    return dest


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def upward(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    found = []
    for m in sorted(graph.modules):
        for i in sorted(graph.find_modules_directly_imported_by(m)):
            if within(m, "tcgtui.engine") and not within(i, "tcgtui.engine"):
                found.append((m, i))
            elif (within(m, "tcgtui.opponents") and i not in PLAYERS_MAY
                  and not any(within(i, p) for p in ("tcgtui.opponents", "tcgtui.engine", "tcgtui.locales"))):
                found.append((m, i))
            elif within(i, "tcgtui.tui") and not any(within(m, p) for p in FRONT):
                found.append((m, i))
    return found


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))
    for v in sorted(graph.modules):
        if v not in index:
            visit(v)
    return out


def deferred(root: Path) -> tuple[int, list[str], list[str]]:
    """(deferred imports, those with no reason, those with none in the games' registrations)."""
    total, bare, registrations = 0, [], []
    for path in sorted(root.rglob("*.py")):
        lines = path.read_text().splitlines()
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                total += 1
                k, said = node.lineno - 1, "#" in lines[node.lineno - 1]
                while not said and k > 0:
                    k -= 1
                    above = lines[k].strip()
                    said = "#" in above
                    if not said and above and not above.startswith(("from ", "import ")):
                        break
                if not said:
                    where = f"{path.relative_to(root)}:{node.lineno}"
                    registration = path.name == "__init__.py" and path.parent.parent == root / "engine"
                    (registrations if registration else bare).append(where)
    return total, bare, registrations


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    with tempfile.TemporaryDirectory() as tmp:
        top = tree(Path(tmp), Path(args[0]).resolve() if args else None)
        sys.path.insert(0, str(top))
        for name in [n for n in sys.modules if within(n, "tcgtui")]:
            del sys.modules[name]
        graph = grimp.build_graph("tcgtui", cache_dir=None)
        up, groups = upward(graph), cycles(graph)
        total, bare, registrations = deferred(top / "tcgtui")
    print(f"modules: {len(graph.modules)}")
    print(f"upward imports: {len(up)}")
    if verbose:
        print("".join(f"  {m} -> {i}\n" for m, i in up), end="")
    print(f"import cycles: {len(groups)} ({sum(map(len, groups))} modules)")
    if verbose:
        print("".join(f"  {' '.join(g)}\n" for g in groups), end="")
    print(f"deferred imports: {total}; without a reason: {len(bare)} "
          f"(+ {len(registrations)} in the games' registrations)")
    if verbose:
        print("".join(f"  {w}\n" for w in bare), end="")


if __name__ == "__main__":
    main(sys.argv[1:])
