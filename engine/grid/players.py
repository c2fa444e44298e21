"""Reference policies: a perfect Tic-Tac-Toe player and alpha-beta for Connect Four.

A policy is ``policy(game, arg) -> choose(state, rng) -> move_text``.  Alpha-beta
also comes under a time budget (``alphabeta_anytime``): iterative deepening that
answers from the deepest depth it completed before the caller's ``stop()``.  Each
depth is a fresh search in the same order as the full-depth one, so a budgeted
search that completes its depth plays exactly the move the full-depth one would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tcgtui.engine.grid.analysis import blocks
from tcgtui.engine.grid.config import EMPTY
from tcgtui.engine.grid.lines import line_through

if TYPE_CHECKING:
    from tcgtui.engine.grid.game import GridGame

# --- perfect play (small boards) -------------------------------------------------------------------

_MEMO: dict[tuple, int] = {}


def _solve(board: list[int], rows: int, cols: int, connect: int, seat: int) -> int:
    """Value for ``seat`` to move: > 0 wins (bigger = sooner), < 0 loses (closer to 0 = later), 0 draws."""
    key = (rows, cols, connect, seat, tuple(board))
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    empties = [i for i, v in enumerate(board) if v == EMPTY]
    best = -(10**6)
    for i in empties:
        board[i] = seat + 1
        if line_through(board, rows, cols, i // cols, i % cols, connect):
            value = len(empties)  # a win now, worth more the more cells are left
        elif len(empties) == 1:
            value = 0
        else:
            value = -_solve(board, rows, cols, connect, 1 - seat)
        board[i] = EMPTY
        if value > best:
            best = value
    _MEMO[key] = best
    return best


def move_values(state: Any) -> dict[str, int]:
    """Every legal move's exact value for the side to move (small boards only)."""
    cfg = state.config
    out = {}
    board = state.board.copy()
    seat = state.to_move
    empties = sum(v == EMPTY for v in board)
    for r, c in state.legal_cells():
        i = r * cfg.cols + c
        board[i] = seat + 1
        if line_through(board, cfg.rows, cfg.cols, r, c, cfg.connect):
            value = empties
        elif empties == 1:
            value = 0
        else:
            value = -_solve(board, cfg.rows, cfg.cols, cfg.connect, 1 - seat)
        board[i] = EMPTY
        out[state.cell_text(r, c)] = value
    return out


def perfect(game: GridGame, arg: int | None = None) -> Callable[[Any, Any], str]:
    if game.config.rows * game.config.cols > 16 or game.config.gravity:
        raise ValueError(f"perfect play is only offered for tictactoe, not {game.name}")

    def choose(state: Any, rng: Any) -> str:
        """The fastest win, else a draw, else the slowest loss; between equally lost moves, one that
        blocks a threat (as a person would) rather than one that hands the win over at once."""
        values = move_values(state)
        best = max(values.values())
        moves = sorted(m for m, v in values.items() if v == best)
        if best < 0:
            blocking = {state.cell_text(r, c) for r, c in blocks(state)}
            moves = [m for m in moves if m in blocking] or moves
        return rng.choice(moves)

    return choose


# --- Connect Four alpha-beta on bitboards ---------------------------------------------------------
# Bit (col * 7 + row), row 0 at the bottom; the seventh bit of each column is a sentinel.

H, W = 6, 7
H1 = H + 1
BOTTOM = sum(1 << (c * H1) for c in range(W))
FULL = BOTTOM * ((1 << H) - 1)
ORDER = (3, 2, 4, 1, 5, 0, 6)
CENTRE_WEIGHT = (0, 1, 2, 4, 2, 1, 0)
WIN_SCORE = 100_000
DEFAULT_DEPTH, MAX_DEPTH = 8, 14
POLL_NODES = 256  # nodes between two looks at the caller's stop(): a few milliseconds of Python


class Stopped(Exception):
    """The caller's ``stop()`` said so in the middle of a search: that depth's values are unfinished."""


def _col_mask(c: int) -> int:
    return ((1 << H) - 1) << (c * H1)


COL_MASKS = tuple(_col_mask(c) for c in range(W))
TOP = tuple(1 << (H - 1 + c * H1) for c in range(W))


def _winning_cells(p: int, mask: int) -> int:
    """Empty cells (playable or not) where a stone of ``p`` would make four."""
    r = (p << 1) & (p << 2) & (p << 3)
    for s in (H1, H, H + 2):
        pp = (p << s) & (p << 2 * s)
        r |= pp & (p << 3 * s)
        r |= pp & (p >> s)
        pp = (p >> s) & (p >> 2 * s)
        r |= pp & (p << s)
        r |= pp & (p >> 3 * s)
    return r & (FULL ^ mask)


def _centre(p: int) -> int:
    return sum(w * bin(p & COL_MASKS[c]).count("1") for c, w in enumerate(CENTRE_WEIGHT) if w)


def _evaluate(cur: int, mask: int) -> int:
    """From the side to move (stones ``cur``): centre control and open threats (cells completing four)."""
    opp = cur ^ mask
    return 3 * (_centre(cur) - _centre(opp)) + 8 * (
        bin(_winning_cells(cur, mask)).count("1") - bin(_winning_cells(opp, mask)).count("1")
    )


class AlphaBeta:
    """Negamax with alpha-beta, a transposition table, forced wins and blocks, centre-first order."""

    def __init__(self, depth: int, stop: Callable[[], bool] | None = None) -> None:
        self.depth = depth
        self.table: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.nodes = 0
        self.stop = stop
        self.poll_at = POLL_NODES if stop is not None else -1  # -1: never (one comparison a node)

    def search(self, cur: int, mask: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes == self.poll_at:
            self.poll_at += POLL_NODES
            if self.stop is not None and self.stop():
                raise Stopped
        playable = (mask + BOTTOM) & FULL
        if _winning_cells(cur, mask) & playable:
            return WIN_SCORE - ply - 1
        if mask == FULL or (mask | playable) == mask:
            return 0
        opp = cur ^ mask
        threats = _winning_cells(opp, mask) & playable
        if threats & (threats - 1):
            return -(WIN_SCORE - ply - 2)  # two cells to block: lost
        if depth <= 0:
            return _evaluate(cur, mask)
        key = (cur, mask)
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            _, flag, value = entry
            if flag == 0 or (flag < 0 and value <= alpha) or (flag > 0 and value >= beta):
                return value
        order = [c for c in ORDER if playable & COL_MASKS[c]]
        if threats:
            order = [c for c in order if threats & COL_MASKS[c]]
        a0 = alpha
        best = -(10**9)
        for c in order:
            move = playable & COL_MASKS[c]
            value = -self.search(opp, mask | move, depth - 1, -beta, -alpha, ply + 1)
            if value > best:
                best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
        flag = 0 if a0 < best < beta else (-1 if best <= a0 else 1)
        self.table[key] = (depth, flag, best)
        return best


def to_bitboards(state: Any) -> tuple[int, int]:
    """(stones of the side to move, all stones) of a Connect Four state."""
    cur = mask = 0
    cols = state.config.cols
    for i, v in enumerate(state.board):
        if v == EMPTY:
            continue
        r, c = divmod(i, cols)
        bit = 1 << (c * H1 + (H - 1 - r))
        mask |= bit
        if v == state.to_move + 1:
            cur |= bit
    return cur, mask


def ab_values(state: Any, depth: int, stop: Callable[[], bool] | None = None) -> dict[str, int]:
    """Each legal column's score at ``depth`` (a lower bound for all but the best: ties are exact).
    Raises ``Stopped`` once ``stop()`` is true (looked at every ``POLL_NODES`` nodes)."""
    if state.config.rows != H or state.config.cols != W or not state.config.gravity:
        raise ValueError("ab plays Connect Four (6 x 7) only")
    cur, mask = to_bitboards(state)
    playable = (mask + BOTTOM) & FULL
    opp = cur ^ mask
    wins = _winning_cells(cur, mask) & playable
    threats = _winning_cells(opp, mask) & playable
    order = [c for c in ORDER if playable & COL_MASKS[c]]
    if wins:
        return {str(c + 1): WIN_SCORE for c in order if wins & COL_MASKS[c]}
    if threats:
        order = [c for c in order if threats & COL_MASKS[c]] or order
    searcher = AlphaBeta(depth, stop)
    out: dict[str, int] = {}
    best = -(10**9)
    for c in order:
        move = playable & COL_MASKS[c]
        # a window just below the best so far tells a tie (or better) exactly enough
        value = -searcher.search(opp, mask | move, depth - 1, -(10**9), -(best - 1) if best > -(10**9) else 10**9, 1)
        out[str(c + 1)] = value
        best = max(best, value)
    return out


def deepening(state: Any, depth: int, stop: Callable[[], bool]) -> tuple[dict[str, int], int]:
    """``ab_values`` at depths of ``depth``'s parity (2, 4, ... or 1, 3, ...) up to ``depth`` until
    ``stop()``: the deepest completed depth's values, and that depth.  Every other depth costs about
    half what every depth would (a depth costs roughly twice the one before), and the evaluation at
    the horizon favours the same side as at ``depth``.  The first depth always completes (a few
    dozen nodes), so there is an answer.  Win and loss scores count plies at every depth, so each
    completed depth already takes the fastest win and holds out longest against a loss within its reach."""
    first = depth % 2 or 2
    values, reached = ab_values(state, first), first
    for d in range(first + 2, depth + 1, 2):
        if stop():
            break
        try:
            values = ab_values(state, d, stop)
        except Stopped:
            break
        reached = d
    return values, reached


def _depth(game: GridGame, arg: int | None) -> int:
    if not game.config.gravity:
        raise ValueError(f"ab plays connect4, not {game.name}")
    return DEFAULT_DEPTH if arg is None else max(1, min(MAX_DEPTH, int(arg)))


def _pick(values: dict[str, int], rng: Any) -> str:
    best = max(values.values())
    return rng.choice(sorted(m for m, v in values.items() if v == best))


def alphabeta(game: GridGame, arg: int | None = None) -> Callable[[Any, Any], str]:
    depth = _depth(game, arg)

    def choose(state: Any, rng: Any) -> str:
        return _pick(ab_values(state, depth), rng)

    return choose


def alphabeta_anytime(
    game: GridGame, arg: int | None = None
) -> Callable[[Any, Any, Callable[[], bool]], tuple[str, int, int]]:
    """``ab:D`` under a time budget: (move, depth completed, D)."""
    depth = _depth(game, arg)

    def choose(state: Any, rng: Any, stop: Callable[[], bool]) -> tuple[str, int, int]:
        values, reached = deepening(state, depth, stop)
        return _pick(values, rng), reached, depth

    return choose
