"""Start positions as text: ``"XX./OO./..."`` rows top to bottom, optional side to move."""

from __future__ import annotations

from tcgtui.engine.grid.config import CHARS, EMPTY, FIRST, SECOND, GridConfig
from tcgtui.engine.grid.lines import line_through


class PositionError(ValueError):
    """A start position that does not fit the game (one line naming the problem)."""


def parse_position(text: str, config: GridConfig, to_move: str = "") -> tuple[list[int], int]:
    """The flat board (row-major, top row first) and the seat to move.

    ``text`` may end with `` X`` or `` O`` naming the side to move; ``to_move``
    (the parameter) does the same; otherwise X moves when the counts are equal
    and O when X has one stone more.
    """
    parts = text.strip().split()
    if not parts:
        raise PositionError("the position is empty")
    if len(parts) > 2:
        raise PositionError(f"expected the board and at most a side to move, got {len(parts)} parts")
    side = parts[1] if len(parts) == 2 else ""
    if side and to_move and side.upper() != to_move.upper():
        raise PositionError(f"the position says {side} moves but to_move says {to_move}")
    side = (side or to_move).upper()
    if side not in ("", "X", "O"):
        raise PositionError(f"the side to move must be X or O, not {side!r}")
    rows = parts[0].split("/")
    if len(rows) != config.rows:
        raise PositionError(f"{config.id} has {config.rows} rows, the position has {len(rows)}")
    board: list[int] = []
    for r, row in enumerate(rows, 1):
        if len(row) != config.cols:
            raise PositionError(f"row {r} has {len(row)} cells, {config.id} rows have {config.cols}")
        for c, ch in enumerate(row.upper(), 1):
            if ch not in CHARS:
                raise PositionError(f"row {r}, column {c}: {ch!r} is not '.', 'X' or 'O'")
            board.append(CHARS.index(ch))
    xs, os_ = board.count(FIRST), board.count(SECOND)
    if xs - os_ not in (0, 1):
        raise PositionError(f"impossible counts: {xs} X and {os_} O (X moves first, so X has as many or one more)")
    inferred = 0 if xs == os_ else 1
    seat = {"X": 0, "O": 1}.get(side, inferred)
    if seat != inferred:
        raise PositionError(f"with {xs} X and {os_} O it is {'XO'[inferred]} to move, not {'XO'[seat]}")
    if config.gravity:
        for c in range(config.cols):
            for r in range(config.rows - 1):
                if board[r * config.cols + c] != EMPTY and board[(r + 1) * config.cols + c] == EMPTY:
                    raise PositionError(f"column {c + 1}: a stone at row {r + 1} floats above an empty cell")
    won = [
        any(
            line_through(board, config.rows, config.cols, i // config.cols, i % config.cols, config.connect)
            for i, v in enumerate(board)
            if v == s
        )
        for s in (FIRST, SECOND)
    ]
    if won[0] and won[1]:
        raise PositionError("both players already have a line")
    if won[0] or won[1]:
        raise PositionError(f"{'XO'[0 if won[0] else 1]} already has a line: the game is over")
    if EMPTY not in board:
        raise PositionError("the board is full: the game is over")
    return board, seat


def format_position(board: list[int] | tuple[int, ...], cols: int) -> str:
    return "/".join("".join(CHARS[v] for v in board[i : i + cols]) for i in range(0, len(board), cols))
