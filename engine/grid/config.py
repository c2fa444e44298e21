"""The three grid games as data: board size, line length, gravity, thresholds."""

from __future__ import annotations

from dataclasses import dataclass, replace

EMPTY, FIRST, SECOND = 0, 1, 2  # cell values; seat s plays stone s + 1
CHARS = ".XO"  # position notation: empty, first, second
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # row, column, diagonal, anti-diagonal


@dataclass(frozen=True)
class Variant:
    """A game's fixed shape; thresholds and start position are parameters."""

    id: str
    rows: int
    cols: int
    connect: int
    gravity: bool
    invalid_limit: int
    move_cap: int
    symbols: tuple[str, str]  # how the illustration prompt draws the two players' stones
    piece: str = "stone"  # what a player puts down, as the rules name it: stone, mark or disc
    sizes: tuple[int, ...] = ()  # square boards it is offered on (the first: the seed's); () its one shape
    line_is_side: bool = False  # the line to make is a whole side of the board (Tic-Tac-Toe)

    def sized(self, size: int) -> Variant:
        """The game on a ``size`` by ``size`` board (the grid paper's own future work: 4 by 4 and 5 by
        5 Tic-Tac-Toe, 19 by 19 Gomoku); its move cap grows with the cells, the invalid limit stays."""
        if not self.sizes or size == self.rows:
            return self
        if size not in self.sizes:
            raise ValueError(
                f"{self.id} is played on {', '.join(f'{n} by {n}' for n in self.sizes)} boards, not {size} by {size}"
            )
        return replace(
            self,
            rows=size,
            cols=size,
            connect=size if self.line_is_side else self.connect,
            move_cap=round(self.move_cap * size * size / (self.rows * self.cols)),
        )


VARIANTS = {
    "tictactoe": Variant("tictactoe", 3, 3, 3, False, 3, 20, ("X", "O"), "mark", (3, 4, 5), True),
    "connect4": Variant("connect4", 6, 7, 4, True, 7, 80, ("R", "Y"), "disc"),
    "gomoku": Variant("gomoku", 15, 15, 5, False, 15, 400, ("B", "W"), sizes=(15, 19)),
}
EMPTY_SYMBOL = "e"
BOARD_CAP = 0  # move_cap's default: the variant's own cap (``Variant.sized`` grows it with the board)


@dataclass(frozen=True)
class GridConfig:
    """A variant with its resolved thresholds: what states need to know."""

    variant: Variant
    invalid_limit: int
    move_cap: int

    @property
    def id(self) -> str:
        return self.variant.id

    @property
    def rows(self) -> int:
        return self.variant.rows

    @property
    def cols(self) -> int:
        return self.variant.cols

    @property
    def connect(self) -> int:
        return self.variant.connect

    @property
    def gravity(self) -> bool:
        return self.variant.gravity
