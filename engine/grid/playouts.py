"""The grid games' playouts in numpy: no compiling, the same tallies as the compiled kernel.

``engine.grid.fast`` compiles with numba, which takes seconds on a new install;
search players use this module meanwhile (``GameSpec.interim``).  It follows
the kernel's streams exactly: playout i after move m is seeded from (seed, m, i)
with the same SplitMix64 mix and draws with the same xorshift64*, from a free
list kept in the same order, so each playout ends the same way and the tallies
are identical, not merely alike.

Many playouts run side by side as array rows.  Each row's whole move order is
drawn first (the step at which each cell is taken); a playout then ends at the
first step that completes a line of ``connect`` cells of one player (every such
line is one of the board's fixed windows, and the last cell it takes is the one
the kernel checks), else it is a draw: board full or the move cap reached.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tcgtui.engine.fast import DRAW, LOSS, WIN

if TYPE_CHECKING:
    from tcgtui.engine.grid.game import GridGame

HEADER = 6  # [rows, cols, connect, gravity, to_move, moves_left, cell...], as the kernel reads it
NEVER = 10_000  # the step of a cell no move takes
CHUNK = 4_000_000  # window cells gathered at once (bounds memory: a few tens of MB)
_GOLDEN = 0x9E3779B97F4A7C15
MASK = 0xFFFFFFFFFFFFFFFF
FEW = 4  # rows drawn one by one in plain integers (numpy's per-call cost dominates below)
_U = np.uint64


def prepare(game: GridGame) -> Any:
    return game.config


def encode(prepared: Any, obs: Any) -> np.ndarray:
    cfg = prepared
    cells = [".XO".index(ch) for row in obs.board for ch in row]
    head = [cfg.rows, cfg.cols, cfg.connect, int(cfg.gravity), max(obs.to_move, 0), cfg.move_cap - obs.moves_made]
    return np.array(head + cells, dtype=np.int64)


def move_index(prepared: Any, obs: Any, moves: list[Any]) -> np.ndarray:
    """Each move as the flat cell it takes (Connect Four: the column's landing cell)."""
    cfg = prepared
    out = []
    for text in moves:
        parts = [int(p) for p in str(text).split(",")]
        if cfg.gravity:
            c = parts[0] - 1
            r = max(r for r in range(cfg.rows) if obs.board[r][c] == ".")
        else:
            r, c = parts[0] - 1, parts[1] - 1
        out.append(r * cfg.cols + c)
    return np.array(out, dtype=np.int64)


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> _U(30))) * _U(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U(27))) * _U(0x94D049BB133111EB)
    return z ^ (z >> _U(31))


def _seeds(seed: int, m: np.ndarray, i: np.ndarray) -> np.ndarray:
    """The kernel's ``_seed(seed, m, i)`` for every row."""
    z = _mix(np.full(len(m), (seed + _GOLDEN) & 0xFFFFFFFFFFFFFFFF, dtype=_U))
    z = _mix(z ^ (m.astype(_U) * _U(0xD1B54A32D192ED03)))
    z = _mix(z ^ (i.astype(_U) * _U(0x8CB92BA72F3D8DD7)))
    z[z == 0] = _U(0x2545F4914F6CDD1D)
    return z


def _below(x: np.ndarray, n: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's xorshift64* draw: (new states, numbers in [0, n)).  The product's top
    31 bits fit 32-bit division, which is several times faster than 64-bit."""
    x = x ^ (x >> _U(12))
    x ^= x << _U(25)
    x ^= x >> _U(27)
    out = ((x * _U(0x2545F4914F6CDD1D)) >> _U(33)).astype(np.uint32)
    return x, (out % np.asarray(n, dtype=np.uint32)).astype(np.int64)


def _steps_free(board: np.ndarray, first: np.ndarray, rs: np.ndarray) -> np.ndarray:
    """Free placement: the step at which each cell is taken, per row (NEVER: taken before).
    Rows are kept flat (row * width + index), which numpy indexes much faster than pairs."""
    rows_n, n = len(first), len(board)
    if rows_n <= FEW:
        return np.array([_steps_free_one(board, int(c), int(r)) for c, r in zip(first, rs)], dtype=np.int32)
    empties = np.flatnonzero(board == 0)
    e = len(empties)
    free = np.tile(empties, rows_n)
    grid = np.zeros((rows_n, n), dtype=np.int64)
    grid[:, empties] = np.arange(e)
    pos = grid.ravel()
    at = np.full(rows_n * n, NEVER, dtype=np.int32)
    on_free, on_board = np.arange(rows_n) * e, np.arange(rows_n) * n
    cell = first
    for step in range(e):
        nfree = e - step
        if step:
            rs, j = _below(rs, nfree)
            cell = free[on_free + j]
        j = pos[on_board + cell]
        last = free[on_free + nfree - 1]
        free[on_free + j] = last
        pos[on_board + last] = j
        at[on_board + cell] = step
    return at.reshape(rows_n, n)


def _steps_free_one(board: np.ndarray, cell: int, rs: int) -> list[int]:
    """One row of ``_steps_free`` in plain integers (a single playout, as a tree search asks)."""
    free = [k for k, v in enumerate(board) if v == 0]
    pos = {k: j for j, k in enumerate(free)}
    at = [NEVER] * len(board)
    for step in range(len(free)):
        nfree = len(free) - step
        if step:
            rs ^= rs >> 12
            rs ^= (rs << 25) & MASK
            rs ^= rs >> 27
            cell = free[(((rs * 0x2545F4914F6CDD1D) & MASK) >> 33) % nfree]
        j = pos[cell]
        last = free[nfree - 1]
        free[j] = last
        pos[last] = j
        at[cell] = step
    return at


def _steps_gravity(board: np.ndarray, rows: int, cols: int, first: np.ndarray, rs: np.ndarray) -> np.ndarray:
    """Connect Four: a random column among those not full, kept in the kernel's order."""
    if len(first) <= FEW:
        return np.array(
            [_steps_gravity_one(board, rows, cols, int(c), int(r)) for c, r in zip(first, rs)], dtype=np.int32
        )
    rows_n, n = len(first), len(board)
    grid = board.reshape(rows, cols)
    heights0 = np.array([int((grid[:, c] != 0).sum()) for c in range(cols)], dtype=np.int64)
    open_cols = np.flatnonzero(heights0 < rows)
    free = np.zeros((rows_n, cols), dtype=np.int64)
    free[:, : len(open_cols)] = open_cols
    nfree = np.full(rows_n, len(open_cols), dtype=np.int64)
    heights = np.tile(heights0, (rows_n, 1))
    at = np.full((rows_n, n), NEVER, dtype=np.int32)
    row = np.arange(rows_n)
    cell = first
    for step in range(int((board == 0).sum())):
        if step:
            rs, j = _below(rs, np.maximum(nfree, 1))
            c = free[row, j]
            cell = (rows - 1 - heights[row, c]) * cols + c
        c = cell % cols
        at[row, cell] = step
        heights[row, c] += 1
        full = heights[row, c] == rows
        if full.any():
            fr = row[full]
            j = np.argmax(free[fr] == c[full][:, None], axis=1)
            free[fr, j] = free[fr, nfree[fr] - 1]
            nfree[fr] -= 1
    return at


def _steps_gravity_one(board: np.ndarray, rows: int, cols: int, cell: int, rs: int) -> list[int]:
    """One row of ``_steps_gravity`` in plain integers."""
    heights = [sum(board[r * cols + c] != 0 for r in range(rows)) for c in range(cols)]
    free = [c for c in range(cols) if heights[c] < rows]
    at = [NEVER] * len(board)
    for step in range(sum(v == 0 for v in board)):
        if step:
            rs ^= rs >> 12
            rs ^= (rs << 25) & MASK
            rs ^= rs >> 27
            c = free[(((rs * 0x2545F4914F6CDD1D) & MASK) >> 33) % len(free)]
            cell = (rows - 1 - heights[c]) * cols + c
        c = cell % cols
        at[cell] = step
        heights[c] += 1
        if heights[c] == rows:
            j = free.index(c)
            free[j] = free[-1]
            free.pop()
    return at


@lru_cache(maxsize=8)
def windows(rows: int, cols: int, connect: int) -> np.ndarray:
    """Every line of ``connect`` cells on the board, as flat cell indices (one row each)."""
    out = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                cells = [(r + k * dr, c + k * dc) for k in range(connect)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    out.append([rr * cols + cc for rr, cc in cells])
    return np.array(out, dtype=np.int64).reshape(-1, connect)


def _ends(board: np.ndarray, at: np.ndarray, mover: int, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the first step that completes a line, and whose stone (1 or 2) it is (NEVER, 0: none).
    Each cell is one number, owner * 1024 + step + 1 (0 for a stone there before): a window is
    one player's line when its least and greatest numbers share the owner, and was completed
    at its greatest step."""
    placed = at < NEVER
    owner = np.where(placed, ((mover + at) & 1) + 1, board[None, :])
    key = (owner * 1024 + np.where(placed, at + 1, 0)).astype(np.int16)
    end = np.full(len(at), NEVER, dtype=np.int64)
    who = np.zeros(len(at), dtype=np.int64)
    per = max(1, CHUNK // max(1, lines.size))
    for lo in range(0, len(at), per):
        k = key[lo : lo + per][:, lines]  # rows x windows x connect
        low, high = k.min(axis=2), k.max(axis=2)
        line = ((low >> 10) == (high >> 10)) & (low >= 1024)
        done = np.where(line, (high & 1023) - 1, NEVER)
        first = done.argmin(axis=1)
        rows = np.arange(len(first))
        end[lo : lo + per] = done[rows, first]
        who[lo : lo + per] = np.where(end[lo : lo + per] < NEVER, high[rows, first] >> 10, 0)
    return end, who


def playouts(
    prepared: Any, encoded: np.ndarray, seat: int, moves: np.ndarray, first: int, count: int, seed: int
) -> np.ndarray:
    """Win/draw/loss counts per move, shape (len(moves), 3), equal to ``engine.grid.fast.playouts``."""
    rows, cols, connect, gravity, mover, left = (int(v) for v in encoded[:HEADER])
    board = np.asarray(encoded[HEADER:], dtype=np.int64)
    moves = np.asarray(moves, dtype=np.int64)
    m = np.repeat(np.arange(len(moves)), count)
    i = np.tile(np.arange(first, first + count), len(moves))
    rs = _seeds(int(seed) & 0xFFFFFFFFFFFFFFFF, m, i)
    start = moves[m]
    at = _steps_gravity(board, rows, cols, start, rs) if gravity else _steps_free(board, start, rs)
    end, who = _ends(board, at, mover, windows(rows, cols, connect))
    won = end < max(left, 1)
    result = np.where(won & (who == seat + 1), WIN, np.where(won, LOSS, DRAW))
    out = np.zeros((len(moves), 3), dtype=np.int64)
    np.add.at(out, (m, result), 1)
    return out
