"""Round robins in every per-player table: each game counts once for each of its two players,
split by seat where the seed benchmark splits; cancelled and disqualified games apart."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.report import analyses
from tcgtui.report.data import StoredGame, load_games
from tcgtui.store import GameRow, Store
from tcgtui.opponents.llm.testserver import ChatServer, game_policy

MODELS = ("llm:a", "llm:b")


def _report(db: Path, capsys: pytest.CaptureFixture, *extra: str) -> dict:
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _sums(rows: list[dict], key: str, *by: str) -> Counter:
    out: Counter = Counter()
    for r in rows:
        out[tuple(r[b] for b in by) if len(by) > 1 else r[by[0]]] += r[key]
    return out


@pytest.fixture(scope="module")
def round_robin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two models and a random player, four tic-tac-toe games per pair (seats alternate)."""
    db = tmp_path_factory.mktemp("rr") / "rr.sqlite3"
    with ChatServer(policy=game_policy("tictactoe")) as server:
        assert main(["bench", "--game", "tictactoe", *(f"--agent={p}" for p in (*MODELS, "random")),
                     "--round-robin", "--games", "4", "--db", str(db), "--base-url", server.base_url,
                     "--concurrency", "2"]) == 0
    return db


def test_every_per_player_table_counts_each_players_games_as_the_ratings_do(
        round_robin: Path, capsys: pytest.CaptureFixture) -> None:
    out = _report(round_robin, capsys)
    games = {r["agent"]: r["games"] for r in out["ratings"]}
    by_role = {(r["agent"], r["role"]): r["games"] for r in out["ratings_by_role"]}
    assert set(games) == {*MODELS, "random"} and sum(games.values()) == 2 * 12
    assert _sums(out["win_rates"], "games", "agent") == games
    assert _sums(out["decisions"], "finished", "agent") == games
    for section in ("missed", "invalid", "outcomes"):
        assert _sums(out[section], "games", "agent") == games, section
        assert _sums(out[section], "games", "agent", "mover") == by_role, section
    wins = _sums(out["win_rates"], "wins", "agent")
    losses = _sums(out["win_rates"], "losses", "agent")
    assert sum(wins.values()) == sum(losses.values())          # each decided game: one win, one loss


def test_every_decision_counts_once_for_the_player_who_made_it(
        round_robin: Path, capsys: pytest.CaptureFixture) -> None:
    out = _report(round_robin, capsys)
    with sqlite3.connect(round_robin) as conn:
        made = dict(conn.execute("SELECT agent, count(*) FROM decisions GROUP BY agent").fetchall())
    assert _sums(out["decisions"], "decisions", "agent") == made
    assert _sums(out["invalid"], "decisions", "agent") == made
    assert {r["agent"]: r["decisions"] for r in out["llm"]} == {m: made[m] for m in MODELS}


def test_the_matrix_and_the_errors_still_count_each_game_once(
        round_robin: Path, capsys: pytest.CaptureFixture) -> None:
    out = _report(round_robin, capsys)
    assert sum(r["games"] for r in out["matrix"]) == 2 * 12
    assert all(r["games"] == 4 for r in out["matrix"])
    errored = StoredGame("g", "r", "a", "b", "en", 0, 0, "errored", None, 0, error="boom", seats=("a", "b"))
    mirror = dataclasses.replace(errored, agent="b", opponent="a", seat=1, mirror=True)
    assert analyses.errors([errored, mirror]) == [{"error": "boom", "games": 1, "agents": "a"}]


def test_a_two_player_round_robin_measures_both_and_a_plain_bench_its_agent(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "two.sqlite3"
    for run, versus in (("rr", ["--agent", "perfect", "--round-robin"]), ("plain", ["--vs", "perfect"])):
        assert main(["bench", "--game", "tictactoe", "--agent", "random", *versus, "--games", "2",
                     "--run", run, "--db", str(db)]) == 0
    both = _report(db, capsys, "--run", "rr")
    assert _sums(both["decisions"], "finished", "agent") == {"random": 2, "perfect": 2}
    plain = _report(db, capsys, "--run", "plain")
    assert _sums(plain["decisions"], "finished", "agent") == {"random": 2}
    said = [[n for n in out["notes"] if "every seat" in n] for out in (both, plain)]
    assert [len(s) for s in said] == [1, 0]


def test_cancelled_games_are_not_draws(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "cap.sqlite3"         # no line fits in four tic-tac-toe moves: every game hits the cap
    assert main(["bench", "--game", "tictactoe", "--param", "move_cap=4", "--agent", "random", "--vs", "perfect",
                 "--games", "3", "--db", str(db)]) == 0
    (row,) = _report(db, capsys)["win_rates"]
    assert (row["games"], row["cancelled"], row["draws"], row["finished"], row["win_rate"]) == (3, 3, 0, 0, None)


def test_each_kind_of_game_keeps_its_own_column() -> None:
    def game(i: int, winner: int | None, reason: str, status: str = "finished") -> StoredGame:
        return StoredGame(str(i), "r", "a", "b", "en", i, 0, status, winner, 5, reason=reason, seats=("a", "b"))
    games = [game(0, 0, "line"), game(1, 1, "line"), game(2, None, "full"), game(3, None, "cancelled"),
             game(4, 1, "disqualified"), game(5, 0, "disqualified"), game(6, None, "", "errored"),
             game(7, None, "", "abandoned")]
    (row,) = analyses.win_rates(games)
    counts = {k: row[k] for k in ("wins", "draws", "losses", "cancelled", "disqualified", "errored", "abandoned")}
    assert counts == {"wins": 2, "draws": 1, "losses": 2, "cancelled": 1, "disqualified": 1, "errored": 1,
                      "abandoned": 1}
    assert row["finished"] == 5 and row["win_rate"] == 2 / 5


def test_a_score_games_other_seat_keeps_its_own_score(tmp_path: Path) -> None:
    with Store(tmp_path / "duel.sqlite3") as store:
        run = store.create_run("rr", {"settings": {"round_robin": True}}).id
        for i, (a, b, scores) in enumerate([("x", "y", (3.0, -1.0)), ("y", "z", (0.0, 2.0))]):
            store.save_game(GameRow(agent=a, opponent=b, lang="en", game_index=i, seed=i, agent_seat=0, game="duel",
                                    status="finished", record={"game": "duel", "events": []}, run_id=run,
                                    started_at="2026-01-01T00:00:00+00:00", winner=int(scores[1] > scores[0]),
                                    score=scores[0], seat_scores=scores), [])
        games = load_games(store, None, game="duel", every_seat=True)
    assert [(g.agent, g.opponent, g.seat, g.score, g.mirror) for g in games] == [
        ("x", "y", 0, 3.0, False), ("y", "x", 1, -1.0, True), ("y", "z", 0, 0.0, False), ("z", "y", 1, 2.0, True)]
    means = {(r["agent"], r["opponent"]): r["mean_score"] for r in analyses.scores(games)}
    assert means == {("x", "y"): 3.0, ("y", "x"): -1.0, ("y", "z"): 0.0, ("z", "y"): 2.0}


def test_cancelled_games_are_neither_draws_in_the_matrix_nor_in_the_sweep_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "cap_rr.sqlite3"      # every game hits the four-move cap: none has a result
    assert main(["bench", "--game", "tictactoe", "--param", "move_cap=4", "--agent", "random", "--agent", "perfect",
                 "--agent", "mc:5", "--round-robin", "--games", "2", "--db", str(db)]) == 0
    summary = capsys.readouterr().out
    head = next(line for line in summary.splitlines() if line.startswith("┃"))
    cols = [c.strip() for c in head.strip("┃│ ").replace("┃", "│").split("│")]
    rows = [[c.strip() for c in line.strip("│ ").split("│")] for line in summary.splitlines()
            if line.startswith("│") and ("random" in line or "perfect" in line or "mc:5" in line)]
    assert rows and all(r[cols.index("cancelled")] == "2" and r[cols.index("draws")] == "0"
                        and r[cols.index("win rate")] == "–" for r in rows)
    out = _report(db, capsys)
    assert out["matrix"] and all((r["games"], r["cancelled"], r["draws"], r["score_share"]) == (0, 2, 0, None)
                                 for r in out["matrix"])
    assert not out.get("ratings")         # nothing decided: nothing to rate


def test_a_round_robin_in_two_languages_is_rated_per_language(tmp_path, capsys):
    """A language changes a result: the matrix and ratings of a round robin played in English and
    Arabic keep each language apart, with the language as a column, every game counted once."""
    import json

    from tcgtui.cli import main
    db = str(tmp_path / "rr.sqlite3")
    assert main(["bench", "--game", "tictactoe", "--agent", "random", "--agent", "perfect", "--agent", "mc:5",
                 "--round-robin", "--lang", "en,ar", "--games", "2", "--db", db]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", db, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for lang in ("en", "ar"):
        cells = [r for r in report["matrix"] if r["lang"] == lang]
        assert len(cells) == 6 and all(r["games"] + r["cancelled"] == 2 for r in cells)    # each pair met twice
        rated = [r for r in report["ratings"] if r["lang"] == lang]
        assert sorted(r["agent"] for r in rated) == ["mc:5", "perfect", "random"]
        assert all(r["games"] == 4 for r in rated)
    assert {r["lang"] for r in report["ratings_by_role"]} == {"en", "ar"}
