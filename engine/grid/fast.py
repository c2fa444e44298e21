"""Compiled flat Monte Carlo playouts for the grid games (the ``FastSearch`` protocol).

An encoded position is an int64 array: ``[rows, cols, connect, gravity, to_move,
moves_left, cell...]`` (cells row-major from the top-left: 0 empty, 1 first, 2 second).
A playout plays uniformly random legal moves for both sides to the end; a playout that
reaches the move cap is cancelled and counts as a draw.  Playout i after move m draws
from its own stream seeded by (seed, m, i), so any batching gives the same tallies, and
``engine.grid.playouts`` (numpy, nothing to compile) gives the same tallies too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from tcgtui.engine.fast import DRAW, LOSS, WIN
from tcgtui.engine.grid.playouts import HEADER, encode, move_index, prepare

if TYPE_CHECKING:
    from tcgtui.engine.grid.game import GridGame

__all__ = ["encode", "move_index", "playouts", "prepare", "warm_up"]

MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True, nogil=True)
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _seed(seed, m, i):
    z = _mix(np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15))
    z = _mix(z ^ (np.uint64(m) * np.uint64(0xD1B54A32D192ED03)))
    z = _mix(z ^ (np.uint64(i) * np.uint64(0x8CB92BA72F3D8DD7)))
    if z == np.uint64(0):
        z = np.uint64(0x2545F4914F6CDD1D)
    return z


@njit(cache=True, nogil=True)
def _below(state, n):
    """(new state, a number in [0, n)) by xorshift64*."""
    x = state
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    out = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)
    return x, np.int64(out % np.uint64(n))


@njit(cache=True, nogil=True)
def _wins(board, rows, cols, connect, r, c, v):
    """Whether the stone ``v`` at (r, c) makes a line of at least ``connect``."""
    for d in range(4):
        if d == 0:
            dr, dc = 0, 1
        elif d == 1:
            dr, dc = 1, 0
        elif d == 2:
            dr, dc = 1, 1
        else:
            dr, dc = 1, -1
        n = 1
        rr, cc = r + dr, c + dc
        while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == v:
            n += 1
            rr += dr
            cc += dc
        rr, cc = r - dr, c - dc
        while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == v:
            n += 1
            rr -= dr
            cc -= dc
        if n >= connect:
            return True
    return False


@njit(cache=True, nogil=True)
def _playout(base, cell, seat, rs, board, free, heights):
    """One playout after the side to move takes ``cell``; 0 win, 1 draw, 2 loss for ``seat``."""
    rows = base[0]
    cols = base[1]
    connect = base[2]
    gravity = base[3]
    mover = base[4]
    left = base[5]
    n = rows * cols
    for k in range(n):
        board[k] = base[HEADER + k]
    nfree = 0
    if gravity:
        for c in range(cols):
            h = 0
            while h < rows and board[(rows - 1 - h) * cols + c] != 0:
                h += 1
            heights[c] = h
            if h < rows:
                free[nfree] = c
                nfree += 1
    else:
        for k in range(n):
            if board[k] == 0:
                free[nfree] = k
                nfree += 1
    while True:
        if cell < 0:  # choose a random legal move
            if nfree == 0:
                return 1
            rs, j = _below(rs, nfree)
            if gravity:
                c = free[j]
                cell = (rows - 1 - heights[c]) * cols + c
            else:
                cell = free[j]
        # play ``cell`` for ``mover``
        r = cell // cols
        c = cell % cols
        board[cell] = mover + 1
        left -= 1
        if gravity:
            heights[c] += 1
            if heights[c] == rows:
                for j in range(nfree):
                    if free[j] == c:
                        free[j] = free[nfree - 1]
                        nfree -= 1
                        break
        else:
            for j in range(nfree):
                if free[j] == cell:
                    free[j] = free[nfree - 1]
                    nfree -= 1
                    break
        if _wins(board, rows, cols, connect, r, c, mover + 1):
            return 0 if mover == seat else 2
        if nfree == 0 or left <= 0:
            return 1
        mover = 1 - mover
        cell = -1


@njit(cache=True, nogil=True)
def _playout_free(base, cell, seat, rs, board, free, pos, heights):
    """The non-gravity playout with O(1) removal (``pos`` maps a cell to its slot in ``free``)."""
    rows = base[0]
    cols = base[1]
    connect = base[2]
    mover = base[4]
    left = base[5]
    n = rows * cols
    nfree = 0
    for k in range(n):
        v = base[HEADER + k]
        board[k] = v
        if v == 0:
            free[nfree] = k
            pos[k] = nfree
            nfree += 1
    while True:
        if cell < 0:
            if nfree == 0:
                return 1
            rs, j = _below(rs, nfree)
            cell = free[j]
        j = pos[cell]
        last = free[nfree - 1]
        free[j] = last
        pos[last] = j
        nfree -= 1
        board[cell] = mover + 1
        left -= 1
        if _wins(board, rows, cols, connect, cell // cols, cell % cols, mover + 1):
            return 0 if mover == seat else 2
        if nfree == 0 or left <= 0:
            return 1
        mover = 1 - mover
        cell = -1


@njit(cache=True, nogil=True)
def mc_playouts(base, seat, moves, first, count, seed, out):
    """Add to ``out[m]`` the win/draw/loss tally of playouts first .. first+count-1 after moves[m]."""
    rows = base[0]
    cols = base[1]
    gravity = base[3]
    n = rows * cols
    board = np.zeros(n, np.int64)
    free = np.zeros(n, np.int64)
    pos = np.zeros(n, np.int64)
    heights = np.zeros(cols, np.int64)
    for m in range(moves.shape[0]):
        for i in range(first, first + count):
            rs = _seed(seed, m, i)
            if gravity:
                res = _playout(base, moves[m], seat, rs, board, free, heights)
            else:
                res = _playout_free(base, moves[m], seat, rs, board, free, pos, heights)
            out[m, res] += 1
    return out


# --- the FastSearch protocol (encoding shared with the numpy twin, ``engine.grid.playouts``) -------


def playouts(
    prepared: Any, encoded: np.ndarray, seat: int, moves: np.ndarray, first: int, count: int, seed: int
) -> np.ndarray:
    out = np.zeros((len(moves), 3), dtype=np.int64)
    mc_playouts(
        encoded,
        int(seat),
        np.asarray(moves, dtype=np.int64),
        int(first),
        int(count),
        int(seed) & 0xFFFFFFFFFFFFFFFF,
        out,
    )
    return out


def warm_up(game: GridGame) -> None:
    prepared = prepare(game)
    state = game.new_state(0)
    if state.is_terminal():
        return
    obs = state.observation(state.to_move)
    playouts(
        prepared, encode(prepared, obs), obs.to_move, move_index(prepared, obs, list(obs.legal_moves[:1])), 0, 1, 0
    )


assert (WIN, DRAW, LOSS) == (0, 1, 2)
