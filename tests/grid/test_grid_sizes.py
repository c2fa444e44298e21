"""Larger boards as a game parameter (the grid paper's future work): Tic-Tac-Toe on 4 by 4, four in a
row; Gomoku on 19 by 19, five in a row.  The seed's own boards stay the default and keep their records'
identity; the seed's protocol plays only its own boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import Match, replay
from tcgtui.engine.registry import ParamError


def make(game_id: str, **params):
    spec = registry.get(game_id)
    return spec.make(spec.info.resolve(params))


def test_four_by_four_tic_tac_toe_is_won_by_four_in_a_row_not_three():
    game = make("tictactoe", size=4)
    match = Match(game, 0)
    for move in ("1,1", "4,1", "1,2", "4,2", "1,3", "4,3"):
        match.play(move)
    assert not match.state.is_terminal() and len(match.state.legal_moves()) == 10     # three in a row: no line
    match.play("1,4")
    assert match.state.outcome.winner == 0 and match.state.outcome.reason == "line"
    sentences = dict(registry.get("tictactoe").rules_text(game, locales.load("en")))
    assert "4 rows and 4 columns" in sentences["grid.rules.coords"] and "line of 4" in sentences["grid.rules.line_mark"]


def test_nineteen_by_nineteen_gomoku_has_its_far_corner_and_five_win():
    game = make("gomoku", size=19)
    state = game.new_state(0)
    assert len(state.legal_moves()) == 361 and state.validate("19,19") is None and state.validate("20,1") == "out_of_bounds"
    match = Match(game, 0)
    for i in range(4):
        match.play(f"19,{15 + i}")
        match.play(f"1,{1 + i}")
    match.play("19,19")
    assert match.state.outcome.winner == 0
    again = replay(make("gomoku", **{k: v for k, v in match.record().setup.items()}), match.record())
    assert again.state.to_json() == match.state.to_json()


def test_the_seeds_boards_are_the_default_and_keep_their_records_identity():
    assert "size" not in make("tictactoe").setup() and "size" not in make("gomoku", size=15).setup()
    assert make("tictactoe", size=4).setup()["size"] == 4
    assert "size" not in {p.name for p in registry.get("connect4").info.params}
    with pytest.raises(ParamError, match="size=5: expected one of 3, 4"):
        registry.get("tictactoe").info.resolve({"size": 5})


def test_bench_and_report_on_a_larger_board_and_the_seed_protocol_refuses_it(tmp_path: Path, capsys):
    db = str(tmp_path / "g.sqlite3")
    assert main(["bench", "--game", "tictactoe", "--param", "size=4", "--agent", "random", "--vs", "random",
                 "--games", "2", "--db", db]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", db, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sum(r["finished"] for r in report["win_rates"]) == 2
    assert main(["bench", "--game", "gomoku", "--param", "size=19", "--protocol", "seed", "--agent", "random",
                 "--vs", "random", "--db", db]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "the seed's simulator plays gomoku on its own 15 by 15 board only, not size 19" in err
