"""Lines through a cell: the one rule every grid game shares."""

from __future__ import annotations

from tcgtui.engine.grid.config import DIRECTIONS


def run_through(board, rows: int, cols: int, r: int, c: int, value: int, dr: int, dc: int) -> list[tuple[int, int]]:
    """The cells of ``value`` in a row through (r, c) along (dr, dc), (r, c) included, in order."""
    back = []
    rr, cc = r - dr, c - dc
    while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == value:
        back.append((rr, cc))
        rr, cc = rr - dr, cc - dc
    fwd = []
    rr, cc = r + dr, c + dc
    while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == value:
        fwd.append((rr, cc))
        rr, cc = rr + dr, cc + dc
    return [*reversed(back), (r, c), *fwd]


def line_through(
    board, rows: int, cols: int, r: int, c: int, connect: int, value: int | None = None
) -> list[tuple[int, int]]:
    """The longest line of at least ``connect`` through (r, c) for ``value`` (the stone there
    by default, as if placed when the cell is empty), or [] when there is none."""
    v = board[r * cols + c] if value is None else value
    best: list[tuple[int, int]] = []
    for dr, dc in DIRECTIONS:
        run = run_through(board, rows, cols, r, c, v, dr, dc)
        if len(run) >= connect and len(run) > len(best):
            best = run
    return best


def completes(board, rows: int, cols: int, r: int, c: int, connect: int, value: int) -> bool:
    """Would a stone of ``value`` at (r, c) make a line of at least ``connect``?  The same answer
    as ``bool(line_through(...))``, counted without building the line (the analyses ask it for
    every empty cell of every position of every game a report reads)."""
    for dr, dc in DIRECTIONS:
        n = 1
        rr, cc = r - dr, c - dc
        while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == value:
            n += 1
            rr, cc = rr - dr, cc - dc
        rr, cc = r + dr, c + dc
        while 0 <= rr < rows and 0 <= cc < cols and board[rr * cols + cc] == value:
            n += 1
            rr, cc = rr + dr, cc + dc
        if n >= connect:
            return True
    return False
