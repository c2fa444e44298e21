"""A Gomoku player that reads threats, so people meet an opponent that plays like one.

Monte Carlo players are weak at Gomoku: random play-outs do not see that an open four wins,
so mc:100 lets an open four through.  This player does what a club player does first:
win now; else block a win; else take the cell that is best for both sides' lines, each
direction through the cell scored by the run it makes and its open ends (five, open four,
four, open three, ...), its own lines first and the opponent's close behind.  Making an
open four outranks everything but a win or a block, and so does stopping the opponent's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tcgtui.engine.grid.analysis import blocks, immediate_wins
from tcgtui.engine.grid.config import EMPTY

if TYPE_CHECKING:
    from tcgtui.engine.grid.game import GridGame

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
# (stones in the run through the cell, open ends) -> worth; a run of five is found as a win first
WORTH = {
    (4, 2): 1_000_000,
    (4, 1): 50_000,
    (3, 2): 40_000,
    (3, 1): 2_000,
    (2, 2): 1_500,
    (2, 1): 150,
    (1, 2): 20,
    (1, 1): 4,
}
DEFENCE = 0.9  # the opponent's line through a cell, against ours through it
NEAR = 2  # candidate cells lie this close to a stone


def _run(board: list[int], rows: int, cols: int, r: int, c: int, dr: int, dc: int, stone: int) -> tuple[int, int]:
    """Stones in a row through (r, c) if ``stone`` were there, and how many of the two ends are empty."""
    count, open_ends = 1, 0
    for sign in (1, -1):
        rr, cc = r + sign * dr, c + sign * dc
        while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == stone:
            count += 1
            rr, cc = rr + sign * dr, cc + sign * dc
        if 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == EMPTY:
            open_ends += 1
    return count, open_ends


def worth(board: list[int], rows: int, cols: int, r: int, c: int, stone: int) -> int:
    total = 0
    for dr, dc in DIRECTIONS:
        count, open_ends = _run(board, rows, cols, r, c, dr, dc, stone)
        total += WORTH.get((min(count, 4), open_ends), 0)
    return total


def candidates(state: Any) -> list[tuple[int, int]]:
    """Empty cells within ``NEAR`` of a stone (the centre on an empty board)."""
    cfg, board = state.config, state.board
    stones = [(i // cfg.cols, i % cfg.cols) for i, v in enumerate(board) if v != EMPTY]
    if not stones:
        return [(cfg.rows // 2, cfg.cols // 2)]
    out = set()
    for r, c in stones:
        for rr in range(max(0, r - NEAR), min(cfg.rows, r + NEAR + 1)):
            for cc in range(max(0, c - NEAR), min(cfg.cols, c + NEAR + 1)):
                if board[rr * cfg.cols + cc] == EMPTY:
                    out.add((rr, cc))
    return sorted(out)


def threat_choice(state: Any, rng: Any) -> tuple[int, int]:
    cfg, board, me = state.config, state.board, state.to_move
    cells = candidates(state)
    wins = immediate_wins(state, me, cells)
    if wins:
        return rng.choice(wins)
    must = blocks(state, cells)
    if must:
        return rng.choice(must)
    scored = [
        (
            worth(board, cfg.rows, cfg.cols, r, c, me + 1) + DEFENCE * worth(board, cfg.rows, cfg.cols, r, c, 2 - me),
            (r, c),
        )
        for r, c in cells
    ]
    best = max(s for s, _ in scored)
    return rng.choice([cell for s, cell in scored if s == best])


def threats(game: GridGame, arg: int | None = None) -> Callable[[Any, Any], str]:
    if game.config.gravity:
        raise ValueError(f"the threat player is offered for free-placement boards, not {game.name}")

    def choose(state: Any, rng: Any) -> str:
        r, c = threat_choice(state, rng)
        return state.cell_text(r, c)

    return choose
