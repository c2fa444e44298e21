"""The moves that decided a game, marked on a replay's steps.

Each game marks its own (its app side's ``replay``: ``mark``), by the test its report
already counts, asked of one position: the grid games' missed wins and blocks, lethal in the
card game (a card that ends the game now, or a reply to the opponent's), Eleusis's wrong
guesses, a duel's failed checks, the deck quiz's wrong answer.
A mark is a locale key under ``replay.moment`` and its parameters (moves as a tuple of
their texts, which the viewer names in its language).
"""

from __future__ import annotations

from typing import Any

from tcgtui.app_side import app_for
from tcgtui.replay.steps import Replay, Step

Mark = tuple[str, dict[str, Any]]


def mark(replay: Replay) -> None:
    """Mark the steps that decided the game, by the game's own test (its app side's ``mark``)."""
    own = app_for(replay.row.game).replay
    if own is not None:
        own.load().mark(replay)


def marked(steps: list[Step]) -> list[int]:
    """The indices of the steps that carry a mark: the game's own, or a stored evaluator's blunder."""
    return [s.index for s in steps if s.moment is not None or s.judged is not None]
