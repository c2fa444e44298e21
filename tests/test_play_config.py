"""The play configuration is frozen (a later choice is a new one), and the options several commands
share are declared once, in ``tcgtui/flags.py``."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from tcgtui.commands import play as play_command
from tcgtui.cli import build_parser
from tcgtui.play_config import Settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("--lang", "--game", "--param")


def test_the_settings_are_frozen_and_a_change_is_a_new_one():
    settings = Settings(seats=("human", "random"), game_id="tictactoe")
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.lang = "ar"          # type: ignore[misc]
    changed = dataclasses.replace(settings, lang="ar")
    assert (settings.lang, changed.lang, changed.seats) == ("en", "ar", ("human", "random"))


def test_play_builds_them_whole_and_the_dealer_is_made_from_the_settings_as_play_starts(tmp_path):
    """``dealer_for`` is given the settings the app has when the game starts (its handle known), not
    the ones the command built."""
    from tcgtui.store import open_store
    args = build_parser().parse_args(["play", "--game", "tictactoe", "--vs", "random", "--seed", "3",
                                      "--pause", "0"])
    with open_store(str(tmp_path / "t.sqlite3"), create=True) as store:
        settings = play_command.seat(play_command.start(args, None), args, store, None)
        assert settings.ask_handle and settings.dealer_for is not None
        dealer = settings.dealer_for(dataclasses.replace(settings, handle="ada", ask_handle=False))
        assert dealer.deal(None, "en").seed == 3


def _declared(path: Path) -> list[str]:
    """The shared flags ``path`` passes to ``add_argument`` itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument":
            found += [a.value for a in node.args if isinstance(a, ast.Constant) and a.value in SHARED]
    return found


def test_the_shared_options_are_declared_only_in_flags():
    sources = [p for p in (ROOT / "tcgtui").rglob("*.py") if p.name != "flags.py"]
    assert [f"{p.relative_to(ROOT)}: {flag}" for p in sources for flag in _declared(p)] == []


def test_a_declaration_outside_flags_is_found(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('def add(p):\n    p.add_argument("--lang", default="en")\n    p.add_argument("--seed")\n')
    assert _declared(module) == ["--lang"]
