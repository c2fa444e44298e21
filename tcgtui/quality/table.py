"""``tcgtui report --table quality``: per player, opponent, language and evaluator, the decisions
judged, the mean regret with a 95% interval, the blunder rate and how often the choice agreed with
the evaluator's best, from the values ``tcgtui analyze --run`` stored.

The interval resamples GAMES, not decisions: the decisions of one game hang together (a first
mistake puts a player in positions where others follow), so treating them as independent would make
the interval too narrow.  Each resample draws the cell's games with replacement and takes the mean
regret over all their decisions (total regret over total decisions, the estimate itself); the
interval is the 2.5th and 97.5th percentiles of ``RESAMPLES`` such means, drawn from a generator
seeded by ``--ci-seed``.  A cell of one game has no interval.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

import numpy as np

from tcgtui.quality import stored
from tcgtui.store import FINISHED, open_store

BLUNDER = 0.5           # a decision whose regret is above this is a blunder: it gave away a result
RESAMPLES = 2000
CONFIDENCE = 0.95
Row = dict[str, Any]


class Reader:
    """The stored values of games by id, read from the store at ``db`` when the table is built; it
    counts the decisions it found without any value (``missing`` of ``decisions``) for the report's hint."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.missing = self.decisions = 0

    def __call__(self, ids: Sequence[str]) -> tuple[list[stored.Value], dict[tuple[str, int], int]]:
        with open_store(self.db, create=False, read_only=True) as store:
            return stored.read(store.conn, ids)


def _views(games: list[Any]) -> list[tuple[str, int, str, str, str]]:
    """(game id, seat, player, opponent, language) of every seat of every finished game, once: a
    round robin's other seat comes as its own mirrored game, a bench's is added here."""
    mirrored = {g.id for g in games if g.mirror}
    out = []
    for g in games:
        if g.status != FINISHED:
            continue
        out.append((g.id, g.seat, g.agent, g.opponent, g.lang))
        if not g.mirror and g.id not in mirrored and len(g.seats) == 2:
            out.append((g.id, 1 - g.seat, g.opponent, g.agent, g.lang))
    return out


def interval(sums: np.ndarray, counts: np.ndarray, seed: int) -> tuple[float, float] | None:
    """The percentile interval of total regret over total decisions, resampling games (``sums`` and
    ``counts`` per game); None below two games."""
    if len(sums) < 2:
        return None
    picks = np.random.default_rng(seed).integers(0, len(sums), size=(RESAMPLES, len(sums)))
    means = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
    tail = (1 - CONFIDENCE) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


def _cells(games: list[Any], context: Any, by_kind: bool) -> dict[tuple, dict[str, list[float]]]:
    """Cell -> game id -> [regret sum, decisions, blunders, agreements]; a cell is (player, opponent,
    language, evaluator), or with ``by_kind`` (player, language, evaluator, the move's kind)."""
    reader = context.decision_values
    views = _views(games)
    values, made = reader(sorted({v[0] for v in views}))
    by_seat: dict[tuple[str, int], list[stored.Value]] = defaultdict(list)
    for value in values:
        by_seat[(value[0], value[2])].append(value)
    cells: dict[tuple, dict[str, list[float]]] = defaultdict(dict)
    reader.missing = reader.decisions = 0
    for gid, seat, agent, opponent, lang in views:
        found = by_seat.get((gid, seat), [])
        reader.decisions += made.get((gid, seat), 0)
        reader.missing += made.get((gid, seat), 0) - len({v[1] for v in found})
        for _, _, _, evaluator, regret, agrees, kind in found:
            key = (agent, lang, evaluator, kind or "–") if by_kind else (agent, opponent, lang, evaluator)
            tally = cells[key].setdefault(gid, [0.0, 0, 0, 0])
            tally[0] += regret
            tally[1] += 1
            tally[2] += regret > BLUNDER
            tally[3] += agrees
    return cells


def _measures(per_game: dict[str, list[float]], seed: int) -> Row:
    t = np.array(list(per_game.values()), dtype=float)
    n = int(t[:, 1].sum())
    ci = interval(t[:, 0], t[:, 1], seed)
    return {"games": len(per_game), "judged": n, "mean_regret": float(t[:, 0].sum()) / n,
            "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None,
            "blunders": int(t[:, 2].sum()), "blunder_rate": float(t[:, 2].sum()) / n,
            "agreement_rate": float(t[:, 3].sum()) / n}


def quality(games: list[Any], context: Any) -> list[Row]:
    """The table's rows (``context.decision_values``: a ``Reader``; without one, no rows)."""
    if getattr(context, "decision_values", None) is None:
        return []
    seed = getattr(context, "seed", 0)
    return [{"agent": agent, "opponent": opponent, "lang": lang, "evaluator": evaluator, **_measures(per_game, seed)}
            for (agent, opponent, lang, evaluator), per_game in sorted(_cells(games, context, False).items())]


def quality_by_kind(games: list[Any], context: Any) -> list[Row]:
    """The same measures per player, language, evaluator and kind of move (the card game: a card's type)."""
    if getattr(context, "decision_values", None) is None:
        return []
    seed = getattr(context, "seed", 0)
    return [{"agent": agent, "lang": lang, "evaluator": evaluator, "kind": kind, **_measures(per_game, seed)}
            for (agent, lang, evaluator, kind), per_game in sorted(_cells(games, context, True).items())]
