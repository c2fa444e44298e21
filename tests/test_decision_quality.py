"""Decision quality (issue 40, part 1): regret on grid positions of known value, values stored once
per evaluator, and the report's table against a hand computation."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from tcgtui.arena import build_game
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.quality.compute import plan
from tcgtui.quality.table import BLUNDER, interval
from tcgtui.store import Store
from tcgtui.store.schema import LATEST


def _cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _bench(capsys: pytest.CaptureFixture, db: Path, *argv: str) -> str:
    code, _, err = _cli(capsys, "bench", "--db", str(db), *argv)
    assert code == 0, err
    with Store(db) as store:
        return store.runs()[-1].name


def _values(db: Path) -> list[tuple]:
    """(player, seat, move, regret, agrees, computed_at) of every stored value, in game and decision order."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT d.agent, v.seat, d.move, v.regret, v.agrees, v.computed_at FROM decision_values v"
                            " JOIN decisions d USING (game_id, idx) ORDER BY v.game_id, v.idx").fetchall()
    finally:
        conn.close()


def _position(game_id: str, rows: str, to_move: str):  # noqa: ANN202
    spec = registry.get(game_id)
    game = build_game(spec, {"position": rows, "to_move": to_move})
    return spec.tools.evaluate(game, None), game.new_state(0)


# --- values of positions with known outcomes ------------------------------------------------------

def test_tictactoe_a_thrown_away_win_costs_two_and_a_draw_instead_costs_one() -> None:
    evaluator, state = _position("tictactoe", "XX./OO./...", "X")
    values = evaluator.values(state)
    assert evaluator.key == "perfect"
    assert values["1,3"] == 1                          # wins at once
    assert values["2,3"] == 0                          # blocks O's row, and the game is drawn
    assert {values[m] for m in ("3,1", "3,2", "3,3")} == {-1}    # O completes its row
    regret = {m: max(values.values()) - v for m, v in values.items()}
    assert regret == {"1,3": 0, "2,3": 1, "3,1": 2, "3,2": 2, "3,3": 2}


def test_connect4_missing_the_win_or_the_block_is_a_blunder_of_alpha_beta() -> None:
    evaluator, state = _position("connect4", "......./......./......./O....../OO...../XXX....", "X")
    values = evaluator.values(state)
    assert evaluator.key == "ab:8" and values["4"] == 1
    assert all(abs(v) < 1 and 1 - v > BLUNDER for m, v in values.items() if m != "4")
    # O to move must block column 4: anywhere else X completes its row
    evaluator, state = _position("connect4", "......./......./......./......./OO...../XXX....", "O")
    values = evaluator.values(state)
    assert all(v == -1 for m, v in values.items() if m != "4") and values["4"] > -1


def test_a_game_without_an_evaluator_on_its_board_says_so() -> None:
    spec = registry.get("gomoku")
    with pytest.raises(ValueError, match="no evaluator"):
        spec.tools.evaluate(build_game(spec, {}), None)
    spec = registry.get("connect4")
    with pytest.raises(ValueError, match="ab:D"):
        spec.tools.evaluate(build_game(spec, {}), "ab:99")


# --- stored decisions ----------------------------------------------------------------------------

def test_the_stored_first_moves_of_a_known_position_get_their_exact_regret(tmp_path: Path, capsys) -> None:
    db = tmp_path / "q.sqlite3"
    run = _bench(capsys, db, "--game", "tictactoe", "--position", "XX./OO./...", "--to-move", "X",
                 "--agent", "random", "--vs", "perfect", "--games", "20", "--seed", "3")
    code, out, _ = _cli(capsys, "analyze", "--run", run, "--db", str(db))
    assert code == 0 and "evaluator: perfect" in out
    conn = sqlite3.connect(db)
    firsts = conn.execute("SELECT d.move, v.regret, v.agrees, v.move_values FROM decision_values v"
                          " JOIN decisions d USING (game_id, idx) WHERE v.idx = 0").fetchall()
    conn.close()
    expected = {"1,3": 0, "2,3": 1, "3,1": 2, "3,2": 2, "3,3": 2}
    assert len(firsts) == 20 and {m for m, *_ in firsts} - {"1,3"}        # random threw some away
    for move, regret, agrees, values in firsts:
        assert regret == expected[move] and agrees == (move == "1,3")
        assert json.loads(values) == {m: 1 - r for m, r in expected.items()}


@pytest.fixture(scope="module")
def perfect_vs_random(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A real bench of random against perfect, analyzed once."""
    db = tmp_path_factory.mktemp("pvr") / "q.sqlite3"
    assert main(["bench", "--db", str(db), "--game", "tictactoe", "--agent", "random", "--vs", "perfect",
                 "--games", "30", "--seed", "5"]) == 0
    with Store(db) as store:
        run = store.runs()[-1].name
    assert main(["analyze", "--run", run, "--db", str(db)]) == 0
    return db, run


def test_perfect_never_regrets_and_every_legal_decision_is_valued(perfect_vs_random) -> None:
    db, _ = perfect_vs_random
    values = _values(db)
    conn = sqlite3.connect(db)
    made = conn.execute("SELECT count(*) FROM decisions WHERE move NOT LIKE '!%'").fetchone()[0]
    conn.close()
    assert len(values) == made > 0
    perfect = [v for v in values if v[0] == "perfect"]
    randoms = [v for v in values if v[0] == "random"]
    assert perfect and all(regret == 0 and agrees == 1 for _, _, _, regret, agrees, _ in perfect)
    assert any(regret > 0 for _, _, _, regret, _, _ in randoms)        # the measure can tell them apart


def test_a_second_analyze_computes_and_stores_nothing(perfect_vs_random, capsys) -> None:
    db, run = perfect_vs_random
    before = _values(db)
    code, out, _ = _cli(capsys, "analyze", "--run", run, "--db", str(db))
    assert code == 0 and f"0 decisions valued now, {len(before)} were stored already" in out
    assert _values(db) == before                      # computed_at included: nothing was rewritten
    with Store(db) as store:
        assert plan(store, run).jobs == []             # nothing is judged again, not only nothing stored


def test_analyze_resumes_what_is_missing_and_workers_give_the_same_values(tmp_path: Path, capsys) -> None:
    db = tmp_path / "q.sqlite3"
    run = _bench(capsys, db, "--game", "connect4", "--agent", "random", "--vs", "ab:2", "--games", "4", "--seed", "1")
    assert _cli(capsys, "analyze", "--run", run, "--db", str(db), "--evaluator", "ab:4")[0] == 0
    whole = [v[:5] for v in _values(db)]
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM decision_values WHERE idx % 2 = 1")       # as if the first analysis stopped
    conn.commit()
    left = conn.execute("SELECT count(*) FROM decision_values").fetchone()[0]
    conn.close()
    code, out, _ = _cli(capsys, "analyze", "--run", run, "--db", str(db), "--evaluator", "ab:4", "--workers", "2")
    assert code == 0 and f"{len(whole) - left} decisions valued now, {left} were stored already" in out
    assert [v[:5] for v in _values(db)] == whole


def test_player_judges_only_that_players_decisions_and_the_rest_later(tmp_path: Path, capsys) -> None:
    db = tmp_path / "q.sqlite3"
    run = _bench(capsys, db, "--game", "tictactoe", "--agent", "random", "--vs", "perfect", "--games", "6")
    assert _cli(capsys, "analyze", "--run", run, "--db", str(db), "--player", "random")[0] == 0
    only = _values(db)
    assert only and {v[0] for v in only} == {"random"}
    conn = sqlite3.connect(db)
    randoms = conn.execute("SELECT count(*) FROM decisions WHERE agent = 'random' AND move NOT LIKE '!%'").fetchone()[0]
    conn.close()
    assert len(only) == randoms
    code, out, _ = _cli(capsys, "analyze", "--run", run, "--db", str(db))       # the opponent's, now
    assert code == 0 and f"{randoms} were stored already" in out
    assert {v[0] for v in _values(db)} == {"random", "perfect"} and [v for v in _values(db) if v[0] == "random"] == only
    code, _, err = _cli(capsys, "analyze", "--run", run, "--db", str(db), "--player", "mc:7")
    assert code == 2 and err.count("\n") == 1
    assert "--player: mc:7 played no game of run" in err and "perfect, random" in err


def test_another_evaluator_is_another_key(tmp_path: Path, capsys) -> None:
    db = tmp_path / "q.sqlite3"
    run = _bench(capsys, db, "--game", "connect4", "--agent", "random", "--vs", "random", "--games", "1")
    for spec in ("ab:2", "ab:3"):
        assert _cli(capsys, "analyze", "--run", run, "--db", str(db), "--evaluator", spec)[0] == 0
    conn = sqlite3.connect(db)
    keys = dict(conn.execute("SELECT evaluator, count(*) FROM decision_values GROUP BY evaluator").fetchall())
    conn.close()
    assert set(keys) == {"ab:2", "ab:3"} and keys["ab:2"] == keys["ab:3"] > 0


# --- bad input: one line -------------------------------------------------------------------------

def test_bad_input_is_one_line(perfect_vs_random, tmp_path: Path, capsys) -> None:
    db, run = perfect_vs_random
    cases = [(["--run", "nope"], "--run: no run named nope"),
             (["--run", run, "--evaluator", "ab:3"], "--evaluator: ab:3 cannot judge tictactoe"),
             (["--run", run, "--game-id", "abc"], "--game-id: no stored game"),
             (["--run", run, "--workers", "0"], "--workers"),
             (["--game-id", "abc"], "--game-id: names a stored game of a run")]
    for argv, said in cases:
        code, out, err = _cli(capsys, "analyze", "--db", str(db), *argv)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    gomoku = tmp_path / "g.sqlite3"
    run = _bench(capsys, gomoku, "--game", "gomoku", "--agent", "random", "--vs", "random", "--games", "1")
    code, _, err = _cli(capsys, "analyze", "--run", run, "--db", str(gomoku))
    assert code == 2 and "none of its finished games has an evaluator" in err and len(err.strip().splitlines()) == 1
    with Store(gomoku) as store:
        gid = store.games()[0].id
    code, _, err = _cli(capsys, "analyze", "--run", run, "--db", str(gomoku), "--game-id", gid[:8])
    assert code == 2 and "cannot be judged" in err and len(err.strip().splitlines()) == 1


# --- the report's table --------------------------------------------------------------------------

def test_the_interval_resamples_games() -> None:
    # two games of three decisions, all regret 0 in one and all 1 in the other: a resample holds the
    # first twice, both, or the second twice (1/4, 1/2, 1/4), so the 2.5% and 97.5% points are 0 and 1
    assert interval(np.array([0.0, 3.0]), np.array([3.0, 3.0]), 0) == (0.0, 1.0)
    assert interval(np.array([0.0]), np.array([3.0]), 0) is None
    assert interval(np.array([2.0, 2.0, 2.0]), np.array([4.0, 4.0, 4.0]), 0) == (0.5, 0.5)


def test_the_report_equals_a_hand_computation(perfect_vs_random, tmp_path: Path, capsys) -> None:
    src, _ = perfect_vs_random
    db = tmp_path / "hand.sqlite3"
    with sqlite3.connect(src) as a, sqlite3.connect(db) as b:
        a.backup(b)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE decision_values SET regret = 0, agrees = 1")
    rows = conn.execute("SELECT v.game_id, v.idx FROM decision_values v JOIN decisions d USING (game_id, idx)"
                        " WHERE d.agent = 'random' ORDER BY v.game_id, v.idx").fetchall()
    # random: one win thrown away (2), one draw given up for a loss (1), one disagreement worth 0.25
    for (gid, idx), regret in zip(rows, (2.0, 1.0, 0.25)):
        conn.execute("UPDATE decision_values SET regret = ?, agrees = 0 WHERE game_id = ? AND idx = ?", (regret, gid, idx))
    conn.commit()
    n_random, games = len(rows), conn.execute("SELECT count(*) FROM games").fetchone()[0]
    n_perfect = conn.execute("SELECT count(*) FROM decision_values v JOIN decisions d USING (game_id, idx)"
                             " WHERE d.agent = 'perfect'").fetchone()[0]
    conn.close()
    code, out, err = _cli(capsys, "report", "--game", "tictactoe", "--db", str(db), "--table", "quality",
                          "--format", "json")
    assert code == 0 and "analyze" not in err
    report = json.loads(out)
    table = {r["agent"]: r for r in report["quality"]}
    assert table["random"] == {**table["random"], "opponent": "perfect", "lang": "en", "evaluator": "perfect",
                               "games": games, "judged": n_random, "blunders": 2}
    assert table["random"]["mean_regret"] == pytest.approx(3.25 / n_random)
    assert table["random"]["blunder_rate"] == pytest.approx(2 / n_random)
    assert table["random"]["agreement_rate"] == pytest.approx((n_random - 3) / n_random)
    assert table["random"]["ci_low"] <= table["random"]["mean_regret"] <= table["random"]["ci_high"]
    assert {k: table["perfect"][k] for k in ("judged", "mean_regret", "ci_low", "ci_high", "blunders",
                                             "agreement_rate")} == {"judged": n_perfect, "mean_regret": 0,
                                                                    "ci_low": 0, "ci_high": 0, "blunders": 0,
                                                                    "agreement_rate": 1}
    assert str(BLUNDER) in " ".join(report["notes"])
    code, out, _ = _cli(capsys, "report", "--game", "tictactoe", "--db", str(db), "--table", "quality")
    assert code == 0 and "Mean regret" in out and "random" in out


def test_the_report_asks_for_analyze_when_values_are_missing(tmp_path: Path, capsys) -> None:
    db = tmp_path / "q.sqlite3"
    run = _bench(capsys, db, "--game", "tictactoe", "--agent", "random", "--vs", "random", "--games", "2")
    code, out, err = _cli(capsys, "report", "--game", "tictactoe", "--db", str(db), "--table", "quality")
    lines = [line for line in err.splitlines() if "tcgtui analyze" in line]
    assert code == 0 and len(lines) == 1 and run in lines[0]
    code, out, _ = _cli(capsys, "report", "--game", "tictactoe", "--db", str(db), "--list")
    assert "quality " in out and "quality_by_kind" not in out          # grid moves have no kinds


def test_a_store_before_version_7_upgrades_and_is_analyzed(tmp_path: Path, capsys) -> None:
    db = tmp_path / "old.sqlite3"
    run = _bench(capsys, db, "--game", "tictactoe", "--agent", "random", "--vs", "perfect", "--games", "2")
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE decision_values")            # back to version 6, as the last release left it
    conn.execute("DELETE FROM schema_version WHERE version >= 7")
    conn.commit()
    conn.close()
    assert LATEST == 7
    code, out, _ = _cli(capsys, "analyze", "--run", run, "--db", str(db))
    assert code == 0 and "decisions valued now" in out
    with Store(db) as store:
        assert store.version == LATEST
        assert store.conn.execute("SELECT count(*) FROM decision_values").fetchone()[0] > 0
        assert store.conn.execute("PRAGMA foreign_key_check").fetchall() == []
        store.conn.execute("DELETE FROM games")             # values go with their decisions
        assert store.conn.execute("SELECT count(*) FROM decision_values").fetchone()[0] == 0


# --- the card game: mc:K from the decider's information --------------------------------------------

def _card_position(moves: int = 6):  # noqa: ANN202
    spec = registry.get("tcg")
    game = build_game(spec, {p.name: p.default for p in spec.info.params})
    state = game.new_state(7)
    rng = random.Random(1)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_moves()))
    return spec, game, state


def test_card_game_values_never_use_hidden_information() -> None:
    from tcgtui.quality.evaluators import resolve
    spec, game, state = _card_position()
    seat = state.current_player
    other = game.resample(state.observation(seat), random.Random(2))   # the same view, other hidden cards
    assert other.to_json() != state.to_json()
    evaluator = resolve(spec, game, "mc:200")
    assert evaluator.key == "mc:200"
    values = evaluator.values(state, 11)
    assert values == evaluator.values(other, 11) and len(values) > 1
    assert values != evaluator.values(state, 12)          # the seed draws the re-deals: it is used


def test_card_game_the_winning_spell_is_clearly_best() -> None:
    from tcgtui.quality.evaluators import resolve
    spec, game, state = _card_position()
    p = state.current_player
    strike = next(i for i, c in enumerate(state.cards) if c.id == "direct_strike")
    if strike not in state.hands[p]:            # from the deck into the hand, in place of a card that goes back
        state.decks[p].remove(strike)
        state.decks[p].append(state.hands[p].pop())
        state.hands[p].append(strike)
    state.lp[1 - p] = 3                         # direct_strike deals 3 to the opponent: a win at once,
    state.lp[p] = 1                             # and any other card leaves the game open to either side
    values = resolve(spec, game, None).values(state, 5)
    assert values["direct_strike"] == 1 and len(values) > 1
    # any other card: a coin toss at best (measured about 0.5 to 0.6 in value, 1000 playouts each)
    assert all(1 - v > 0.25 for m, v in values.items() if m != "direct_strike")


def test_a_card_game_run_is_judged_by_playouts(tmp_path: Path, capsys) -> None:
    db = tmp_path / "tcg.sqlite3"
    run = _bench(capsys, db, "--agent", "random", "--vs", "mc:20", "--games", "2", "--seed", "2")
    code, out, _ = _cli(capsys, "analyze", "--run", run, "--db", str(db), "--evaluator", "mc:50")
    assert code == 0 and "evaluator: mc:50" in out
    conn = sqlite3.connect(db)
    made = conn.execute("SELECT count(*) FROM decisions WHERE move NOT LIKE '!%'").fetchone()[0]
    stored = conn.execute("SELECT count(*), min(regret) >= 0, max(chosen) <= 1, min(chosen) >= -1"
                          " FROM decision_values WHERE evaluator = 'mc:50'").fetchone()
    conn.close()
    assert stored == (made, 1, 1, 1) and made > 0
    tables = {}
    for name in ("quality", "quality_by_kind"):
        code, out, _ = _cli(capsys, "report", "--db", str(db), "--table", name, "--format", "json")
        assert code == 0
        tables[name] = json.loads(out)[name]
    assert {r["evaluator"] for r in tables["quality"]} == {"mc:50"} and len(tables["quality"]) == 2
    assert {r["kind"] for r in tables["quality_by_kind"]} <= {"champion", "spell", "trick", "–"}
    for row in tables["quality"]:          # the kinds split each player's decisions, nothing lost or added
        kinds = [r for r in tables["quality_by_kind"] if r["agent"] == row["agent"]]
        assert sum(r["judged"] for r in kinds) == row["judged"]
        assert sum(r["mean_regret"] * r["judged"] for r in kinds) == pytest.approx(row["mean_regret"] * row["judged"])


def test_the_quality_figures_are_drawn(perfect_vs_random, tmp_path: Path, capsys) -> None:
    db, _ = perfect_vs_random
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--plot", str(tmp_path)]) == 0
    drawn = {p.name for p in tmp_path.iterdir()}
    assert {"quality_by_phase.png", "regret_ranking.png"} <= drawn, drawn
    assert "adaptability.png" not in drawn          # no mc:K opponent: nothing to draw
