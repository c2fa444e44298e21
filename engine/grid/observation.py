"""What a seat sees of a grid game: everything (perfect information)."""

from __future__ import annotations

from dataclasses import dataclass

from tcgtui.engine.core import Outcome


@dataclass(frozen=True)
class GridObservation:
    seat: int
    turn: int  # moves made so far (valid and invalid) + 1
    game: str
    rows: int
    cols: int
    connect: int
    gravity: bool
    board: tuple[str, ...]  # rows top to bottom, '.', 'X', 'O'
    to_move: int  # seat, or -1 once over
    legal_moves: tuple[str, ...]
    last_move: tuple[int, int] | None  # 0-based
    winning_line: tuple[tuple[int, int], ...]
    invalid_counts: tuple[int, int]
    invalid_limit: int
    move_cap: int
    moves_made: int
    outcome: Outcome | None

    def cell(self, r: int, c: int) -> str:
        return self.board[r][c]

    def stones(self, seat: int) -> list[tuple[int, int]]:
        """The 0-based cells of ``seat``, row by row."""
        ch = "XO"[seat]
        return [(r, c) for r, row in enumerate(self.board) for c, v in enumerate(row) if v == ch]
