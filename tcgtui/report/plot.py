"""The report's figures, drawn with matplotlib's Agg backend (no display needed).

The calibration plot and the seeds' figures are drawn here; a game's own figures
(the card game's decay curves) come from its app side's ``figures`` module, whose
``FIGURES`` maps a section to the function drawing it (``AppSide.figures``).
"""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402

from tcgtui import locales, userfiles  # noqa: E402
from tcgtui.errors import UserError  # noqa: E402
from tcgtui.app_side import app_for  # noqa: E402
from tcgtui.report.analyses import Report  # noqa: E402

FORMATS = (".png", ".svg")


def check_target(path: Path) -> None:
    if path.suffix.lower() not in FORMATS:
        raise UserError(locales.load().t("cmd_report.errors.plot_format", path=str(path)))
    userfiles.check_target("--plot", path)


def calibration_plot(report: Report, path: Path) -> int:
    """Reports with a ``calibration`` section (stated confidence, accuracy with an interval, guess rate):
    accuracy against stated confidence beside the diagonal, and the guess rate beside the step a
    calibrated player would follow.  Returns how many players it drew (0: nothing judged)."""
    text = locales.load()
    series: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in report.sections["calibration"]:
        series[(r["agent"], r["lang"])].append(r)
    series = {k: v for k, v in series.items() if any(r["accuracy_rate"] is not None for r in v)}
    if not series:
        return 0
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), dpi=120)
    for (agent, lang), rows in sorted(series.items()):
        rows = sorted(rows, key=lambda r: r["stated_rate"])
        judged = [r for r in rows if r["accuracy_rate"] is not None]
        x = np.array([100 * r["stated_rate"] for r in judged])
        y = np.array([100 * r["accuracy_rate"] for r in judged])
        err = np.array([[100 * (r["accuracy_rate"] - r["ci_low"]) for r in judged],
                        [100 * (r["ci_high"] - r["accuracy_rate"]) for r in judged]])
        line = left.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"{agent} [{lang}]")
        guessed = [r for r in rows if r["guess_rate"] is not None]
        right.plot([100 * r["stated_rate"] for r in guessed], [100 * r["guess_rate"] for r in guessed],
                   marker="o", color=line[0].get_color(), label=f"{agent} [{lang}]")
    left.plot([50, 100], [50, 100], linestyle="--", color="grey", linewidth=1,
              label=text.t("cmd_report.plot.calibration.diagonal"))
    steps = sorted(series.values(), key=len)[-1]
    right.step([100 * r["stated_rate"] for r in steps], [100 * r["calibrated_guess_rate"] for r in steps],
               where="mid", linestyle="--", color="grey", label=text.t("cmd_report.plot.calibration.step"))
    for ax, y_key, title_key in ((left, "y", "title"), (right, "guess_y", "guess_title")):
        ax.set_xlabel(text.t("cmd_report.plot.calibration.x"))
        ax.set_ylabel(text.t(f"cmd_report.plot.calibration.{y_key}"))
        ax.set_title(text.t(f"cmd_report.plot.calibration.{title_key}"), fontsize="medium")
        ax.set_ylim(-2, 102)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    save(fig, path)
    return len(series)


def save(fig: Any, path: Path) -> None:
    """Write the figure, or say in one line why the file cannot be written."""
    fig.tight_layout()
    image = io.BytesIO()
    try:
        fig.savefig(image, format=path.suffix.lower().lstrip("."))
    finally:
        plt.close(fig)
    userfiles.write_atomic("--plot", path, [image.getvalue()])


def game_figures(report: Report) -> dict[str, Callable[[Report, Path], int]]:
    """The game's own figures, by the section each draws (its app side's ``figures``)."""
    side = app_for(report.game).figures
    return dict(side.load().FIGURES) if side is not None else {}


def fixed_figures(spec: Any, report: Report) -> list[str]:
    """The figures a report draws from its default sections (the game's own, the calibration plot)."""
    return [name for name in (*game_figures(report), "calibration") if name in report.sections]


def figure(report: Report, name: str, path: Path) -> int:
    """A seed table's figure (``SeedTable.figure``): a line or scatter per series; returns the series drawn."""
    spec = report.extra[name].figure
    rows = [r for r in report.section(name) if r.get(spec.x) is not None and r.get(spec.y) is not None]
    if not rows:
        return 0
    text = locales.load()
    # start-up time: render (scipy) only once a figure is drawn
    from tcgtui.report.render import header, title
    scale = 100.0 if spec.percent_y else 1.0
    series: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        series[tuple(r.get(k) for k in spec.series)].append(r)
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    for key, points in sorted(series.items(), key=lambda kv: str(kv[0])):
        if not any(isinstance(r[spec.x], str) for r in points):
            points.sort(key=lambda r: r[spec.x])        # names (players, phases) keep the table's order
        x = [r[spec.x] for r in points]
        y = [scale * r[spec.y] for r in points]
        label = " ".join(str(k) for k in key)
        if spec.kind == "line":
            line, = ax.plot(x, y, marker="o", label=label)
        else:
            line = ax.scatter(x, y, label=label)
        if spec.low and spec.high:
            low = [scale * (r[spec.y] - r[spec.low]) if r.get(spec.low) is not None else 0 for r in points]
            high = [scale * (r[spec.high] - r[spec.y]) if r.get(spec.high) is not None else 0 for r in points]
            ax.errorbar(x, y, yerr=[low, high], fmt="none", capsize=3,
                        ecolor=line.get_color() if spec.kind == "line" else None)
    if spec.log_x:
        ax.set_xscale("log")
    if any(isinstance(r[spec.x], str) for r in rows):        # players' names along x: slanted, not overlapping
        plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
    ax.set_xlabel(header(report, spec.x, text))
    ax.set_ylabel(header(report, spec.y, text) + (" (%)" if spec.percent_y else ""))
    ax.set_title(title(report, name, text), fontsize="medium")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    save(fig, path)
    return len(series)


def draw_all(report: Report, folder: Path) -> list[Path]:
    """``--plot DIR``: every figure the report offers, one PNG each, into ``folder`` (made if missing)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(locales.load().t("cmd_report.errors.plot_folder", path=str(folder), reason=str(exc)))
    userfiles.check_target("--plot", folder / "decay.png")
    drawn = []
    own = game_figures(report)
    for name in fixed_figures(None, report):
        path = folder / f"{name}.png"
        if own.get(name, calibration_plot)(report, path):
            drawn.append(path)
    for name, table in report.extra.items():
        if table.figure is not None:
            path = folder / f"{name}.png"
            if figure(report, name, path):
                drawn.append(path)
    return drawn


def draw(report: Report, path: Path) -> int:
    """The report's plot: the game's own figure where it has one (the card game's decay curves),
    else a calibration plot."""
    for name, draw_own in game_figures(report).items():
        if name in report.sections:
            return draw_own(report, path)
    if "calibration" in report.sections:
        return calibration_plot(report, path)
    return 0
