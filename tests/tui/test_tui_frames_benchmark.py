"""The frame-gap benchmark runs and reports (its figures are for `tcgtui perf`, not asserted)."""

from __future__ import annotations

import math

from tcgtui.perf import PerfOptions
from tcgtui.perf import tui_frames


def test_benchmark_reports_gaps_while_the_opponent_thinks() -> None:
    metrics = tui_frames.run(PerfOptions(quick=True, extra={"vs": "random"}))
    names = [m.name for m in metrics]
    assert names == ["longest_frame_gap_ms", "p99_frame_gap_ms", "median_frame_gap_ms",
                     "longest_blocked_while_thinking_ms"]
    assert all(m.unit == "ms" and not math.isnan(m.value) and m.value > 0 for m in metrics)
    assert metrics[0].value >= metrics[1].value >= metrics[2].value
    assert metrics[3].value <= metrics[0].value
    assert "while random thinks" in metrics[0].note
