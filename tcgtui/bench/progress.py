"""What a sweep shows: one live bar per cell (games done, win rate so far, ETA), then a summary table."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn
from rich.table import Table

from tcgtui import locales
from tcgtui.bench.plan import Cell
from tcgtui.console_text import safe
from tcgtui.bench.runner import SweepResult, Tally


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
        if tally.scores:                  # a score game: the mean score so far, not a win rate
            return self.text.t("cmd_bench.live_score", score=f"{tally.mean_score:.1f}") + errored
        if rate is None:
            return errored
        return self.text.t("cmd_bench.live_rate", rate=f"{100 * rate:.1f}") + errored

    def started(self, tallies: dict[Cell, Tally]) -> None:
        for cell, tally in tallies.items():
            self.tasks[cell] = self.progress.add_task(safe(cell.label()), total=tally.planned, completed=tally.done,
                                                      rate=self._rate(tally))
        self.progress.start()

    def game_done(self, cell: Cell, tally: Tally) -> None:
        self.progress.update(self.tasks[cell], completed=tally.done, rate=self._rate(tally))

    def stop(self) -> None:
        self.progress.stop()


def summary_table(result: SweepResult, text: locales.Catalog, score: bool = False,
                  right_wrong: bool = False, solved: bool = False, anytime: bool = False) -> Table:
    """Every cell of the sweep, stored games included: results, win rate and its exact interval
    (``anytime``, a sequential run's: its anytime-valid one); for a score game (``score``), the mean
    score, its interval and the range instead (and with ``solved``, the share of games solved and its
    exact interval)."""
    from tcgtui.report.stats import clopper_pearson        # scipy: only once there is something to show
    from tcgtui.engine.stats import confidence_sequence
    if score:
        return score_table(result, text, right_wrong, solved, anytime)
    interval = confidence_sequence if anytime else clopper_pearson
    table = Table(title=text.t("cmd_bench.summary_title"), title_justify="left")
    for col in ("agent", "opponent", "lang", "finished", "wins", "draws", "losses", "cancelled", "disqualified",
                "errored", "win_rate", "ci_anytime" if anytime else "ci"):
        table.add_column(text.t(f"cmd_bench.col.{col}"),
                         justify="left" if col in ("agent", "opponent", "lang") else "right")
    for cell, t in result.tallies.items():
        ci = interval(t.wins, t.decided)
        table.add_row(safe(cell.agent), safe(cell.opponent), safe(cell.lang), str(t.decided), str(t.wins), str(t.draws),
                      str(t.decided - t.wins - t.draws), str(t.cancelled), str(t.disqualified), str(t.errored),
                      "–" if t.win_rate is None else f"{100 * t.win_rate:.1f}%",
                      "–" if ci is None else f"[{100 * ci[0]:.1f}%, {100 * ci[1]:.1f}%]")
    return table


def score_table(result: SweepResult, text: locales.Catalog, right_wrong: bool = False,
                solved: bool = False, anytime: bool = False) -> Table:
    """A score game's cells: games, mean score with its interval (exact for right/wrong scores, else
    Student's t; a sequential run's right/wrong share anytime-valid), lowest and highest; with
    ``solved``, games solved and their share's exact interval."""
    # start-up time: report.stats pulls in scipy, needed only for the summary
    from tcgtui.report.stats import clopper_pearson, score_interval
    from tcgtui.engine.stats import confidence_sequence
    solo = all(not cell.opponent for cell in result.tallies)
    exact = "_anytime" if anytime and right_wrong else "_exact" if right_wrong else ""
    cols = ["agent", *([] if solo else ["opponent"]), "lang", "finished", "errored", "mean_score", f"score_ci{exact}",
            "min_score", "max_score", *(["solved", "solved_ci"] if solved else [])]
    table = Table(title=text.t(f"cmd_bench.score_title{exact}"), title_justify="left")
    for col in cols:
        table.add_column(text.t(f"cmd_bench.col.{col}"),
                         justify="left" if col in ("agent", "opponent", "lang") else "right")
    for cell, t in result.tallies.items():
        ci = confidence_sequence(int(sum(t.scores)), len(t.scores)) if anytime and right_wrong else \
            score_interval(t.scores, right_wrong)
        mean = t.mean_score
        row = [safe(cell.agent), *([] if solo else [safe(cell.opponent)]), safe(cell.lang), str(t.finished),
               str(t.errored), "–" if mean is None else f"{mean:.2f}",
               "–" if ci is None else f"[{ci[0]:.2f}, {ci[1]:.2f}]",
               "–" if not t.scores else f"{min(t.scores):g}", "–" if not t.scores else f"{max(t.scores):g}"]
        if solved:
            share = clopper_pearson(t.solved, t.finished)
            row += [f"{t.solved}/{t.finished}", "–" if share is None else f"[{share[0]:.2f}, {share[1]:.2f}]"]
        table.add_row(*row)
    return table
