"""The card game's own figure: win rate against opponent strength K, one line per agent and
language (``tcgtui report --plot``).  The shaded band is each point's exact 95% interval and the
dashed line the fitted decay (``tcgtui.engine.tcg.analysis``); found by ``tcgtui.report.plot``
through ``FIGURES``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np

from tcgtui import locales
from tcgtui.engine.tcg.analysis import decay
from tcgtui.report.analyses import Report, opponent_k
from tcgtui.report.plot import plt, save     # plt: with the Agg backend plot.py chose


def decay_curves(report: Report, path: Path) -> int:
    """Write the plot; return how many lines it has (0, and no file: nothing has a K to plot against)."""
    text = locales.load()
    series: dict[tuple[str, str, str], list[tuple[int, float, float, float]]] = defaultdict(list)
    for r in report.sections["win_rates"]:
        family, k = opponent_k(r["opponent"])
        if family and r["win_rate"] is not None:
            series[(r["agent"], r["lang"], family)].append((k, r["win_rate"], r["ci_low"], r["ci_high"]))
    if not series:
        return 0
    fits = {(f["agent"], f["lang"], f["opponent"]): f for f in report.sections["decay"]}
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    for (agent, lang, family), points in sorted(series.items()):
        points.sort()
        k = np.array([p[0] for p in points], dtype=float)
        w = np.array([p[1] for p in points])
        label = f"{agent} [{lang}]" + ("" if family == "mc" else f" vs {family}")
        line, = ax.plot(k, 100 * w, marker="o", label=label)
        banded = [p for p in points if p[2] is not None]      # the pooled people's row below 5 people: none
        ax.fill_between([p[0] for p in banded], [100 * p[2] for p in banded], [100 * p[3] for p in banded],
                        color=line.get_color(), alpha=0.15, linewidth=0)
        fit = fits.get((agent, lang, family))
        if fit and fit["a"] is not None:
            grid = np.geomspace(k.min(), k.max(), 100)
            ax.plot(grid, 100 * decay(grid, fit["a"], fit["b"]), linestyle="--", color=line.get_color(),
                    linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel(text.t("cmd_report.plot.x"))
    ax.set_ylabel(text.t("cmd_report.plot.y"))
    ax.set_title(text.t("cmd_report.plot.title"))
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    save(fig, path)
    return len(series)


FIGURES = {"decay": decay_curves}        # the section each figure draws
