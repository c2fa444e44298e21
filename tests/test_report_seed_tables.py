"""The seeds' tables and figures on small known stores, grouping by what changes a result (--by),
and the randomized exact intervals (--ci exact-randomized)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from tcgtui.cli import main
from tcgtui.engine.duel.analysis import by_round, replies_by_round
from tcgtui.engine.grid.analysis import leaderboard
from tcgtui.engine.tcg.analysis import fit_decay
from tcgtui.engine.tcg.seed_tables import fit_exp_k
from tcgtui.report.data import StoredGame
from tcgtui.report.extra import Context
from tcgtui.report.intervals import randomized, uniform
from tcgtui.store import Store
from tests.duel.test_duel_report import recorded
from tests.store_helpers import add_game

# (agent, K) -> wins of 10 games against mc:K (both models: A by its facts, llm:B by its kind)
WINS = {("A", 1): 6, ("A", 2): 4, ("A", 5): 2, ("llm:B", 1): 4, ("llm:B", 2): 2, ("llm:B", 5): 1}
FACTS = {"A": {"family": "Fam", "organisation": "Org", "parameters_b": 7, "weights": "open"}}


def _tcg_store(path: Path) -> None:
    with Store(path) as store:
        players = {"A": {"en": {"spec": "A", "facts": FACTS["A"]}}, "llm:B": {"en": {"spec": "llm:B"}}}
        run = store.create_run("r", {"players": players}).id
        i = 0
        for (agent, k), wins in WINS.items():
            for j in range(10):
                moves = [("c1", "champion", 1.0, 100, {}), ("c2", "spell" if agent == "A" else "trick", 3.0, 300, {})]
                add_game(store, run, agent, f"mc:{k}", "en", i, result="win" if j < wins else "loss", moves=moves)
                i += 1


def _json(capsys: pytest.CaptureFixture, *argv: str) -> dict:
    capsys.readouterr()
    assert main(["report", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_papers_own_means_fit_the_power_law_better() -> None:
    ks, means = [1, 2, 5, 10, 100, 1000], [0.358, 0.243, 0.131, 0.107, 0.052, 0.025]   # its Table 1
    assert round(fit_exp_k(ks, means)[2], 3) == 0.902
    assert round(fit_decay(ks, means).r2, 3) == 0.986


def test_table_1_5_6_7_and_figure_6_on_a_known_store(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "t.sqlite3")
    _tcg_store(tmp_path / "t.sqlite3")
    scaling = _json(capsys, "--db", db, "--table", "paper_scaling")["paper_scaling"]
    assert [(r["k"], r["models"]) for r in scaling] == [(1, 2), (2, 2), (5, 2)]
    assert scaling[0]["mean_win_rate"] == pytest.approx(0.5) and scaling[0]["sd_win_rate"] == pytest.approx(math.sqrt(0.02))
    fits = _json(capsys, "--db", db, "--table", "paper_fits")
    assert [r["form"] for r in fits["paper_fits"]] == ["w(K) = a·exp(−b·K)", "w(K) = a·exp(−b·ln K)"]
    assert all(r["r2"] is not None for r in fits["paper_fits"]) and any("0.986" in n for n in fits["notes"])
    wide = {r["agent"]: r for r in _json(capsys, "--db", db, "--table", "wide")["wide"]}
    assert wide["A"]["organisation"] == "Org" and wide["llm:B"]["organisation"] == "no facts"
    assert (wide["A"]["k2_win_rate"], wide["A"]["k2_games"]) == (0.4, 10)
    assert wide["A"]["k2_ci_low"] == pytest.approx(0.12155, abs=1e-4)         # Clopper–Pearson 4 of 10
    families = {r["family"]: r for r in _json(capsys, "--db", db, "--table", "families")["families"]}
    assert families["Fam"]["cards"] == 60 and families["Fam"]["spell"] == 0.5 and families["no facts"]["trick"] == 0.5
    sizes = _json(capsys, "--db", db, "--table", "sizes")["sizes"]
    assert {(r["size_range"], r["opponent"], r["models"]) for r in sizes} >= {("<10B", "mc:1", 1), ("no facts", "mc:1", 1)}
    figure6 = {r["agent"]: r for r in _json(capsys, "--db", db, "--table", "time_vs_win")["time_vs_win"]
               if r["opponent"] == "mc:1"}
    assert figure6["A"]["median_decision_s"] == 2.0 and figure6["A"]["win_rate"] == 0.6
    assert main(["report", "--db", db, "--table", "wide"]) == 0
    assert "40.0 [12.2%, 73.8%] n=10" in capsys.readouterr().out


def test_list_names_every_table_and_plot_draws_every_figure(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "t.sqlite3")
    _tcg_store(tmp_path / "t.sqlite3")
    capsys.readouterr()
    assert main(["report", "--db", db, "--list"]) == 0
    listed = capsys.readouterr().out
    for name in ("win_rates", "decay", "paper_scaling", "paper_fits", "wide", "families", "sizes", "time_vs_win"):
        assert f"  {name} " in listed, name
    assert main(["report", "--db", db, "--plot", str(tmp_path / "figs")]) == 0
    drawn = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert drawn == ["decay.png", "paper_scaling.png", "time_vs_win.png"]
    assert all((tmp_path / "figs" / n).read_bytes()[:4] == b"\x89PNG" for n in drawn)


def test_randomized_intervals_have_exact_coverage_and_reprint_identically(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture) -> None:
    from scipy.stats import binom
    n, p = 12, 0.3
    us = (np.arange(2000) + 0.5) / 2000
    coverage = sum(binom.pmf(k, n, p) * np.mean([lo <= p <= hi for lo, hi in (randomized(k, n, u) for u in us)])
                   for k in range(n + 1))
    assert coverage == pytest.approx(0.95, abs=2e-4)
    assert uniform(0, "x") == uniform(0, "x") != uniform(1, "x")
    db = str(tmp_path / "t.sqlite3")
    _tcg_store(tmp_path / "t.sqlite3")
    first = _json(capsys, "--db", db, "--ci", "exact-randomized", "--ci-seed", "7")
    again = _json(capsys, "--db", db, "--ci", "exact-randomized", "--ci-seed", "7")
    assert first["win_rates"] == again["win_rates"] and first["ci_seed"] == 7
    row = first["win_rates"][0]
    assert row["ci_low"] is not None and row["rand_low"] is not None and row["rand_high"] - row["rand_low"] < row["ci_high"] - row["ci_low"]
    assert any("seed 7" in n for n in first["notes"])


def test_runs_that_differ_in_prompt_style_are_never_pooled(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "g.sqlite3"
    for style in ("list", "image"):
        assert main(["bench", "--game", "tictactoe", "--agent", "random", "--vs", "perfect", "--games", "2",
                     "--prompt-style", style, "--run", style, "--db", str(db)]) == 0
    out = _json(capsys, "--game", "tictactoe", "--db", str(db))
    assert {r["agent"] for r in out["win_rates"]} == {"random [style=image]", "random [style=list]"}
    assert out["varied"] == "style" and "style" in out["grouped_by"]
    board = _json(capsys, "--game", "tictactoe", "--db", str(db), "--table", "leaderboard")["leaderboard"]
    assert {(r["agent"], r["style"]) for r in board if r["agent"].startswith("random")} == {
        ("random [style=image]", "image"), ("random [style=list]", "list")}
    pooled = _json(capsys, "--game", "tictactoe", "--db", str(db), "--by", "run")
    assert {r["agent"] for r in pooled["win_rates"]} == {"random [run=image]", "random [run=list]"}
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--by", "colour"]) == 2
    assert "--by: 'colour' is not a key" in capsys.readouterr().err


def test_grid_leaderboard_counts_wins_draws_and_disqualifications_by_seat() -> None:
    def game(i: int, seats: tuple, winner: int | None, reason: str) -> StoredGame:
        return StoredGame(str(i), "r", seats[0], seats[1], "en", i, 0, "finished", winner, 5, reason=reason, seats=seats,
                          game="tictactoe", params={"prompt_style": "image"})
    games = [game(0, ("a", "b"), 0, "line"), game(1, ("b", "a"), 1, "line"), game(2, ("a", "b"), None, "full"),
             game(3, ("a", "b"), 0, "disqualified"), game(4, ("b", "a"), None, "cancelled")]
    rows = {r["agent"]: r for r in leaderboard(games, Context())}
    a, b = rows["a"], rows["b"]
    assert (a["games"], a["W1st"], a["W2nd"], a["Dr"], a["Dq1st"], a["Dq2nd"], a["cancelled"]) == (5, 2, 1, 1, 0, 0, 1)
    assert (b["W1st"], b["W2nd"], b["Dq2nd"], b["style"]) == (0, 0, 1, "image")


def test_duel_solve_rate_by_round_and_one_duels_replies() -> None:
    rec = recorded([("true", "true"), ("true", "false"), ("false", None), ("true", "true")], rounds=4)
    g = StoredGame("d1", "r", "A", "B", "en", 0, 0, "finished", None, 4, game="duel", seats=("A", "B"), record=rec)
    rows = by_round([g], Context())
    assert [(r["round"], r["asked"], r["solved"]) for r in rows] == [(1, 1, 1), (2, 1, 0), (4, 1, 1)]
    assert rows[0]["ci_low"] == pytest.approx(0.025) and rows[1]["ci_high"] == pytest.approx(0.975)
    replies = replies_by_round(rec, ("A", "B"), [(0, "p1"), (1, "a1"), (1, "p2"), (0, "a2"), (0, "p3"), (1, "p4"),
                                                (0, "a4")])
    assert [(r["proposer_reply"], r["solver_reply"]) for r in replies] == [
        ("p1", "a1"), ("p2", "a2"), ("p3", None), ("p4", "a4")]


def test_eleusis_figures_from_a_bench_of_a_model_and_the_scientist(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    db = str(tmp_path / "e.sqlite3")
    with ChatServer(policy=game_policy("eleusis", confidence=6)) as server:
        assert main(["bench", "--game", "eleusis", "--agent", "llm:m", "--agent", "scientist", "--games", "2",
                     "--param", "guess_format=code", "--db", db, "--base-url", server.base_url]) == 0
    tables = {t: _json(capsys, "--game", "eleusis", "--db", db, "--table", t)[t]
              for t in ("tokens_by_turn", "score_tokens", "relative_quartiles", "complexity_ratio")}
    turns = [r for r in tables["tokens_by_turn"] if r["agent"] == "llm:m"]
    assert [r["turn"] for r in turns] == list(range(1, len(turns) + 1)) and turns[0]["decisions"] == 2
    assert all(r["mean_tokens"] > 0 for r in turns)
    scores = {r["agent"]: r for r in tables["score_tokens"]}
    assert scores["llm:m"]["rounds"] == 2 and scores["llm:m"]["mean_tokens"] > 0 and scores["scientist"]["mean_tokens"] is None
    for agent in ("llm:m", "scientist"):          # each quartile's mean over the player's own mean
        rows = [r for r in tables["relative_quartiles"] if r["agent"] == agent]
        overall = scores[agent]["mean_floored"]
        assert sum(r["rounds"] for r in rows) == 2
        assert all(r["relative_score"] == pytest.approx(r["mean_floored"] / overall) for r in rows if overall)
    ratio = {r["agent"]: r for r in tables["complexity_ratio"]}["scientist"]
    assert ratio["q1"] <= ratio["median_ratio"] <= ratio["q3"] and ratio["rules"] > 0


def test_one_duel_browsed_with_verdicts_and_both_replies(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    db = str(tmp_path / "d.sqlite3")
    with ChatServer(policy=game_policy("duel")) as server:
        assert main(["bench", "--game", "duel", "--agent", "llm:a", "--vs", "llm:b", "--games", "1",
                     "--param", "rounds=2", "--db", db, "--base-url", server.base_url]) == 0
    (duel,) = _json(capsys, "--game", "duel", "--db", db, "--table", "duels")["duels"]
    assert main(["duel", "show", duel["duel"][:8], "--db", db, "--format", "json"]) == 0
    rounds = json.loads(capsys.readouterr().out)
    assert [(r["round"], r["proposer"], r["solver"]) for r in rounds] == [(1, "llm:a", "llm:b"), (2, "llm:b", "llm:a")]
    assert all("def mystery" in r["proposer_reply"] and r["solver_reply"] for r in rounds)
    assert all(r["sample_result"] and r["outcome"] for r in rounds)
    assert main(["duel", "show", "nope", "--db", db]) == 2
    assert "no finished duel 'nope'" in capsys.readouterr().err
    assert main(["duel", "show", duel["duel"][:8], "--db", db]) == 0      # the table a person reads
    assert "def mystery" in capsys.readouterr().out


def test_model_facts_are_found_by_spec_self_description_or_entry() -> None:
    from types import SimpleNamespace
    from tcgtui.report.extra import model_facts
    facts = {"family": "F", "organisation": "O", "parameters_b": 70, "weights": "open"}
    run = SimpleNamespace(config={"players": {"llm:m": {"en": {"spec": "llm:m@ab12", "entry": "m", "facts": facts}},
                                              "random": {"en": {"spec": "random"}}}})
    found = model_facts([run])
    assert found["llm:m"] == found["llm:m@ab12"] == found["m"] == facts and "random" not in found
    assert Context(found, base={"llm:m@ab12 [style=image]": "llm:m@ab12"}).facts("llm:m@ab12 [style=image]") == facts


def test_people_pool_within_their_group() -> None:
    from tcgtui.report.grouping import apply
    games = [StoredGame(str(i), "r", f"human:{who}", "mc:1", "en", i, 0, "finished", 0, 5, params={"prompt_style": style})
             for i, (who, style) in enumerate([("ann", "list"), ("bob", "list"), ("ann", "image")])]
    varied, base = apply(games, ("style", "protocol"))
    assert varied == ["style"] and base["human:ann [style=image]"] == "human:ann"
    assert [g.groups() for g in games] == [("human:ann [style=list]", "human [style=list]"),
                                            ("human:bob [style=list]", "human [style=list]"),
                                            ("human:ann [style=image]", "human [style=image]")]
