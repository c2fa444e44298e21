"""What the app is asked to put on the board, without any Textual: a ``Deal`` (one
game: seats, seed, where it is kept) and the ``Table`` that deals them.

``tcgtui.tables`` builds its store-backed tables on these; the app only calls
``Table.deal``.  Nothing here imports the interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from tcgtui.engine.core import Match
from tcgtui.match import DecisionRecord, MatchResult

Note = tuple[str, dict[str, Any]]          # a locale key and its parameters


@dataclass
class Deal:
    """One game to put on the board: who sits where, from which seed, and where it is kept."""

    seed: int
    seats: tuple[str, ...]
    resume: Match | None = None                                   # a game under way, rebuilt from the store
    earlier: list[DecisionRecord] = field(default_factory=list)   # its moves so far (for the summary)
    on_move: Callable[[DecisionRecord], None] | None = None      # called after every move
    on_settled: Callable[[], None] | None = None                  # called after every referee's move (a verdict)
    on_result: Callable[[MatchResult], None] | None = None       # called once, when the game ends
    note: Note | None = None                                      # shown on the top bar (a campaign's level)
    after: Callable[[], Note] | None = None                       # shown on the game-over screen
    kept: Callable[[], tuple[str, int] | None] | None = None      # the stored game's id and moves (None: none yet)


class Table(Protocol):
    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        """The next game (the first when ``previous`` is None); None when there is none."""


@dataclass
class PlainTable:
    """Deals from a seed on (a rematch is the next seed) and keeps nothing."""

    seed: int
    seats: tuple[str, ...]

    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        return Deal(self.seed if previous is None else previous.seed + 1, self.seats)
