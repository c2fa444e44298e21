"""The measured player's decisions of many games as columns (numpy arrays), for report analyses.

A large store holds hundreds of thousands of decisions; an analysis that walks
them one object at a time spends seconds in the interpreter.  ``MoveColumns``
holds the same facts as one array per fact, decision by decision in the order of
the games given and, within a game, in move order, so an analysis selects with
masks and sums in numpy: a selection keeps that order, and every sum, median
and variance sees its values in the order the per-object loops saw them.

The report reads decisions straight into one shared ``MoveColumns`` and gives
each game a ``MoveList`` view of its rows (Move objects are built only when
something iterates a game's moves); ``MoveColumns.of(games)`` gathers the rows
of any list of games, or builds them from plain move objects (games made by hand).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import numpy as np

INVALID = "!"
FIELDS = ("move", "kind", "seconds", "tokens", "parse_path", "invalid", "fallback", "tokens_estimated")


class MoveColumns:
    """Decisions as arrays: ``game`` (position of its game in the list it was made for), ``step``
    (its position among its game's decisions), ``count`` (its game's decisions), and one array per
    field of a move: ``tokens`` is NaN where not reported (``has_tokens`` False)."""

    def __init__(self, move: np.ndarray, kind: np.ndarray, seconds: np.ndarray, tokens: np.ndarray,
                 parse_path: np.ndarray, invalid: np.ndarray, fallback: np.ndarray, tokens_estimated: np.ndarray,
                 game: np.ndarray, step: np.ndarray, count: np.ndarray) -> None:
        self.move, self.kind, self.seconds, self.tokens = move, kind, seconds, tokens
        self.parse_path, self.invalid, self.fallback, self.tokens_estimated = parse_path, invalid, fallback, \
            tokens_estimated
        self.game, self.step, self.count = game, step, count
        self.has_tokens = ~np.isnan(tokens)

    def __len__(self) -> int:
        return len(self.seconds)

    @classmethod
    def from_rows(cls, counts: Sequence[int], move: Sequence[str], kind: Sequence[Any], seconds: Sequence[float],
                  tokens: Sequence[float | None], parse_path: Sequence[Any], invalid: Sequence[Any],
                  fallback: Sequence[Any], tokens_estimated: Sequence[Any]) -> MoveColumns:
        """Columns of games whose decisions come one game after another (``counts[i]`` for game i)."""
        n = len(seconds)
        count = np.asarray(counts, dtype=np.int64)
        game = np.repeat(np.arange(len(count)), count)
        starts = np.cumsum(count) - count
        step = np.arange(n, dtype=np.int64) - np.repeat(starts, count)
        return cls(_objects(move), _objects(kind), np.asarray(seconds, dtype=float).reshape(n),
                   np.array([np.nan if t is None else t for t in tokens], dtype=float).reshape(n),
                   _objects(parse_path), np.fromiter(map(bool, invalid), bool, n), _objects(fallback),
                   np.fromiter(map(bool, tokens_estimated), bool, n), game, step, np.repeat(count, count))

    def take(self, rows: np.ndarray, game: np.ndarray) -> MoveColumns:
        """The given rows, renumbered to the given game positions."""
        return MoveColumns(self.move[rows], self.kind[rows], self.seconds[rows], self.tokens[rows],
                           self.parse_path[rows], self.invalid[rows], self.fallback[rows],
                           self.tokens_estimated[rows], game, self.step[rows], self.count[rows])

    @classmethod
    def of(cls, games: Sequence[Any]) -> MoveColumns:
        """The decisions of ``games`` (each with ``moves``), game after game in their order."""
        views = [g.moves for g in games]
        table = views[0].table if views and isinstance(views[0], MoveList) else None
        if table is not None and all(isinstance(v, MoveList) and v.table is table for v in views):
            starts = np.fromiter((v.start for v in views), np.int64, len(views))
            counts = np.fromiter((len(v) for v in views), np.int64, len(views))
            if len(table) == int(counts.sum()) and np.array_equal(starts, np.cumsum(counts) - counts):
                return table if np.array_equal(table.game, np.repeat(np.arange(len(views)), counts)) \
                    else table.take(np.arange(len(table)), np.repeat(np.arange(len(views)), counts))
            offsets = np.cumsum(counts) - counts
            rows = np.arange(int(counts.sum()), dtype=np.int64) + np.repeat(starts - offsets, counts)
            return table.take(rows, np.repeat(np.arange(len(views)), counts))
        moves = [m for v in views for m in v]
        return cls.from_rows([len(v) for v in views], [m.move for m in moves], [m.kind for m in moves],
                             [m.seconds for m in moves], [m.tokens for m in moves], [m.parse_path for m in moves],
                             [m.invalid for m in moves], [m.fallback for m in moves],
                             [m.tokens_estimated for m in moves])

    def invalid_attempts(self) -> np.ndarray:
        """Moves the game's rules counted as invalid (recorded as ``!kind``)."""
        return np.fromiter((m.startswith(INVALID) for m in self.move), bool, len(self.move))

    def of_games(self, games: np.ndarray) -> np.ndarray:
        """A mask of the decisions of the games whose positions ``games`` (a boolean mask over games) selects."""
        return games[self.game] if len(self.game) else np.zeros(0, bool)


class MoveList(Sequence):
    """One game's decisions: rows ``start`` to ``start + length`` of a shared ``MoveColumns``,
    built into move objects (by ``make``) the first time they are read one by one."""

    __slots__ = ("table", "start", "length", "make", "_items")

    def __init__(self, table: MoveColumns, start: int, length: int, make: Callable[..., Any]) -> None:
        self.table, self.start, self.length, self.make = table, start, length, make
        self._items: list[Any] | None = None

    def _list(self) -> list[Any]:
        if self._items is None:
            t, rows = self.table, range(self.start, self.start + self.length)
            self._items = [self.make(str(t.move[i]), t.kind[i], float(t.seconds[i]),
                                     None if np.isnan(t.tokens[i]) else float(t.tokens[i]), t.parse_path[i],
                                     bool(t.invalid[i]), t.fallback[i], bool(t.tokens_estimated[i])) for i in rows]
        return self._items

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: Any) -> Any:
        return self._list()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (list, MoveList)) else NotImplemented


def _objects(values: Sequence[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = list(values)
    return out
