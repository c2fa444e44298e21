"""The report's numbers against values computed by hand on a small constructed store."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.stats import beta

from tcgtui.report import analyses
from tcgtui.report.data import load_games
from tcgtui.engine.tcg.analysis import fit_decay
from tcgtui.report.stats import clopper_pearson
from tcgtui.store import ABANDONED, ERRORED, Store
from tests.store_helpers import add_game

# Agent A against mc:K: wins out of 20 finished games per cell.
A_WINS = {("en", 1): 8, ("en", 4): 4, ("en", 16): 2, ("ar", 1): 6, ("ar", 4): 4, ("ar", 16): 0}
T = {"parse_path": "tags"}
# Agent B against random in English: (result, turns, moves); a move is (card, type, seconds, tokens, info).
B_GAMES = [
    ("win", 8, [("c1", "champion", 1.0, 100, T), ("c2", "spell", 3.0, 300, {"parse_path": "last_name",
                                                                             "invalid": 1})]),
    ("loss", 12, [("c1", "champion", 2.0, 200, T), ("c2", "champion", 4.0, 400, T),
                  ("c3", "trick", 6.0, None, {"parse_path": "none", "fallback": "random", "invalid": True})]),
    ("loss", 6, [("c1", "champion", 1.0, 100, T), ("c1", "champion", 1.0, 100, T)]),
    ("draw", 50, [("c4", "spell", 5.0, 500, T), ("c5", "trick", 5.0, 500, T), ("c1", "champion", 5.0, 500, T),
                  ("c2", "champion", 5.0, 500, {"parse_path": "last_name"})]),
]
# Agent C: two cells whose quarters differ, for the variance across cells.
C_RESULTS = {"en": ["win", "loss", "loss", "loss"], "ar": ["win", "win", "loss", "loss"]}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> analyses.Report:
    with Store(tmp_path_factory.mktemp("report") / "r.sqlite3") as store:
        run = store.create_run("hand", {}).id
        for (lang, k), wins in A_WINS.items():
            for i in range(20):
                add_game(store, run, "A", f"mc:{k}", lang, i, result="win" if i < wins else "loss", turns=20)
        add_game(store, run, "A", "mc:1", "en", 20, status=ERRORED)
        add_game(store, run, "A", "mc:1", "en", 21, status=ERRORED)
        add_game(store, run, "A", "mc:1", "en", 22, status=ABANDONED)
        for i, (result, turns, moves) in enumerate(B_GAMES):
            add_game(store, run, "B", "random", "en", i, result=result, turns=turns, moves=moves)
        add_game(store, run, "B", "random", "en", 4, status=ERRORED,   # not finished: out of every statistic
                 moves=[("c9", "spell", 100.0, 9000, {"parse_path": "none"})])
        for lang, results in C_RESULTS.items():
            for i, result in enumerate(results):
                add_game(store, run, "C", "random", lang, i, result=result)
        for i, (handle, result) in enumerate([("ann", "win"), ("ann", "loss"), ("bob", "loss")]):
            add_game(store, None, f"human:{handle}", "mc:1", "en", i, result=result)
        return analyses.build(load_games(store, None))


def _row(rows: list[dict], **match: object) -> dict:
    found = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, (match, found)
    return found[0]


def test_clopper_pearson_is_the_beta_quantile_interval() -> None:
    # The definition: lower = Beta(α/2; k, n−k+1), upper = Beta(1−α/2; k+1, n−k).
    for k, n in [(8, 20), (1, 3), (19, 20)]:
        low, high = clopper_pearson(k, n)
        assert low == pytest.approx(beta.ppf(0.025, k, n - k + 1), abs=1e-9)
        assert high == pytest.approx(beta.ppf(0.975, k + 1, n - k), abs=1e-9)
    assert clopper_pearson(8, 20) == pytest.approx((0.19119, 0.63946), abs=5e-5)   # the published table value
    low, high = clopper_pearson(0, 20)                                             # closed form at k = 0
    assert low == 0 and high == pytest.approx(1 - 0.025 ** (1 / 20), abs=1e-12)
    assert clopper_pearson(0, 0) is None


def test_win_rates_count_draws_in_and_errors_apart(report: analyses.Report) -> None:
    rows = report.sections["win_rates"]
    a = _row(rows, agent="A", opponent="mc:1", lang="en")
    assert (a["games"], a["finished"], a["wins"], a["losses"], a["errored"], a["abandoned"]) == (23, 20, 8, 12, 2, 1)
    assert a["win_rate"] == 0.4 and a["k"] == 1
    assert (a["ci_low"], a["ci_high"]) == pytest.approx(clopper_pearson(8, 20))
    b = _row(rows, agent="B", opponent="random", lang="en")
    assert (b["finished"], b["wins"], b["draws"], b["losses"], b["errored"]) == (4, 1, 1, 2, 1)
    assert b["win_rate"] == 0.25 and b["k"] is None
    zero = _row(rows, agent="A", opponent="mc:16", lang="ar")
    assert zero["win_rate"] == 0 and zero["ci_high"] == pytest.approx(1 - 0.025 ** (1 / 20))


def test_humans_appear_per_handle_and_pooled_beside_the_models(report: analyses.Report) -> None:
    rows = report.sections["win_rates"]
    assert _row(rows, agent="human:ann", opponent="mc:1", lang="en")["win_rate"] == 0.5
    assert _row(rows, agent="human:bob", opponent="mc:1", lang="en")["win_rate"] == 0.0
    pooled = _row(rows, agent="human", opponent="mc:1", lang="en")
    assert (pooled["wins"], pooled["finished"]) == (1, 3)
    assert {r["agent"] for r in rows if r["opponent"] == "mc:1" and r["lang"] == "en"} == {
        "A", "human", "human:ann", "human:bob"}


def test_decay_fit_recovers_an_exact_curve(report: analyses.Report) -> None:
    # 0.4, 0.2, 0.1 at K = 1, 4, 16 is exactly 0.4 · K^(−1/2).
    fit = _row(report.sections["decay"], agent="A", lang="en", opponent="mc")
    assert fit["ks"] == [1, 4, 16]
    assert fit["a"] == pytest.approx(0.4, abs=1e-6) and fit["b"] == pytest.approx(0.5, abs=1e-6)
    assert fit["r2"] == pytest.approx(1.0, abs=1e-9)


def test_decay_fit_and_r2_on_noisy_points_match_an_independent_solution(report: analyses.Report) -> None:
    # 0.3, 0.2, 0.0 at K = 1, 4, 16.  For fixed b the best a is Σw·x / Σx² with x = K^−b;
    # minimise the leftover squared error over b alone, then R² = 1 − SSE / SST by hand.
    k, w = np.array([1.0, 4.0, 16.0]), np.array([0.3, 0.2, 0.0])

    def sse(b: float) -> float:
        x = k ** -b
        a = (w @ x) / (x @ x)
        return float(np.sum((w - a * x) ** 2))

    best = minimize_scalar(sse, bounds=(0, 10), method="bounded", options={"xatol": 1e-10})
    x = k ** -best.x
    a = (w @ x) / (x @ x)
    sst = np.sum((w - w.mean()) ** 2)            # mean 1/6: (0.3−1/6)² + (0.2−1/6)² + (1/6)² = 0.04667
    assert sst == pytest.approx(0.0466667, abs=1e-6)
    fit = _row(report.sections["decay"], agent="A", lang="ar", opponent="mc")
    assert fit["b"] == pytest.approx(best.x, abs=1e-4) and fit["a"] == pytest.approx(a, abs=1e-5)
    assert fit["r2"] == pytest.approx(1 - best.fun / sst, abs=1e-6)
    assert 0.5 < fit["r2"] < 1


def test_fewer_than_three_k_values_are_not_fitted() -> None:
    assert fit_decay([1, 10], [0.3, 0.1]) is None
    flat = fit_decay([1, 10, 100], [0.2, 0.2, 0.2])
    assert flat is not None and flat.r2 is None and flat.a == pytest.approx(0.2, abs=1e-6)


def test_relative_language_gap(report: analyses.Report) -> None:
    gaps = report.sections["language_gap"]
    assert _row(gaps, agent="A", opponent="mc:1", lang="ar")["relative_gap"] == pytest.approx((0.4 - 0.3) / 0.4)
    assert _row(gaps, agent="A", opponent="mc:4", lang="ar")["relative_gap"] == 0
    assert _row(gaps, agent="A", opponent="mc:16", lang="ar")["relative_gap"] == pytest.approx(1.0)
    c = _row(gaps, agent="C", opponent="random", lang="ar")       # 1/4 in English, 2/4 in Arabic
    assert c["relative_gap"] == pytest.approx((0.25 - 0.5) / 0.25)


def test_game_length_decision_time_tokens_and_card_types(report: analyses.Report) -> None:
    b = _row(report.sections["summary"], agent="B", lang="en")
    assert b["finished"] == 4
    assert b["mean_turns"] == (8 + 12 + 6 + 50) / 4
    # the 11 decisions' seconds sorted: 1 1 1 2 3 4 5 5 5 5 6 -> the 6th
    assert b["median_decision_s"] == 4.0
    # tokens of the 10 decisions that report them: 100+300+200+400+100+100+4·500 = 3200
    assert b["mean_tokens_per_turn"] == 320.0
    assert (b["champion"], b["spell"], b["trick"]) == pytest.approx((7 / 11, 2 / 11, 2 / 11))


def test_error_patterns_of_the_papers_table_3(report: analyses.Report) -> None:
    rows = {r["pattern"]: r for r in report.sections["error_patterns"] if r["agent"] == "B"}
    # losses: game 1 (12 turns; champion, champion, trick; 3 cards) and game 2 (6 turns; c1 twice)
    expected = {"late_loss": (1, 12), "no_trick": (1, 6), "no_spell": (2, 9), "no_champion": (0, None),
                "low_diversity": (1, 6)}
    for pattern, (hits, turns) in expected.items():
        row = rows[pattern]
        assert (row["hits"], row["losses"], row["mean_turns"]) == (hits, 2, turns)
        assert row["of_losses"] == hits / 2 and row["share"] == hits / 5


def test_quarters_split_decisions_within_games(report: analyses.Report) -> None:
    q = {r["quarter"]: r for r in report.sections["quarters"] if r["agent"] == "B"}
    # decision j of n falls in quarter ⌊4j/n⌋: n=2 -> 1,3; n=3 -> 1,2,3; n=4 -> 1,2,3,4
    assert [q[i]["decisions"] for i in (1, 2, 3, 4)] == [4, 2, 4, 1]
    assert q[1]["mean_decision_s"] == 2.25 and q[1]["decision_s_var"] == pytest.approx(10.75 / 3)
    assert q[2]["decision_s_var"] == pytest.approx(0.5)
    assert q[3]["decision_s_var"] == pytest.approx(14.75 / 3)
    assert q[4]["decision_s_var"] is None
    assert q[1]["mean_tokens"] == 225 and q[1]["tokens_var"] == pytest.approx(107500 / 3)
    assert q[2]["tokens_var"] == pytest.approx(5000)
    assert q[3]["tokens_var"] == pytest.approx(40000)          # 300, 100, 500: game 1's third move has none
    # one cell: games 0..3 are the four quarters, win rates 1, 0, 0, 0; no variance across one cell
    assert [q[i]["win_rate"] for i in (1, 2, 3, 4)] == [1, 0, 0, 0]
    assert q[1]["win_rate_var"] is None


def test_quarter_win_rate_variance_is_across_cells(report: analyses.Report) -> None:
    q = {r["quarter"]: r for r in report.sections["quarters"] if r["agent"] == "C"}
    # en: win loss loss loss; ar: win win loss loss -> quarter 2 has rates 0 and 1
    assert [q[i]["win_rate_var"] for i in (1, 2, 3, 4)] == [0, 0.5, 0, 0]
    assert [q[i]["win_rate"] for i in (1, 2, 3, 4)] == [1, 0.5, 0, 0]


def test_parse_paths_invalid_moves_and_fallbacks(report: analyses.Report) -> None:
    b = _row(report.sections["llm"], agent="B")
    assert b["decisions"] == 11
    assert (b["parse_tags"], b["parse_last_name"], b["parse_none"]) == pytest.approx((8 / 11, 2 / 11, 1 / 11))
    assert b["invalid"] == pytest.approx(2 / 11) and b["fallback_random"] == pytest.approx(1 / 11)
    assert b["fallback_forfeit"] == 0
    assert {r["agent"] for r in report.sections["llm"]} == {"B"}    # agents that report no parse path are left out


def test_opponent_strength_families() -> None:
    assert analyses.opponent_k("mc:100") == ("mc", 100)
    assert analyses.opponent_k("mc:5:peek") == ("mc:peek", 5)
    assert analyses.opponent_k("mcts:500") == ("mcts", 500)
    assert analyses.opponent_k("random") == (None, None)
    assert analyses.opponent_k("human:ann") == (None, None)


def test_only_the_named_runs_are_read(tmp_path: Path) -> None:
    with Store(tmp_path / "r.sqlite3") as store:
        one, two = store.create_run("one", {}).id, store.create_run("two", {}).id
        add_game(store, one, "A", "random", "en", 0, result="win")
        add_game(store, two, "A", "random", "en", 0, result="loss")
        add_game(store, None, "human:ann", "random", "en", 0, result="loss")
        assert [(g.agent, g.result) for g in load_games(store, [one])] == [("human:ann", "loss"), ("A", "win")]
        assert [g.result for g in load_games(store, [one], humans=False)] == ["win"]
        assert len(load_games(store, None)) == 3 and len(load_games(store, None, humans=False)) == 2
