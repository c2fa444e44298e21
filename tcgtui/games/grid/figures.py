"""The grid games' own figure: win, draw and disqualification rates of each player moving first and
moving second, one panel per game (the grid benchmark's Figures 3-11, one per game and prompt type:
a prompt type is part of the player's name here, as the report keeps runs with different settings
apart).  Found by ``tcgtui.report.plot`` through ``FIGURES``."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np

from tcgtui import locales
from tcgtui.report.analyses import Report
from tcgtui.report.plot import plt, save     # plt: with the Agg backend plot.py chose

MEASURES = (("win_rate", "#2e8b57"), ("draw_rate", "#808080"), ("disqualified_rate", "#c0392b"))
MOVERS = (("first", ""), ("second", "//"))


def seat_rates(report: Report, path: Path) -> int:
    """Write the figure; return how many panels it has (0, and no file, when no game ended)."""
    text = locales.load()
    panels: dict[str, dict[str, dict[str, dict]]] = defaultdict(lambda: defaultdict(dict))
    for r in report.sections.get("seat_rates", []):
        if r["games"]:
            panels[r["game"]][r["agent"]][r["mover"]] = r
    if not panels:
        return 0

    def say(key: str) -> str:
        return text.t(f"grid.report.{key}")

    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3.6 * len(panels)), dpi=120, squeeze=False)
    width = 0.8 / (len(MEASURES) * len(MOVERS))
    for ax, (game, players) in zip(axes[:, 0], sorted(panels.items())):
        names = sorted(players)
        x = np.arange(len(names))
        bar = 0
        for measure, colour in MEASURES:
            for mover, hatch in MOVERS:
                heights = [100 * (players[n].get(mover, {}).get(measure) or 0) for n in names]
                ax.bar(x - 0.4 + (bar + 0.5) * width, heights, width, color=colour, hatch=hatch,
                       edgecolor="white", label=f"{say('col.' + measure)} · {say('mover.' + mover)}")
                bar += 1
        ax.set_xticks(x, names, fontsize="small")
        ax.set_ylim(0, 100)
        ax.set_ylabel("%")
        ax.set_title(text.t(f"grid.games.{game}.name") if text.has(f"grid.games.{game}.name") else game,
                     fontsize="medium")
        ax.grid(True, axis="y", alpha=0.3)
    axes[0, 0].legend(fontsize="x-small", ncol=3, loc="upper right")
    fig.suptitle(say("section.seat_rates"), fontsize="medium")
    fig.tight_layout()
    save(fig, path)
    return len(panels)


FIGURES = {"seat_rates": seat_rates}        # the section each figure draws
