"""The live view: one bar per cell with games done, the win rate so far and errored games."""

from __future__ import annotations

import io

from rich.console import Console

from tcgtui.bench.plan import Cell
from tcgtui.bench.progress import ProgressView
from tcgtui.bench.runner import Tally


def test_a_bar_per_cell_with_win_rate_and_errors() -> None:
    out = io.StringIO()
    view = ProgressView(Console(file=out, force_terminal=True, width=120, color_system=None))
    a, b = Cell("random", "mc:1", "en"), Cell("random", "mc:1", "ar")
    tallies = {a: Tally(10, finished=4, wins=1), b: Tally(10)}
    view.started(tallies)
    tallies[b].add("finished", 0, 0)
    tallies[b].add("errored", None, 0)
    view.game_done(b, tallies[b])
    view.stop()
    text = out.getvalue()
    assert "random vs mc:1 [en]" in text and "random vs mc:1 [ar]" in text
    assert "4/10" in text and "win 25.0%" in text
    assert "2/10" in text and "win 100.0%, 1 errored" in text


def test_no_live_bars_when_output_is_not_a_terminal() -> None:
    out = io.StringIO()
    view = ProgressView(Console(file=out, force_terminal=False))
    view.started({Cell("a", "b", "en"): Tally(3)})
    view.stop()
    assert out.getvalue() == ""


def test_a_score_game_shows_the_mean_score_so_far() -> None:
    out = io.StringIO()
    view = ProgressView(Console(file=out, force_terminal=True, width=120, color_system=None))
    cell = Cell("scientist", "", "en")
    tallies = {cell: Tally(4)}
    view.started(tallies)
    for score in (24.0, 21.0):
        tallies[cell].add("finished", None, 0, score=score)
    view.game_done(cell, tallies[cell])
    view.stop()
    assert "mean score 22.5" in out.getvalue() and "win" not in out.getvalue()
