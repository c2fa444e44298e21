"""``tcgtui report --table regret_ranking``: players ordered by mean regret (issue 40, part 3b), per
opponent, language and evaluator (players are compared against the same opponent: regret depends on
it, docs/quality.md's adaptability), each with the ``quality`` table's interval (bootstrap over games), and for
each player and the next one down whether their order is established at 95%.

The order of two adjacent players is established when the percentile interval of the difference in
mean regret excludes 0.  The difference is resampled with each player's games drawn independently
(two players' games are not paired: they may come from different runs and opponents), 2,000 times
from one generator seeded by ``--ci-seed``.  A player with one game has no interval, and no order
with its neighbours is established.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tcgtui.quality.table import Row, cells, measures, percentiles, resampled


def difference(lower: np.ndarray, higher: np.ndarray, seed: int) -> tuple[float, float] | None:
    """The interval of ``higher``'s mean regret minus ``lower``'s (rows of regret sum and decisions
    per game), each player's games resampled apart; None when either has fewer than two games."""
    if len(lower) < 2 or len(higher) < 2:
        return None
    rng = np.random.default_rng(seed)
    first = resampled(lower[:, 0], lower[:, 1], rng)
    return percentiles(resampled(higher[:, 0], higher[:, 1], rng) - first)


def regret_ranking(games: list[Any], context: Any) -> list[Row]:
    """The table's rows: per opponent, language and evaluator, players from the least mean regret up."""
    if getattr(context, "decision_values", None) is None:
        return []
    seed = getattr(context, "seed", 0)
    found = cells(games, context, lambda view, value, _: [(view.opponent, view.lang, value.evaluator, view.agent)])
    groups: dict[tuple[str, str, str], list[tuple[str, np.ndarray, Row]]] = {}
    for (opponent, lang, evaluator, agent), per_game in found.items():
        tallies = np.array(list(per_game.values()), dtype=float)[:, :2]
        groups.setdefault((opponent, lang, evaluator), []).append((agent, tallies, measures(per_game, seed)))
    rows = []
    for (opponent, lang, evaluator), players in sorted(groups.items()):
        players.sort(key=lambda p: (p[2]["mean_regret"], p[0]))
        for rank, (agent, tallies, measured) in enumerate(players, 1):
            row = {"opponent": opponent, "lang": lang, "evaluator": evaluator, "rank": rank, "agent": agent,
                   **{k: measured[k] for k in ("games", "judged", "mean_regret", "ci_low", "ci_high")},
                   "next": None, "gap": None, "gap_low": None, "gap_high": None, "established": None}
            if rank < len(players):
                below, their, theirs = players[rank]
                ci = difference(tallies, their, seed)
                row.update(next=below, gap=theirs["mean_regret"] - measured["mean_regret"],
                           gap_low=ci[0] if ci else None, gap_high=ci[1] if ci else None,
                           established=bool(ci and (ci[0] > 0 or ci[1] < 0)))
            rows.append(row)
    return rows
