"""The frame-gap benchmark runs and reports (its figures are for `tcgtui perf`, not asserted)."""

from __future__ import annotations

import math

from tcgtui.measure import PerfOptions
from tcgtui.perf import tui_frames


def test_benchmark_reports_gaps_while_the_opponent_thinks() -> None:
    metrics = tui_frames.run(PerfOptions(quick=True, extra={"vs": "random"}))
    names = [m.name for m in metrics]
    assert names[:4] == ["longest_frame_gap_ms", "p99_frame_gap_ms", "median_frame_gap_ms",
                         "longest_blocked_while_thinking_ms"]
    assert all(m.unit == "ms" and not math.isnan(m.value) and m.value > 0 for m in metrics[:4])
    assert metrics[0].value >= metrics[1].value >= metrics[2].value
    assert metrics[3].value <= metrics[0].value
    assert "while random thinks" in metrics[0].note


def test_many_games_mode_reports_the_first_and_the_last_game() -> None:
    by_name = {m.name: m for m in tui_frames.run(PerfOptions(quick=True, extra={"vs": "random", "games": 3}))}
    for figure in ("longest_gap_ms", "rss_mb", "cpu_per_move_ms"):
        first, last = by_name[f"first_game_{figure}"], by_name[f"last_game_{figure}"]
        assert first.value > 0 and last.value > 0 and "3 games in one session" in last.note
    assert by_name["worst_game_longest_gap_ms"].value >= by_name["last_game_longest_gap_ms"].value
    assert by_name["first_game_rss_mb"].unit == "MB"
