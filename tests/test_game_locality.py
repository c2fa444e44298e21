"""Nothing outside a game's own folders names it (docs/arena.md, "A new game"): its packages by module
path, its ids as string literals, in the shipped code (engine/, opponents/, locales/, tcgtui/).  The
test-only game may be named only in its package and its test.  scripts/ and docs/ are not shipped."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tcgtui.engine import registry

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("engine/", "opponents/", "locales/", "tcgtui/")


def own_folders(package: str) -> tuple[str, ...]:
    """The folders (and flat screen modules) of the game package ``package``, on both sides."""
    return (f"engine/{package}/", f"tcgtui/games/{package}/", f"tcgtui/tui/games/{package}/",
            f"tcgtui/tui/games/{package}.", f"tcgtui/tui/games/{package}_", f"locales/en/{package}/",
            f"locales/ar/{package}/")


# package -> (ids named as string literals, the folders beyond its own that may name it, each with why)
GAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # "deck" and "grid" are also words of other games (a card game's deck list, Eleusis's deck): their
    # module paths only.  The deck quiz is built on the card game's packs: it may name the card game.
    "tcg": (("tcg",), own_folders("deck") + (
        "engine/registry.py",           # DEFAULT: the default game (tcgtui.config.default_game)
    )),
    "grid": (("tictactoe", "connect4", "gomoku"), (
        "locales/en/cmd_study.toml", "locales/ar/cmd_study.toml",   # the study template's example game
    )),
    "deck": ((), ()),
    "duel": (("duel", "duel-bank"), ()),
    "eleusis": (("eleusis",), ()),
}
# The app-wide benchmarks (frames, key waits, start-up, the bench's overhead, a served study) play the
# shipped games as their workloads; a game's own benchmarks live in its tcgtui/games/<game>/perf/.
EXCEPTED = ("tcgtui/perf/",)


def tracked(*prefixes: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", *prefixes], cwd=ROOT, capture_output=True, text=True).stdout.split()
    return [p for p in out if p.endswith((".py", ".toml", ".tcss")) and (ROOT / p).is_file()]


def naming(package: str, ids: tuple[str, ...]) -> re.Pattern[str]:
    paths = rf"tcgtui[./](?:engine|games|tui[./]games)[./]{package}\b|\bengine/{package}/"
    literals = "|".join(rf"[\"']{re.escape(i)}[\"']" for i in ids)
    return re.compile(paths + (f"|{literals}" if literals else ""))


def strangers(pattern: re.Pattern[str], allowed: tuple[str, ...], files: list[str]) -> list[str]:
    return [f for f in files if not f.startswith(allowed + EXCEPTED)
            and pattern.search((ROOT / f).read_text(encoding="utf-8", errors="ignore"))]


def test_the_table_covers_every_shipped_game() -> None:
    packages = {s.info.locale_folder for s in registry.games() if registry.origin(s.id) is None}
    assert packages == set(GAMES)
    ids = {s.id for s in registry.games() if registry.origin(s.id) is None}
    assert ids <= {i for named, _ in GAMES.values() for i in named} | {"deck"}


@pytest.mark.parametrize("package", sorted(GAMES))
def test_nothing_outside_a_shipped_games_folders_names_it(package: str) -> None:
    ids, allowed = GAMES[package]
    assert strangers(naming(package, ids), own_folders(package) + allowed, tracked(*SHIPPED)) == []


def test_nothing_outside_the_test_only_games_folders_names_it() -> None:
    pattern = re.compile(r"plugin_game|[\"']nim[\"']")
    files = tracked(*SHIPPED, "tests/")
    own = ("tests/plugin_game/", "tests/test_plugin_game.py",
           "tests/test_core.py",            # a toy game of its own that happens to be called "nim"
           "tests/test_app_side.py",        # says where the test-only game's own check runs
           "tests/test_game_locality.py")   # this test, which spells the pattern
    assert strangers(pattern, own, files) == []


def test_a_stranger_is_found() -> None:
    """The check fails where a generic module names a game (the import a sixth game must not need)."""
    generic = "tcgtui/report/grouping.py"
    text = (ROOT / generic).read_text(encoding="utf-8") + "\nfrom tcgtui.engine.eleusis import game\n"
    assert naming("eleusis", ("eleusis",)).search(text)
    assert not naming("eleusis", ("eleusis",)).search((ROOT / generic).read_text(encoding="utf-8"))
