"""The value of every legal move of a grid position, for judging stored decisions (``tcgtui analyze --run``).

Values are from the side to move, on one scale for every evaluator: a won game 1, a draw 0, a lost
game -1.  Tic-Tac-Toe's are exact (``perfect``'s minimax).  Connect Four's come from ``ab:D``'s
alpha-beta with a full window for each column: a win or loss it proves within D plies is 1 or -1,
any other position its heuristic score squeezed into (-0.25, 0.25) by ``0.25 * tanh(score / 100)``,
so two unproven moves never differ by as much as a proven result does.  The grid games hide nothing,
so the decider's own information is the whole position.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.grid import players as p

UNPROVEN = 0.25  # the largest value (in size) a position alpha-beta did not settle gets
HEURISTIC_SCALE = 100  # the heuristic score that reaches tanh(1) of UNPROVEN
EXACT_CELLS = 9  # Tic-Tac-Toe is solved exactly on 3 by 3 boards (4 by 4: millions of positions)


@dataclass(frozen=True)
class Evaluator:
    """``key``: the evaluator and its settings as stored beside each value (``perfect``, ``ab:8``);
    ``values(state, seed)``: each legal move's text -> its value for the side to move (exact here:
    the seed is for evaluators that sample)."""

    key: str
    values: Callable[[Any, int], dict[str, float]]


def _outcome(value: float) -> float:
    return float((value > 0) - (value < 0))


def _exact(state: Any, seed: int = 0) -> dict[str, float]:
    return {move: _outcome(v) for move, v in p.move_values(state).items()}


def _alphabeta(depth: int) -> Callable[[Any, int], dict[str, float]]:
    def values(state: Any, seed: int = 0) -> dict[str, float]:
        cur, mask = p.to_bitboards(state)
        playable = (mask + p.BOTTOM) & p.FULL
        wins = p._winning_cells(cur, mask) & playable
        searcher = p.AlphaBeta(depth)
        out: dict[str, float] = {}
        for c in range(p.W):
            move = playable & p.COL_MASKS[c]
            if not move:
                continue
            if wins & move:
                score = p.WIN_SCORE
            else:
                score = -searcher.search(cur ^ mask, mask | move, depth - 1, -(10**9), 10**9, 1)
            out[str(c + 1)] = scaled(score)
        return out

    return values


def scaled(score: int) -> float:
    """An alpha-beta score on the outcome scale: a proven win or loss (within the search's plies) is
    1 or -1, a heuristic score stays strictly inside (-UNPROVEN, UNPROVEN)."""
    if abs(score) >= p.WIN_SCORE - p.MAX_DEPTH - 2:
        return _outcome(score)
    return UNPROVEN * math.tanh(score / HEURISTIC_SCALE)


def evaluator(game: Game, spec: str | None) -> Evaluator:
    """The evaluator ``spec`` names for ``game`` (None: the game's own: ``perfect``, ``ab:8``); a
    ValueError says which specs the game takes."""
    cfg = game.config  # type: ignore[attr-defined]
    if cfg.gravity:
        name, _, arg = (spec or "ab").partition(":")
        if name != "ab" or (arg and not (arg.isdigit() and 1 <= int(arg) <= p.MAX_DEPTH)):
            raise ValueError(
                f"{spec!r}: {game.name} is judged by ab:D, D from 1 to {p.MAX_DEPTH} (default ab:{p.DEFAULT_DEPTH})"
            )
        depth = int(arg) if arg else p.DEFAULT_DEPTH
        return Evaluator(f"ab:{depth}", _alphabeta(depth))
    if cfg.rows * cfg.cols > EXACT_CELLS:
        raise ValueError(
            f"{game.name} on a {cfg.rows} by {cfg.cols} board has no evaluator "
            f"(exact values are offered on 3 by 3 boards)"
        )
    if spec not in (None, "perfect"):
        raise ValueError(f"{spec!r}: {game.name} is judged by perfect (its exact values)")
    return Evaluator("perfect", _exact)
