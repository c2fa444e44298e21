"""The grid games' rates by seat (the grid benchmark's Figures 3-11) and its two normalisations of
missed chances (per game, per valid move), on games played by ``tcgtui bench`` into a real store,
checked against the leaderboard's counts of the same games, and drawn by ``report --plot DIR``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtui.cli import main


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict:
    db = tmp_path_factory.mktemp("seat") / "games.sqlite3"
    assert main(["bench", "--game", "tictactoe", "--agent", "random", "--vs", "perfect", "--games", "24",
                 "--seed", "3", "--run", "r", "--db", str(db)]) == 0
    return {"db": db}


def _json(capsys, db: Path, *extra: str) -> dict:
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_seat_rates_count_what_the_leaderboard_counts(report, capsys) -> None:
    out = _json(capsys, report["db"])
    rows = {r["mover"]: r for r in out["seat_rates"] if r["agent"] == "random"}
    board = [r for r in _json(capsys, report["db"], "--table", "leaderboard")["leaderboard"] if r["agent"] == "random"]
    first, second = rows["first"], rows["second"]
    assert first["wins"] == sum(r["W1st"] for r in board) and second["wins"] == sum(r["W2nd"] for r in board)
    assert first["draws"] + second["draws"] == sum(r["Dr"] for r in board)
    assert first["games"] + second["games"] == sum(r["games"] - r["cancelled"] for r in board) == 24
    for r in (first, second):
        assert r["win_rate"] == pytest.approx(r["wins"] / r["games"])
        assert r["draw_rate"] == pytest.approx(r["draws"] / r["games"])
        assert r["win_rate_ci_low"] <= r["win_rate"] <= r["win_rate_ci_high"]


def test_missed_chances_per_game_and_per_valid_move(report, capsys) -> None:
    for r in _json(capsys, report["db"])["missed"]:
        missed = r["missed_wins"] + r["missed_blocks"]
        assert r["missed_per_game"] == pytest.approx(missed / r["games"])
        assert r["missed_valid_rate"] == pytest.approx(missed / r["valid"])


def test_the_figure_is_drawn_with_the_report(report, tmp_path, capsys) -> None:
    assert main(["report", "--game", "tictactoe", "--db", str(report["db"]), "--plot", str(tmp_path / "figs")]) == 0
    png = tmp_path / "figs" / "seat_rates.png"
    assert png.read_bytes()[:4] == b"\x89PNG" and "seat_rates.png" in capsys.readouterr().err
