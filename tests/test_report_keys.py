"""What keeps a report's rows apart: every keyed parameter of the game (defaults filled in), the
protocol, and whether a time budget cut a game's decisions short.  Games are played by
``tcgtui bench`` into a real store and read back by ``tcgtui report``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.store import Store
from tests.grid.test_grid_seed_protocol import CHECKOUT


def bench(db: Path, run: str, *extra: str) -> None:
    assert main(["bench", "--game", "tictactoe", "--agent", "random", "--vs", "random", "--games", "2",
                 "--seed", "7", "--run", run, "--db", str(db), *extra]) == 0


def rows(db: Path, capsys: pytest.CaptureFixture, *extra: str) -> dict[str, int]:
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--format", "csv", *extra]) == 0
    return {r["agent"]: int(r["games"]) for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}


def test_two_runs_differing_only_in_a_parameter_are_two_rows_an_explicit_default_none(tmp_path, capsys):
    db = tmp_path / "k.sqlite3"
    bench(db, "short", "--param", "move_cap=5")
    bench(db, "full")
    bench(db, "explicit", "--param", "move_cap=20")        # tictactoe's default, said aloud
    assert rows(db, capsys) == {"random [move_cap=5]": 2, "random [move_cap=20]": 4}
    # --by chooses the other keys; the game's parameters are kept apart whatever it says
    assert rows(db, capsys, "--by", "lang") == {"random [move_cap=5]": 2, "random [move_cap=20]": 4}
    # a run of one setting alone: nothing differs, so the player keeps its name
    assert rows(db, capsys, "--run", "full", "explicit") == {"random": 4}


def test_settings_show_every_parameter_per_run(tmp_path, capsys):
    db = tmp_path / "k.sqlite3"
    bench(db, "short", "--param", "move_cap=5")
    bench(db, "full")
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--format", "json", "--settings"]) == 0
    params = {r["run"]: r for r in json.loads(capsys.readouterr().out)["params"]}
    assert params["short"]["move_cap"] == "5" and params["full"]["move_cap"] == "20"
    assert params["short"]["games"] == params["full"]["games"] == 2
    assert params["full"]["invalid_limit"] == "3" and params["full"]["protocol"] == "tcgtui"


def test_two_runs_differing_only_in_the_protocol_are_two_rows(tmp_path, capsys):
    db = tmp_path / "k.sqlite3"
    bench(db, "seed", "--protocol", "seed", "--upstream", str(CHECKOUT))
    bench(db, "arena")
    assert rows(db, capsys) == {"random [protocol=seed]": 2, "random [protocol=tcgtui]": 2}
    assert rows(db, capsys, "--by", "style") == {"random [protocol=seed]": 2, "random [protocol=tcgtui]": 2}


def test_games_with_budget_cut_decisions_are_a_row_of_their_own(tmp_path, capsys):
    db = tmp_path / "k.sqlite3"
    bench(db, "whole")
    with Store(db) as store:            # as the TUI's games while the fast path compiles record a cut search
        game = store.games()[0]
        decisions = store.decisions(game.id)
        decisions[0].info.update(budget_s=1.0, budget_cut=True, done=3, asked=100)
        game.id, game.run_id = "cut-game", None
        store.save_game(game, decisions)
        assert store.games("id = 'cut-game'")[0].game_params["budget_cut"] == 1
        assert "budget_cut" not in store.games("id != 'cut-game'")[0].game_params
    assert rows(db, capsys) == {"random [budget_cut=no]": 2, "random [budget_cut=yes]": 1}
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--format", "json", "--table", "decisions"]) == 0
    decided = {r["agent"]: r["decisions"] for r in json.loads(capsys.readouterr().out)["decisions"]}
    assert set(decided) == {"random [budget_cut=no]", "random [budget_cut=yes]"}
