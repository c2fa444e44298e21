"""Decision quality's further tables (issue 40): regret by phase, strategic diversity and
adaptability, on small real stores made by ``tcgtui bench`` and ``tcgtui analyze``, against hand
computations from the store itself."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.quality.phases import third
from tcgtui.store import Store


def _table(capsys: pytest.CaptureFixture, db: Path, name: str, game: str | None = None) -> list[dict]:
    capsys.readouterr()
    argv = ["report", "--db", str(db), "--table", name, "--format", "json", *(["--game", game] if game else [])]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)[name]


def _analyzed(db: Path, *bench: str, evaluator: str | None = None) -> Path:
    assert main(["bench", "--db", str(db), *bench]) == 0
    with Store(db) as store:
        runs = [r.name for r in store.runs()]
    for run in runs:
        assert main(["analyze", "--run", run, "--db", str(db), *(["--evaluator", evaluator] if evaluator else [])]) == 0
    return db


@pytest.fixture(scope="module")
def tictactoe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """random against perfect, 12 games, judged by perfect."""
    return _analyzed(tmp_path_factory.mktemp("ttt") / "t.sqlite3", "--game", "tictactoe", "--agent", "random",
                     "--vs", "perfect", "--games", "12", "--seed", "4")


@pytest.fixture(scope="module")
def card_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The card game: random against mc:5, 3 games, judged by mc:50."""
    return _analyzed(tmp_path_factory.mktemp("tcg") / "c.sqlite3", "--agent", "random", "--vs", "mc:5",
                     "--games", "3", "--seed", "1", evaluator="mc:50")


# --- regret by phase -------------------------------------------------------------------------------

def test_a_games_thirds_are_of_its_own_length() -> None:
    assert [third(i, 9) for i in range(9)] == ["opening"] * 3 + ["middle"] * 3 + ["end"] * 3
    assert [third(i, 5) for i in range(5)] == ["opening", "opening", "middle", "middle", "end"]
    assert [third(i, 1) for i in range(1)] == ["opening"]


def _by_hand(db: Path, position: str, length: str) -> dict[tuple[str, str], tuple[int, float, int]]:
    """(player, phase) -> (decisions, total regret, blunders), the phase by integer comparisons in SQL."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            f"SELECT d.agent, CASE WHEN 3 * ({position}) < {length} THEN 'opening'"
            f" WHEN 3 * ({position}) < 2 * {length} THEN 'middle' ELSE 'end' END AS phase,"
            f" count(*), sum(v.regret), sum(v.regret > 0.5) FROM decision_values v"
            f" JOIN decisions d USING (game_id, idx) JOIN games g ON g.id = v.game_id GROUP BY d.agent, phase").fetchall()
    finally:
        conn.close()
    return {(agent, phase): (n, total, blunders) for agent, phase, n, total, blunders in rows}


def test_regret_by_move_phase_equals_a_hand_count(tictactoe: Path, capsys) -> None:
    rows = _table(capsys, tictactoe, "quality_by_phase", "tictactoe")
    assert {r["by"] for r in rows} == {"move"}           # a grid game's turns are its moves
    hand = _by_hand(tictactoe, "v.idx", "g.moves")
    assert {(r["agent"], r["phase"]) for r in rows} == set(hand)
    for r in rows:
        n, total, blunders = hand[(r["agent"], r["phase"])]
        assert (r["judged"], r["blunders"]) == (n, blunders)
        assert r["mean_regret"] == pytest.approx(total / n)
        assert r["ci_low"] <= r["mean_regret"] <= r["ci_high"]
    whole = {r["agent"]: r for r in _table(capsys, tictactoe, "quality", "tictactoe")}
    for agent, row in whole.items():           # the phases split each player's decisions
        assert sum(r["judged"] for r in rows if r["agent"] == agent) == row["judged"]
    random_end = next(r for r in rows if r["agent"] == "random" and r["phase"] == "end")
    random_opening = next(r for r in rows if r["agent"] == "random" and r["phase"] == "opening")
    assert random_end["mean_regret"] > random_opening["mean_regret"]       # perfect punishes late


def test_the_card_game_has_phases_by_its_own_turns_too(card_game: Path, capsys) -> None:
    rows = _table(capsys, card_game, "quality_by_phase")
    assert {r["by"] for r in rows} == {"move", "turn"} and {r["evaluator"] for r in rows} == {"mc:50"}
    for by, position, length in (("move", "v.idx", "g.moves"), ("turn", "d.turn - 1", "g.turns")):
        hand = _by_hand(card_game, position, length)
        mine = {(r["agent"], r["phase"]): r for r in rows if r["by"] == by}
        assert set(mine) == set(hand)
        for key, (n, total, _) in hand.items():
            assert mine[key]["judged"] == n and mine[key]["mean_regret"] == pytest.approx(total / n)
