"""Commands that need no search and no screen start light: no Textual, no numba, and
``--help`` not even the HTTP client (issue 12 §2).  Each command runs in a fresh
interpreter, which then says which of the heavy packages it imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui.store import Store
from tests.report_fixture import populate
from tests.store_helpers import add_game

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("textual", "numba", "httpx", "tcgtui.engine.tcg.fast.kernel")
SCRIPT = """
import atexit, json, sys
heavy = sys.argv[1].split(",")
atexit.register(lambda: sys.__stderr__.write("\\nLOADED " + json.dumps(
    [name for name in heavy if name in sys.modules]) + "\\n"))
sys.argv = ["tcgtui", *sys.argv[2:]]
from tcgtui.cli import main
sys.exit(main())
"""


def _loaded(args: list[str]) -> set[str]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, ",".join(HEAVY), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("LOADED "))
    return set(json.loads(line.removeprefix("LOADED ")))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("light") / "games.sqlite3"
    with Store(path) as store:
        populate(store, add_game)
    return path


def test_help_imports_no_screen_no_compiler_and_no_http_client() -> None:
    assert _loaded(["--help"]) == set()


@pytest.mark.parametrize("args", [
    ["cards"], ["cards", "--lang", "ar"], ["rules"], ["rules", "--game", "eleusis", "--lang", "ar"],
    ["play", "--help"], ["bench", "--help"],
], ids=" ".join)
def test_text_commands_import_no_screen_and_no_compiler(args: list[str]) -> None:
    assert _loaded(args) & {"textual", "numba", "tcgtui.engine.tcg.fast.kernel"} == set()


@pytest.mark.parametrize("args", [["report", "--format", "table"], ["baseline", "export", "{out}"]],
                         ids=lambda a: a[0])
def test_store_commands_import_no_screen_and_no_compiler(args: list[str], db: Path, tmp_path: Path) -> None:
    argv = [a.format(out=tmp_path / "out.jsonl") for a in args] + ["--db", str(db)]
    assert _loaded(argv) & {"textual", "numba", "tcgtui.engine.tcg.fast.kernel"} == set()
