"""``report --list`` offers nothing that errors: every table it names for every game (and for the
game's variants, under their heading) renders on a small store of that game's runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.arena import game_name, variant_flag, variants
from tcgtui.cli import main
from tcgtui.engine import registry

# the cheapest players of each game: a new game needs a line here, or the test names it
BENCH = {
    "tcg": ["--agent", "random", "--vs", "random", "--games", "2"],
    "connect4": ["--agent", "random", "--vs", "random", "--games", "2"],
    "tictactoe": ["--agent", "random", "--vs", "perfect", "--games", "2"],
    "gomoku": ["--agent", "random", "--vs", "threats", "--games", "2"],
    "deck": ["--agent", "random", "--games", "3"],
    "duel": ["--agent", "puzzler", "--vs", "puzzler", "--games", "2", "--param", "rounds=2"],
    "eleusis": ["--agent", "scientist", "--games", "2", "--param", "max_turns=6"],
}
USER_GAMES = sorted(s.id for s in registry.games() if s.info.variant_of is None)


def offered(game: str, capsys: pytest.CaptureFixture) -> dict[str, list[str]]:
    """The tables ``report --game GAME --list`` names, by the game (or variant) whose runs they report."""
    capsys.readouterr()
    assert main(["report", "--game", game, "--list"]) == 0
    text = locales.load()
    spec = registry.get(game)
    headings = {"  " + text.t("cmd_report.list_variant", flag=variant_flag(param), name=game_name(other, text)):
                other.id for other, param in variants(spec)}
    out: dict[str, list[str]] = {game: []}
    under = game
    for line in capsys.readouterr().out.splitlines()[1:]:
        if line in headings:
            under = headings[line]
            out[under] = []
        else:
            out[under].append(line.split()[0])
    return out


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("stores")
    out = {}
    for game in USER_GAMES:
        assert game in BENCH, f"{game}: give it a small store in BENCH"
        out[game] = str(folder / f"{game}.sqlite3")
        assert main(["bench", "--game", game, *BENCH[game], "--db", out[game]]) == 0
    bank = folder / "bank.jsonl"
    assert main(["duel", "mine", "--db", out["duel"], "--out", str(bank)]) == 0
    out["duel-bank"] = str(folder / "bank.sqlite3")
    assert main(["bench", "--game", "duel", "--bank", str(bank), "--agent", "puzzler", "--games", "3",
                 "--db", out["duel-bank"]]) == 0
    return out


@pytest.mark.parametrize("game", USER_GAMES)
def test_every_table_report_list_offers_renders(game: str, stores: dict[str, str],
                                                 capsys: pytest.CaptureFixture) -> None:
    tables = offered(game, capsys)
    assert tables[game] and all(tables.values())
    for whose, names in tables.items():
        for name in names:
            capsys.readouterr()
            assert main(["report", "--game", game, "--db", stores[whose], "--table", name, "--format", "json"]) == 0, \
                (whose, name, capsys.readouterr().err)
            assert name in json.loads(capsys.readouterr().out), (whose, name)


def test_the_bank_solve_rate_by_round_is_by_the_round_its_puzzles_came_from(stores: dict[str, str],
                                                                            capsys: pytest.CaptureFixture) -> None:
    capsys.readouterr()
    assert main(["report", "--game", "duel", "--db", stores["duel-bank"], "--table", "by_round", "--format",
                 "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["by_round"]
    assert rows and sum(r["asked"] for r in rows) == 3 and {r["round"] for r in rows} <= {1, 2}
