"""The report's tables as a person reads them: one capitalisation, times in ms or s without an
exponent, no column that is empty in every row (issue, second pass: ``4.188e-06``, an empty
"estimated" column, "Player" beside "opponent")."""

from __future__ import annotations

from types import SimpleNamespace

from tcgtui.report.render import as_markdown

ROW = {"agent": "random", "lang": "en", "finished": 3, "decisions": 14, "median_decision_s": 4.188e-06,
       "mean_decision_s": 1.2e-05, "mean_tokens": None, "tokens_estimated": False, "invalid_moves": 0,
       "invalid_share": 0.0}


def markdown(rows: list[dict]) -> list[str]:
    report = SimpleNamespace(game="tcg", notes=[], meta={}, section=lambda name: rows)
    return as_markdown(report, ["decisions"]).splitlines()  # type: ignore[arg-type]


def test_fast_times_read_in_ms_and_empty_columns_are_left_out() -> None:
    _, _, head, _, row = markdown([ROW])[:5]
    heads = [h.strip() for h in head.strip("|").split("|")]
    assert heads == ["Player", "Lang", "Finished", "Decisions", "Median decision (ms)", "Mean decision (ms)",
                     "Invalid moves", "Invalid per decision"]
    assert "0.004" in row and "0.012" in row and "e-0" not in row


def test_slow_times_read_in_seconds() -> None:
    _, _, head, _, row = markdown([{**ROW, "median_decision_s": 2.5, "mean_decision_s": 312.25}])[:5]
    assert "Median decision (s)" in head and "| 2.50 |" in row and "| 312 |" in row
