"""What report analyses aggregate of the measured player's decisions, for a list of games, as arrays.

A large store holds hundreds of thousands of decisions; walking them one
object at a time cost the report seconds.  The store keeps, per game, the
counts the sections need and the decision times and tokens in move order
(``tcgtui.store.facts``); ``DecisionFacts`` holds them for a list of games as
one numpy array per fact, per game (aligned with the list) or per decision
(game after game, each in move order).  An analysis selects with masks: a
selection keeps that order, so every sum, median and variance sees its values
in the order a loop over the games' moves would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import Any

import numpy as np

from tcgtui.engine.prompting import FALLBACKS


class DecisionFacts:
    """Per game: ``decisions``, ``invalid_attempts`` (unusable replies: a move recorded as ``!kind``
    where the rules count it, else each one the player asked again after or fell back from), ``tokens_estimated``
    (any count estimated), ``reported`` (decisions with a parse path) and among those ``parse[path]``
    (every path the games' prompters reported),
    ``invalid`` and ``fallback[name]``; ``kinds`` (kind -> decisions), ``card_kinds`` (kinds of its moves
    other than forfeits) and ``distinct_cards``.  Per decision: ``seconds``, ``tokens`` (NaN where not
    reported; ``has_tokens``), ``game`` (its game's position), ``step`` (its position in its game)
    and ``count`` (its game's decisions)."""

    def __init__(
        self,
        counts: dict[str, np.ndarray],
        kinds: list[dict[str, int]],
        card_kinds: list[tuple],
        paths: list[dict[str, int]],
        seconds: np.ndarray,
        tokens: np.ndarray,
    ) -> None:
        self.counts = counts
        self.decisions = counts["decisions"]
        self.invalid_attempts = counts["invalid_attempts"]
        self.tokens_estimated = counts["tokens_estimated"].astype(bool)
        self.reported = counts["reported"]
        self.paths = paths
        names = sorted({p for d in paths for p in d})
        self.parse = {p: np.fromiter((d.get(p, 0) for d in paths), np.int64, len(paths)) for p in names}
        self.invalid = counts["invalid"]
        self.fallback = {f: counts[f"fallback_{f}"] for f in FALLBACKS}
        self.distinct_cards = counts["distinct_cards"]
        self.kinds, self.card_kinds = kinds, card_kinds
        self.seconds, self.tokens = seconds, tokens
        self.has_tokens = ~np.isnan(tokens)
        n = self.decisions
        self.game = np.repeat(np.arange(len(n)), n)
        self.step = np.arange(len(seconds), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
        self.count = np.repeat(n, n)
        self.read: list[Any] | None = None  # the games list these facts were read for (see ``codes``)
        self._codes: dict[str, tuple[np.ndarray, list[Any]]] = {}

    COUNTS = (
        "decisions",
        "invalid_attempts",
        "tokens_estimated",
        "reported",
        "invalid",
        *(f"fallback_{f}" for f in FALLBACKS),
        "distinct_cards",
    )

    @classmethod
    def empty(cls, games: int) -> DecisionFacts:
        zero = np.zeros(games, np.int64)
        return cls({c: zero for c in cls.COUNTS}, [{}] * games, [()] * games, [{}] * games, np.zeros(0), np.zeros(0))

    def __len__(self) -> int:
        return len(self.decisions)

    def take(self, positions: np.ndarray) -> DecisionFacts:
        """The facts of the games at ``positions``, in that order."""
        n = self.decisions[positions]
        starts = (np.cumsum(self.decisions) - self.decisions)[positions]
        rows = np.arange(int(n.sum()), dtype=np.int64) + np.repeat(starts - (np.cumsum(n) - n), n)
        return DecisionFacts(
            {c: a[positions] for c, a in self.counts.items()},
            [self.kinds[i] for i in positions.tolist()],
            [self.card_kinds[i] for i in positions.tolist()],
            [self.paths[i] for i in positions.tolist()],
            self.seconds[rows],
            self.tokens[rows],
        )

    @classmethod
    def of(cls, games: Sequence[Any]) -> DecisionFacts:
        """The facts of ``games``: each game's ``facts`` (a shared DecisionFacts) at its ``position``;
        games without (made by hand) have no decisions."""
        read = {id(g.facts): g.facts for g in games if g.facts is not None}
        if not read:
            return cls.empty(len(games))
        if len(read) > 1 or any(g.facts is None for g in games):
            raise ValueError("games from more than one store read")
        shared = next(iter(read.values()))
        if shared.read_for(games):
            return shared
        positions = np.fromiter((g.position for g in games), np.int64, len(games))
        if len(positions) == len(shared) and np.array_equal(positions, np.arange(len(shared))):
            return shared
        return shared.take(positions)

    def read_for(self, games: Sequence[Any]) -> bool:
        """Whether ``games`` is the list these facts were read with, as read."""
        return self.read is games and len(games) == len(self)

    def of_games(self, chosen: np.ndarray) -> np.ndarray:
        """A mask over decisions: those of the games ``chosen`` (a mask over games) selects."""
        return chosen[self.game]


def codes(games: Sequence[Any], attribute: str) -> tuple[np.ndarray, list[Any]]:
    """Per game, the index of its ``attribute`` among the distinct values (in order of first
    appearance), and those values.  Worked out once per list the store read (kept with its
    facts): the analyses group the same games by the same few attributes many times over."""
    facts = games[0].facts if games else None
    shared = facts if facts is not None and facts.read_for(games) else None
    if shared is not None and attribute in shared._codes:
        return shared._codes[attribute]
    index: dict[Any, int] = {}
    found = np.fromiter(
        (index.setdefault(v, len(index)) for v in map(attrgetter(attribute), games)), np.int64, len(games)
    )
    out = found, list(index)
    if shared is not None:
        shared._codes[attribute] = out
    return out


def masks(games: Sequence[Any], keys: Callable[[Any], Iterable[Any]], by: Sequence[str]) -> dict[Any, np.ndarray]:
    """Per key, a mask over ``games`` of the games whose ``keys(game)`` name it: how analyses
    select the facts of a group of games.  ``keys`` reads only the attributes ``by`` names
    (``groups()`` counts as ``agent``): it is asked once per distinct combination of them."""
    combined = np.zeros(len(games), np.int64)
    for attribute in by:
        found, values = codes(games, attribute)
        combined = combined * len(values) + found
    _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    out: dict[Any, np.ndarray] = {}
    for combo, i in enumerate(first.tolist()):
        hit = inverse == combo
        for key in keys(games[i]):
            out[key] = out[key] | hit if key in out else hit
    return out
