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
from typing import Any, Callable, Iterable, NamedTuple, Sequence

import numpy as np

from tcgtui.quality import stored
from tcgtui.store import FINISHED, open_store

BLUNDER = 0.5           # a decision whose regret is above this is a blunder: it gave away a result
# The report's tables whose note states BLUNDER.
QUALITY_TABLES = ("quality", "quality_by_kind", "quality_by_phase", "adaptability", "regret_ranking")
RESAMPLES = 2000
CONFIDENCE = 0.95
Row = dict[str, Any]


class Reader:
    """The stored values of games by id, read from the store at ``db`` when the table is built; it
    counts the decisions it found without any value (``missing`` of ``decisions``) for the report's hint."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.missing = self.decisions = 0

    def __call__(self, ids: Sequence[str]) -> stored.Stored:
        with open_store(self.db, create=False, read_only=True) as store:
            return stored.read(store.conn, ids)

    def choices(self, ids: Sequence[str]) -> tuple[list[stored.Choice], dict[str, tuple[int, int]]]:
        """The decisions among legal moves of the games ``ids``, and each game's (moves, turns)."""
        with open_store(self.db, create=False, read_only=True) as store:
            return stored.choices(store.conn, ids), stored.lengths(store.conn, ids)


class View(NamedTuple):
    """One seat of one finished game, as a row of the tables counts it."""

    game_id: str
    seat: int
    agent: str
    opponent: str
    lang: str


def views(games: list[Any]) -> list[View]:
    """Every seat of every finished game, once: a round robin's other seat comes as its own mirrored
    game, a bench's is added here."""
    mirrored = {g.id for g in games if g.mirror}
    out = []
    for g in games:
        if g.status != FINISHED:
            continue
        out.append(View(g.id, g.seat, g.agent, g.opponent, g.lang))
        if not g.mirror and g.id not in mirrored and len(g.seats) == 2:
            out.append(View(g.id, 1 - g.seat, g.opponent, g.agent, g.lang))
    return out


def resampled(sums: np.ndarray, counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``RESAMPLES`` means of total regret over total decisions, each of the games (``sums`` and
    ``counts`` per game) drawn with replacement."""
    picks = rng.integers(0, len(sums), size=(RESAMPLES, len(sums)))
    return sums[picks].sum(axis=1) / counts[picks].sum(axis=1)


def percentiles(draws: np.ndarray) -> tuple[float, float]:
    """The central ``CONFIDENCE`` interval of bootstrap draws."""
    tail = (1 - CONFIDENCE) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return float(low), float(high)


def interval(sums: np.ndarray, counts: np.ndarray, seed: int) -> tuple[float, float] | None:
    """The percentile interval of total regret over total decisions, resampling games (``sums`` and
    ``counts`` per game); None below two games."""
    if len(sums) < 2:
        return None
    return percentiles(resampled(sums, counts, np.random.default_rng(seed)))


# A decision's cells: from the seat's view, its value and its game's (moves, turns), the keys it counts under.
Keys = Callable[[View, stored.Value, tuple[int, int]], Iterable[tuple]]
Cells = dict[tuple, dict[str, list[float]]]


def cells(games: list[Any], context: Any, keys: Keys) -> Cells:
    """Cell -> game id -> [regret sum, decisions, blunders, agreements], each decision counted in
    the cells ``keys`` gives it."""
    reader = context.decision_values
    seats = views(games)
    got = reader(sorted({v.game_id for v in seats}))
    by_seat: dict[tuple[str, int], list[stored.Value]] = defaultdict(list)
    for value in got.values:
        by_seat[(value.game_id, value.seat)].append(value)
    out: Cells = defaultdict(dict)
    reader.missing = reader.decisions = 0
    for view in seats:
        found = by_seat.get((view.game_id, view.seat), [])
        made = got.made.get((view.game_id, view.seat), 0)
        reader.decisions += made
        reader.missing += made - len({v.idx for v in found})
        length = got.lengths.get(view.game_id, (0, 0))
        for value in found:
            for key in keys(view, value, length):
                tally = out[key].setdefault(view.game_id, [0.0, 0, 0, 0])
                tally[0] += value.regret
                tally[1] += 1
                tally[2] += value.regret > BLUNDER
                tally[3] += value.agrees
    return out


def measures(per_game: dict[str, list[float]], seed: int) -> Row:
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
    found = cells(games, context, lambda view, value, _: [(view.agent, view.opponent, view.lang, value.evaluator)])
    return [{"agent": agent, "opponent": opponent, "lang": lang, "evaluator": evaluator, **measures(per_game, seed)}
            for (agent, opponent, lang, evaluator), per_game in sorted(found.items())]


def quality_by_kind(games: list[Any], context: Any) -> list[Row]:
    """The same measures per player, language, evaluator and kind of move (the card game: a card's type)."""
    if getattr(context, "decision_values", None) is None:
        return []
    seed = getattr(context, "seed", 0)
    found = cells(games, context,
                  lambda view, value, _: [(view.agent, view.lang, value.evaluator, value.kind or "–")])
    return [{"agent": agent, "lang": lang, "evaluator": evaluator, "kind": kind, **measures(per_game, seed)}
            for (agent, lang, evaluator, kind), per_game in sorted(found.items())]
