"""What a compiled search accelerator offers the generic search players.

``mc:K`` and ``mcts:N`` work on every game with a finite move list through the
core API alone.  A game whose speed needs more registers a module (``GameSpec.fast``)
with these functions; the work items they return are plain data (numpy arrays
and numbers) so that threads and worker processes can run them.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from tcgtui.engine.core import Game

WIN, DRAW, LOSS = 0, 1, 2  # columns of a playout tally, from the searching seat's side


class FastSearch(Protocol):
    def prepare(self, game: Game) -> Any:
        """Whatever the kernels need about this game (compiled once per game object)."""

    def encode(self, prepared: Any, obs: Any) -> np.ndarray:
        """The observation as the kernels read it (hidden parts re-dealt per playout)."""

    def move_index(self, prepared: Any, obs: Any, moves: list[Any]) -> np.ndarray:
        """The moves as the kernels number them."""

    def playouts(
        self, prepared: Any, encoded: np.ndarray, seat: int, moves: np.ndarray, first: int, count: int, seed: int
    ) -> np.ndarray:
        """Win/draw/loss counts, shape (len(moves), 3), of playouts ``first .. first+count-1``
        after each move; playout i of move m draws from a stream fixed by (seed, m, i)."""

    def warm_up(self, game: Game) -> None:
        """Compile now (called in a background thread before the first search)."""
