"""``nmc:K``: flat Monte Carlo whose playouts are played by flat Monte Carlo, for the card game.

Each card in hand is tried on re-deals of what this seat cannot see (the same
re-deals for every card); in the playouts both sides choose every card by five
random playouts per card (``mc:5``) instead of at random, so the playouts
model two players who play, not two who guess (docs/ladder.md measures why
that is what random playouts miss, and that a better player inside helps more
than more playouts).  The player is handed a state rebuilt
from its observation (``Reference``), and reads only that observation.

Its loop is ``kernel.nmc_playouts``, compiled and cached with the rest of the
kernel; playout j of a decision is fixed by (decision seed, j), so the work can
stop between batches (``anytime``, under a person's time budget) and the
playouts it did finish are the ones the full decision would have made.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

INNER = 5  # random playouts per card when a playout's player chooses (``mc:5``)
BATCH = 8  # playouts per card between two looks at the clock under a budget


class _Program:
    """The pack compiled for the kernel, made at the first decision (see ``_decide``)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.value: Any = None

    def get(self) -> Any:
        if self.value is None:
            # the kernel's import compiles on a new install: here, at the first decision
            from tcgtui.engine.tcg.fast import search

            self.value = search.prepare(self.game)
        return self.value


def _decide(
    program: _Program, state: Any, rng: random.Random, k: int, stop: Callable[[], bool] | None
) -> tuple[str, int, int]:
    """(card, playouts done, playouts asked): up to ``k`` playouts per distinct card, the best
    share of wins (a draw counts half) chosen, the first such card on a tie."""
    # the compiled kernel is loaded at the first decision, in the agent's thread, never when a
    # player is built (on a new install that is a compile of some seconds)
    from tcgtui.engine.tcg.fast import kernel, search

    moves = state.legal_moves()
    asked = k * len(moves)
    if len(moves) == 1:
        return moves[0], asked, asked
    obs = state.observation(state.current_player)
    compiled = program.get()
    base = search.encode(compiled, obs)
    index = search.move_index(compiled, obs, moves)
    seed = rng.getrandbits(63)
    out = np.zeros((len(moves), 3), dtype=np.int64)
    done = 0
    step = k if stop is None else BATCH
    while done < k and not (done and stop is not None and stop()):
        count = min(step, k - done)
        kernel.nmc_playouts(compiled.code, base, obs.seat, index, done, count, seed, INNER, out)
        done += count
    score = out[:, kernel.WIN] + 0.5 * out[:, kernel.DRAW]
    return moves[int(np.argmax(score))], done * len(moves), asked


def policy(game: Any, k: int | None) -> Callable[[Any, random.Random], str]:
    program = _Program(game)
    return lambda state, rng: _decide(program, state, rng, k or 1, None)[0]


def anytime(game: Any, k: int | None) -> Callable[[Any, random.Random, Callable[[], bool]], tuple[str, int, int]]:
    """Under a time budget: batches of ``BATCH`` playouts per card until ``stop`` says the budget
    is spent or the K are done; at least one batch."""
    program = _Program(game)
    return lambda state, rng, stop: _decide(program, state, rng, k or 1, stop)
