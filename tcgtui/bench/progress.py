"""Live progress of a sweep: one bar per cell with games done, win rate so far and ETA."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

import locales
from tcgtui.bench.plan import Cell
from tcgtui.bench.runner import Tally


class ProgressView:
    """Rich bars on a terminal; nothing when output is piped (the summary table still prints)."""

    def __init__(self, console: Console) -> None:
        self.text = locales.load()
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                                 console=console, disable=not console.is_terminal)
        self.tasks: dict[Cell, TaskID] = {}

    def _rate(self, tally: Tally) -> str:
        rate = tally.win_rate
        errored = self.text.t("cmd_bench.live_errored", count=tally.errored) if tally.errored else ""
        if rate is None:
            return errored
        return self.text.t("cmd_bench.live_rate", rate=f"{100 * rate:.1f}") + errored

    def started(self, tallies: dict[Cell, Tally]) -> None:
        for cell, tally in tallies.items():
            self.tasks[cell] = self.progress.add_task(escape(cell.label()), total=tally.planned, completed=tally.done,
                                                      rate=self._rate(tally))
        self.progress.start()

    def game_done(self, cell: Cell, tally: Tally) -> None:
        self.progress.update(self.tasks[cell], completed=tally.done, rate=self._rate(tally))

    def stop(self) -> None:
        self.progress.stop()
