"""``tcgtui report --game duel``: roles, score lines, puzzles with verdicts, and the proposer and
solver ratings with intervals bootstrapped over duels; ``tcgtui bench`` plays the duels."""

from __future__ import annotations

import json

import numpy as np

from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import Match
from tcgtui.engine.duel import Answer, Proposal, Verdict
from tcgtui.engine.duel.analysis import rated, rounds_of, sections
from tcgtui.opponents.llm.testserver import ChatServer, game_policy
from tcgtui.report.data import StoredGame
from tcgtui.report.ratings import ratings

EVEN = "def mystery(x):\n    return x % 2 == 0\n"


def recorded(script, rounds=2):
    """A finished duel's record from (sample verdict, answer verdict or None) per round."""
    match = Match(registry.get("duel").game({"rounds": rounds}), 0)
    for sample, answer in script:
        match.play(Proposal(EVEN, "2", "notes").text())
        match.play(Verdict(sample, 0.1, "d").text())
        if answer:
            match.play(Answer("4").text())
            match.play(Verdict(answer, 0.2).text())
    return match.record().to_json()


def game(gid, seats, record, seat=0):
    out = record["outcome"]
    return StoredGame(gid, "run", seats[seat], seats[1 - seat], "en", 0, seat, "finished", out["winner"], 4,
                      game="duel", seats=tuple(seats), record=record)


def test_rounds_roles_score_lines_and_puzzles_come_from_the_record():
    rec = recorded([("true", "false"), ("false", None)])          # A stumps B; B's sample is wrong
    assert [r["outcome"] for r in rounds_of(rec)] == ["failure", "puzzle-wrong"]
    games = [game("d1", ("A", "B"), rec), game("d1", ("A", "B"), rec, seat=1)]    # one duel, two rows
    out = sections(games)
    roles = {r["agent"]: r for r in out["duel_roles"]}
    assert roles["A"]["proposed"] == 1 and roles["A"]["proposal_rate"] == 1.0 and roles["A"]["penalties"] == 0
    assert roles["B"]["penalty_rate"] == 1.0 and roles["B"]["asked"] == 1 and roles["B"]["solve_rate"] == 0.0
    assert roles["A"]["asked"] == 0 and roles["A"]["solve_rate"] is None
    assert out["duels"] == [{"duel": "d1", "first": "A", "second": "B", "score_line": "1 vs -1", "winner": "A"}]
    first, second = out["puzzles"]
    assert first["sample_result"] == "true" and first["answer"] == "4" and first["answer_result"] == "false"
    assert second["answer"] is None and second["outcome"] == "puzzle-wrong" and second["code"] == EVEN
    pairings = rated(games)
    assert pairings["proposer_ratings"] == [("A", "B", 1.0, "d1"), ("B", "A", 0.0, "d1")]
    assert pairings["solver_ratings"] == [("B", "A", 0.0, "d1")]


def test_cluster_bootstrap_keeps_the_rounds_of_a_duel_together():
    rng = np.random.default_rng(3)
    results, clusters = [], []
    for duel in range(30):                         # each duel: ten rounds that all go the same way
        s = float(rng.random() < 0.6)
        results += [("a", "b", s)] * 10
        clusters += [f"d{duel}"] * 10
    loose = {r.player: r for r in ratings(results, resamples=100)}
    tight = {r.player: r for r in ratings(results, resamples=100, clusters=clusters)}
    assert loose["a"].rating == tight["a"].rating
    width = lambda r: r.ci_high - r.ci_low
    assert width(tight["a"]) > 1.8 * width(loose["a"])    # rounds are not independent: wider, honest intervals


def test_bench_round_robin_then_report(tmp_path, capsys):
    db = str(tmp_path / "duels.sqlite3")
    with ChatServer(policy=game_policy("duel", seed=1, wrong=0.25)) as server:
        assert main(["bench", "--game", "duel", "--agent", "llm:alpha", "--agent", "llm:beta", "--agent",
                     "puzzler", "--round-robin", "--games", "2", "--param", "rounds=2", "--db", db,
                     "--base-url", server.base_url]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "duel", "--db", db, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    sections_ = report
    for name in ("duel_roles", "duels", "proposer_ratings", "solver_ratings", "ratings"):
        assert sections_[name], name
    assert {r["agent"] for r in sections_["proposer_ratings"]} == {"llm:alpha", "llm:beta", "puzzler"}
    assert all(r["ci_low"] <= r["rating"] <= r["ci_high"] for r in sections_["proposer_ratings"])
    assert len(sections_["duels"]) == 6 and all(" vs " in d["score_line"] for d in sections_["duels"])
    assert main(["report", "--game", "duel", "--db", db, "--table", "puzzles", "--format", "json"]) == 0
    puzzles = json.loads(capsys.readouterr().out)["puzzles"]
    assert len(puzzles) == 12 and all(p["sample_result"] in ("true", "false", "error", "timeout") for p in puzzles)
    assert all("def mystery" in p["code"] for p in puzzles)
