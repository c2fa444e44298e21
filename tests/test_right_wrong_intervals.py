"""Right/wrong scores (a deck quiz's accuracy, a puzzle bank's solves) get the exact binomial interval
everywhere their mean is shown; a t interval would collapse to [0, 0] at none right of three."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
from rich.console import Console
from scipy.stats import binomtest, t

from tcgtui import locales
from tcgtui.bench.plan import Cell
from tcgtui.bench.progress import summary_table
from tcgtui.bench.runner import SweepResult, Tally
from tcgtui.cli import main
from tcgtui.engine import registry


def exact(k: int, n: int) -> tuple[float, float]:
    ci = binomtest(k, n).proportion_ci(method="exact")
    return float(ci.low), float(ci.high)


def shown(scores: list[float], right_wrong: bool) -> str:
    cell = Cell("p", "", "en")
    tally = Tally(len(scores))
    for s in scores:
        tally.add("finished", None, 0, score=s)
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        summary_table(SweepResult({cell: tally}), locales.load("en"), score=True, right_wrong=right_wrong))
    return out.getvalue()


@pytest.mark.parametrize("scores", [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]])
def test_the_bench_summary_of_right_wrong_scores_is_exact(scores: list[float]) -> None:
    low, high = exact(int(sum(scores)), len(scores))
    text = shown(scores, right_wrong=True)
    assert f"[{low:.2f}, {high:.2f}]" in text and "(exact)" in text
    assert high - low > 0.5                  # three answers leave a wide interval, never a point


def test_other_scores_keep_students_t() -> None:
    scores = [24.0, 21.0, 0.0]
    mean = sum(scores) / 3
    sd = (sum((s - mean) ** 2 for s in scores) / 2) ** 0.5
    half = t.ppf(0.975, 2) * sd / 3 ** 0.5
    text = shown(scores, right_wrong=False)
    assert f"[{mean - half:.2f}, {mean + half:.2f}]" in text and "(t)" in text


def test_the_right_wrong_games_say_so() -> None:
    assert {s.id for s in registry.games() if s.info.right_wrong} == {"deck", "duel-bank"}


def test_a_deck_bench_and_its_report_show_the_exact_interval(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.sqlite3"
    assert main(["bench", "--game", "deck", "--agent", "random", "--games", "3", "--db", str(db)]) == 0
    summary = capsys.readouterr().out
    right = int(sqlite3.connect(db).execute("SELECT SUM(score) FROM games").fetchone()[0])
    low, high = exact(right, 3)
    assert f"[{low:.2f}, {high:.2f}]" in summary
    assert main(["report", "--game", "deck", "--db", str(db), "--format", "json"]) == 0
    row, = json.loads(capsys.readouterr().out)["scores"]
    assert (row["ci_low"], row["ci_high"]) == (low, high) and row["interval"] == "exact"
    assert main(["report", "--game", "deck", "--db", str(db)]) == 0
    table = capsys.readouterr().out
    assert "95% CI (exact)" in table and "(t)" not in table and "Clopper–Pearson" in table


def solved_shown(solved: int, finished: int) -> str:
    cell = Cell("scientist", "", "en")
    tally = Tally(finished)
    for i in range(finished):
        tally.add("finished", None, 0, score=24.0 if i < solved else -4.0, solved=i < solved)
    out = io.StringIO()
    Console(file=out, width=250, color_system=None).print(
        summary_table(SweepResult({cell: tally}), locales.load("en"), score=True, solved=True))
    return out.getvalue()


@pytest.mark.parametrize("solved", [0, 1, 3])
def test_a_bench_summary_of_rounds_solved_gives_their_share_an_exact_interval(solved: int) -> None:
    low, high = exact(solved, 3)
    text = solved_shown(solved, 3)
    assert f"{solved}/3" in text and f"[{low:.2f}, {high:.2f}]" in text and "solved: 95% CI (exact)" in text


def test_an_eleusis_bench_counts_the_rounds_its_games_stored_as_solved(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.sqlite3"
    argv = ["bench", "--game", "eleusis", "--agent", "scientist", "--games", "3", "--db", str(db)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    solved = sqlite3.connect(db).execute("SELECT count(*) FROM games WHERE reason = 'solved'").fetchone()[0]
    low, high = exact(solved, 3)
    assert f"{solved}/3" in first and f"[{low:.2f}, {high:.2f}]" in first
    assert main(argv) == 0                      # resumed: every game read back from the store
    assert f"{solved}/3" in capsys.readouterr().out
