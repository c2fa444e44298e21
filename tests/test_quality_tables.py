"""Decision quality's further tables (issue 40): regret by phase, strategic diversity and
adaptability, on small real stores made by ``tcgtui bench`` and ``tcgtui analyze``, against hand
computations from the store itself."""

from __future__ import annotations

import json
import math
import sqlite3
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tcgtui.cli import main
from tcgtui.quality.adaptability import slope_interval, slopes, strength
from tcgtui.engine.grid import region
from tcgtui.quality.diversity import entropy
from tcgtui.quality import stored
from tcgtui.quality.phases import third
from tcgtui.quality.ranking import difference, regret_ranking
from tcgtui.store import FINISHED, Store


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
            f" JOIN decisions d USING (game_id, idx) JOIN games g ON g.id = v.game_id"
            f" GROUP BY d.agent, phase").fetchall()
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


# --- strategic diversity ---------------------------------------------------------------------------

def test_entropy_and_regions_by_hand() -> None:
    assert entropy(Counter(a=2, b=2)) == 1.0 and entropy(Counter(a=5)) == 0.0
    assert entropy(Counter(a=1, b=1, c=2)) == pytest.approx(1.5)
    assert [region(m, 3, 3) for m in ("1,1", "3,3", "1,2", "2,3", "2,2")] == ["corner"] * 2 + ["edge"] * 2 + ["inside"]
    assert [region(m, 4, 4) for m in ("4,1", "4,2", "2,3")] == ["corner", "edge", "inside"]


def test_diversity_of_cell_regions_equals_a_hand_count(tictactoe: Path, capsys) -> None:
    rows = _table(capsys, tictactoe, "diversity", "tictactoe")
    conn = sqlite3.connect(tictactoe)
    regions = conn.execute(
        "SELECT agent, CASE (substr(move, 1, 1) IN ('1', '3')) + (substr(move, 3, 1) IN ('1', '3'))"
        " WHEN 2 THEN 'corner' WHEN 1 THEN 'edge' ELSE 'inside' END AS region, count(*) FROM decisions"
        " WHERE move NOT LIKE '!%' GROUP BY agent, region").fetchall()
    conn.close()
    for agent in ("random", "perfect"):
        counts = Counter({region: n for who, region, n in regions if who == agent})
        whole = next(r for r in rows if r["agent"] == agent and r["phase"] == "all")
        assert whole["choice"] == "region" and whole["counted"] == sum(counts.values())
        assert whole["entropy_bits"] == pytest.approx(entropy(counts))
        assert whole["max_bits"] == pytest.approx(math.log2(3)) and 0 < whole["entropy_bits"] <= whole["max_bits"]
        phased = [r for r in rows if r["agent"] == agent and r["by"] == "move"]
        assert [r["phase"] for r in phased] == ["opening", "middle", "end"]
        assert sum(r["counted"] for r in phased) == whole["counted"]


def test_diversity_of_card_types_by_the_card_games_turns(card_game: Path, capsys) -> None:
    rows = _table(capsys, card_game, "diversity")
    assert {r["choice"] for r in rows} == {"card type"} and {r["by"] for r in rows} == {"all", "move", "turn"}
    conn = sqlite3.connect(card_game)
    kinds = conn.execute("SELECT agent, kind, count(*) FROM decisions WHERE kind IS NOT NULL"
                         " GROUP BY agent, kind").fetchall()
    conn.close()
    for agent in ("random", "mc:5"):
        counts = Counter({kind: n for who, kind, n in kinds if who == agent})
        whole = next(r for r in rows if r["agent"] == agent and r["phase"] == "all")
        assert whole["counted"] == sum(counts.values()) and whole["entropy_bits"] == pytest.approx(entropy(counts))
        assert sum(r["counted"] for r in rows if r["agent"] == agent and r["by"] == "turn") == whole["counted"]


# --- adaptability ----------------------------------------------------------------------------------

def test_the_slope_is_on_log2_k_and_a_constant_game_has_no_spread() -> None:
    ks = np.array([1.0, 4.0, 16.0])
    assert slopes(ks, np.array([0.3, 0.2, 0.1])) == pytest.approx(-0.05)       # 0.1 less per two doublings
    means = np.random.default_rng(0).random(3)
    assert slopes(ks, means) == pytest.approx(np.polyfit(np.log2(ks), means, 1)[0])
    # every game at a K has the same mean: each resample gives the same slope
    per_k = [np.array([[0.9, 3.0]] * 4), np.array([[0.4, 2.0]] * 3), np.array([[0.0, 5.0]] * 2)]
    low, high = slope_interval(ks, per_k, 0)
    assert low == pytest.approx(high) == pytest.approx(slopes(ks, np.array([0.3, 0.2, 0.0])))
    assert slope_interval(ks, [np.array([[1.0, 2.0]])] * 3, 0) is None
    assert [strength(s) for s in ("mc:5", "mc:1000", "mcts:5", "random", "mc:05")] == [5, 1000, None, None, None]


def test_adaptability_against_the_ladder_equals_a_hand_fit(tmp_path: Path, capsys) -> None:
    db = _analyzed(tmp_path / "ladder.sqlite3", "--game", "tictactoe", "--agent", "random", "--vs", "mc:1,mc:16",
                   "--games", "8", "--seed", "6")
    rows = _table(capsys, db, "adaptability", "tictactoe")
    assert {r["agent"] for r in rows} == {"random"}                 # mc:K's opponent, random, has no K
    conn = sqlite3.connect(db)
    hand = dict((int(k.removeprefix("mc:")), (n, total)) for k, n, total in conn.execute(
        "SELECT g.opponent, count(*), sum(v.regret) FROM decision_values v JOIN decisions d USING (game_id, idx)"
        " JOIN games g ON g.id = v.game_id WHERE d.agent = 'random' GROUP BY g.opponent"))
    conn.close()
    assert [r["opponent_k"] for r in rows] == [1, 16]
    for r in rows:
        n, total = hand[r["opponent_k"]]
        assert r["judged"] == n and r["mean_regret"] == pytest.approx(total / n) and r["games"] == 8
    fit = np.polyfit([0, 4], [rows[0]["mean_regret"], rows[1]["mean_regret"]], 1)[0]
    assert all(r["slope"] == pytest.approx(fit) for r in rows)
    assert rows[0]["slope_low"] <= rows[0]["slope"] <= rows[0]["slope_high"]


def test_one_strength_has_no_slope(card_game: Path, capsys) -> None:
    rows = _table(capsys, card_game, "adaptability")
    assert [(r["agent"], r["opponent_k"], r["evaluator"]) for r in rows] == [("random", 5, "mc:50")]
    assert rows[0]["slope"] is None and rows[0]["mean_regret"] > 0


def test_report_list_offers_the_tables_to_the_games_that_have_them(capsys) -> None:
    def listed(game: str) -> set[str]:
        capsys.readouterr()
        assert main(["report", "--game", game, "--list"]) == 0
        return {line.split()[0] for line in capsys.readouterr().out.splitlines()[1:] if line.strip()}

    new = {"quality_by_phase", "diversity", "adaptability", "regret_ranking"}
    for game in ("tictactoe", "connect4", "gomoku", "tcg"):      # gomoku: judged by --evaluator mc:K
        assert new <= listed(game), game
    # the quiz is judged (oracle:K) but has one answer a game, no opponent and no categories of choice
    assert new & listed("deck") == {"regret_ranking"} and "quality" in listed("deck")


# --- a ranking from mean regret (part 3b) ----------------------------------------------------------

class _Values:
    """A stand-in for the store's reader: per game, its one seat's regrets."""

    def __init__(self, regrets: dict[str, list[float]]) -> None:
        self.regrets, self.missing, self.decisions = regrets, 0, 0

    def __call__(self, ids: list[str]) -> stored.Stored:
        out = stored.Stored()
        for gid in ids:
            out.values += [stored.Value(gid, i, 0, "e", r, int(r == 0), None, i)
                           for i, r in enumerate(self.regrets[gid])]
            out.made[(gid, 0)] = len(self.regrets[gid])
            out.lengths[gid] = (len(self.regrets[gid]), len(self.regrets[gid]))
        return out


def _ranked(players: dict[str, list[list[float]]]) -> list[dict]:
    games, regrets = [], {}
    for agent, per_game in players.items():
        for i, values in enumerate(per_game):
            gid = f"{agent}-{i}"
            regrets[gid] = values
            games.append(SimpleNamespace(id=gid, seat=0, agent=agent, opponent="x", lang="en", status=FINISHED,
                                         mirror=False, seats=(agent,)))
    return regret_ranking(games, SimpleNamespace(decision_values=_Values(regrets), seed=0))


def test_the_difference_resamples_each_players_games_apart() -> None:
    zero, one = np.array([[0.0, 3.0], [0.0, 3.0]]), np.array([[3.0, 3.0], [3.0, 3.0]])
    assert difference(zero, one, 0) == (1.0, 1.0)
    half = np.array([[0.0, 3.0], [3.0, 3.0]])       # each mean 0, 1/2 or 1 (1/4, 1/2, 1/4): the difference -1 .. 1
    assert difference(half, half, 0) == (-1.0, 1.0)
    assert difference(zero[:1], one, 0) is None


def test_players_are_ranked_by_mean_regret_with_the_order_established_or_not() -> None:
    # beta's two games: mean 0 or 1 each, so its resampled mean is 0, 1/2 or 1 (1/4, 1/2, 1/4)
    rows = _ranked({"alpha": [[2, 2]] * 3, "beta": [[0, 0], [1, 1]], "gamma": [[0, 0], [0, 0]]})
    got = [(r["rank"], r["agent"], r["mean_regret"], r["ci_low"], r["ci_high"], r["next"], r["gap"], r["gap_low"],
            r["gap_high"], r["established"]) for r in rows]
    assert got == [(1, "gamma", 0.0, 0.0, 0.0, "beta", 0.5, 0.0, 1.0, False),      # 0 in the interval: not known
                   (2, "beta", 0.5, 0.0, 1.0, "alpha", 1.5, 1.0, 2.0, True),        # 2 - (0, 1/2 or 1): at least 1
                   (3, "alpha", 2.0, 2.0, 2.0, None, None, None, None, None)]
    one = _ranked({"a": [[1.0]], "b": [[0.0], [0.0]]})           # one game: no interval, no order established
    assert [(r["agent"], r["established"]) for r in one] == [("b", False), ("a", None)] and one[1]["ci_low"] is None


@pytest.fixture(scope="module")
def two_against_one(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """random and mc:16 each against perfect, 30 games, judged by perfect."""
    return _analyzed(tmp_path_factory.mktemp("two") / "t.sqlite3", "--game", "tictactoe", "--agent", "random",
                     "--agent", "mc:16", "--vs", "perfect", "--games", "30", "--seed", "4")


def test_the_ranking_of_a_stored_run_agrees_with_the_quality_table(two_against_one: Path, capsys) -> None:
    quality = {(r["agent"], r["opponent"]): r for r in _table(capsys, two_against_one, "quality", "tictactoe")}
    rows = _table(capsys, two_against_one, "regret_ranking", "tictactoe")
    against = [r for r in rows if r["opponent"] == "perfect"]       # perfect's own rows: one player a group
    assert [(r["rank"], r["agent"], r["next"]) for r in against] == [(1, "mc:16", "random"), (2, "random", None)]
    assert {(r["opponent"], r["agent"], r["rank"]) for r in rows if r not in against} == {
        ("mc:16", "perfect", 1), ("random", "perfect", 1)}
    for r in rows:
        assert (r["mean_regret"], r["ci_low"], r["ci_high"]) == tuple(quality[(r["agent"], r["opponent"])][k] for k in
                                                                       ("mean_regret", "ci_low", "ci_high"))
    top = against[0]
    assert top["gap"] == pytest.approx(quality[("random", "perfect")]["mean_regret"] - top["mean_regret"])
    assert top["gap"] > 0 and top["established"] and 0 < top["gap_low"] < top["gap"] < top["gap_high"]
    capsys.readouterr()
    assert main(["report", "--db", str(two_against_one), "--game", "tictactoe", "--table", "regret_ranking"]) == 0
    out = capsys.readouterr().out
    assert "Order at 95%" in out and "excludes 0" in out
