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


WIN = {"agent": "llm:Qwen2.5-7B-Instruct", "opponent": "mc:1000", "lang": "en", "finished": 600, "wins": 123,
       "draws": 4, "losses": 473, "cancelled": 0, "disqualified": 0, "errored": 0, "abandoned": 0,
       "win_rate": 0.205, "ci_low": 0.1733, "ci_high": 0.2394}


def test_the_win_rate_table_fits_120_columns_with_whole_headers_and_intervals() -> None:
    """The four outcome counts that are 0 in every row go to a line under the table; what stays fits
    a 120-column terminal with no header or interval cut (it read 'Oppone…' and '[19.4…')."""
    from rich.cells import cell_len
    from rich.console import Console
    from tcgtui.report.render import as_table
    rows = [WIN, {**WIN, "lang": "ar", "errored": 2}]
    report = SimpleNamespace(game="tcg", notes=[], meta={}, section=lambda name: rows)
    console = Console(width=120, record=True, force_terminal=False)
    as_table(report, ["win_rates"], console)  # type: ignore[arg-type]
    lines = console.export_text().splitlines()
    table = [line for line in lines if line[:1] in "┏┃┡│└"]
    assert max(cell_len(line) for line in table) <= 120 and not any("…" in line for line in table)
    assert "Errored" in table[1] and "Cancelled" not in table[1] and "[17.3%, 23.9%]" in lines[4]
    assert any(line.startswith("No game in this table was cancelled, disqualified, abandoned") for line in lines)
    assert "| 0 | 0 | 0 | 0 |" in as_markdown(report, ["win_rates"])        # a document keeps every column
