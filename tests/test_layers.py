"""The layering contracts of pyproject.toml (``[tool.importlinter]``), checked by import-linter
over the installed package, and shown to fail on a bad import.

import-linter reads one folder per root package, while an install (editable or not) maps
``engine/``, ``opponents/`` and ``locales/`` into ``tcgtui`` from beside it; so the installed
package's Python files are first laid out as the one tree an install from a wheel would give.
Each check runs in a fresh interpreter whose ``tcgtui`` is that tree."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAPPED = ("engine", "opponents", "locales")      # setup.py's folders installed under tcgtui
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def _folder(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.submodule_search_locations, name
    return Path(next(iter(spec.submodule_search_locations)))


def installed_tree(dest: Path) -> Path:
    """The installed tcgtui's Python files under ``dest/tcgtui``, its mapped folders in place."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.toml", "*.json", "*.jsonl", "*.tcss")
    shutil.copytree(_folder("tcgtui"), dest / "tcgtui", ignore=ignore)
    for sub in MAPPED:
        shutil.copytree(_folder(f"tcgtui.{sub}"), dest / "tcgtui" / sub, ignore=ignore, dirs_exist_ok=True)
    return dest


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LINT, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                          cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return installed_tree(tmp_path_factory.mktemp("installed"))


def test_the_installed_package_keeps_every_contract(tree: Path) -> None:
    done = lint(tree)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 3 kept, 0 broken." in done.stdout


# One bad import per rule: (the module given it, the import, the contract it breaks).
BAD = [
    ("engine/core.py", "import tcgtui.locales", "Layers"),                    # the rules import nothing
    ("opponents/base.py", "import tcgtui.store", "Layers"),                   # players: rules, texts, leaves
    ("deals.py", "import tcgtui.tui.app", "Layers"),                          # the app below the TUI
    ("store/db.py", "import tcgtui.report.render", "No import cycles"),       # report reads the store
    ("bench/one_game.py", "import tcgtui.bench.runner", "No import cycles"),  # the cycle this branch broke
    ("report/render.py", "import textual.app", "Only the TUI"),               # Textual stays in the TUI
]


@pytest.mark.parametrize(("module", "line", "contract"), BAD, ids=[b[0] + ": " + b[1] for b in BAD])
def test_a_bad_import_breaks_its_contract(tree: Path, tmp_path: Path, module: str, line: str,
                                          contract: str) -> None:
    bad = tmp_path / "bad"
    shutil.copytree(tree, bad)
    target = bad / "tcgtui" / module
    target.write_text(target.read_text() + f"\n{line}\n")
    done = lint(bad)
    assert done.returncode == 1, done.stdout + done.stderr
    broken = [ln for ln in done.stdout.splitlines() if ln.endswith(" BROKEN") or " BROKEN (" in ln]
    assert any(b.startswith(contract) for b in broken), done.stdout     # an upward import may close a cycle too


def test_a_new_module_must_say_which_layer_it_is_in(tree: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    shutil.copytree(tree, bad)
    (bad / "tcgtui" / "unplaced.py").write_text('"""A module no layer names."""\n')
    done = lint(bad)
    assert done.returncode == 1 and "unplaced" in done.stdout, done.stdout + done.stderr


def _unexplained(path: Path) -> list[int]:
    """Lines of ``path`` that import inside a function with no comment on them or above them
    (a comment above a block of imports covers the block)."""
    lines = path.read_text().splitlines()
    found = []
    for fn in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            k, said = node.lineno - 1, "#" in lines[node.lineno - 1]
            while not said and k > 0:
                k -= 1
                above = lines[k].strip()
                said = "#" in above
                if not said and above and not above.startswith(("from ", "import ")):
                    break
            if not said:
                found.append(node.lineno)
    return sorted(set(found))


def test_every_deferred_import_says_why(tree: Path) -> None:
    """An import inside a function saves start-up time, waits for an optional dependency or breaks a
    cycle: a comment says which.  A game's registration (``engine/<game>/__init__.py``) is exempt:
    its builders import lazily by the registry's rule (``tcgtui.engine.registry.GameSpec``)."""
    root = tree / "tcgtui"
    bare = [f"{path.relative_to(root)}:{line}" for path in sorted(root.rglob("*.py"))
            if not (path.name == "__init__.py" and path.parent.parent == root / "engine")
            for line in _unexplained(path)]
    assert bare == []


def test_an_unexplained_deferred_import_is_found(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    import json\n    return json\n\n\ndef g():\n"
                      "    # start-up time: only g needs it\n    import csv\n    from os import path\n"
                      "    return csv, path\n")
    assert _unexplained(module) == [2]
