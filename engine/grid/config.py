"""The three grid games as data: board size, line length, gravity, thresholds."""

from __future__ import annotations

from dataclasses import dataclass, replace

EMPTY, FIRST, SECOND = 0, 1, 2                    # cell values; seat s plays stone s + 1
CHARS = ".XO"                                     # position notation: empty, first, second
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))    # row, column, diagonal, anti-diagonal


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
    symbols: tuple[str, str]        # how the illustration prompt draws the two players' stones
    piece: str = "stone"            # what a player puts down, as the rules name it: stone, mark or disc


VARIANTS = {
    "tictactoe": Variant("tictactoe", 3, 3, 3, False, 3, 20, ("X", "O"), "mark"),
    "connect4": Variant("connect4", 6, 7, 4, True, 7, 80, ("R", "Y"), "disc"),
    "gomoku": Variant("gomoku", 15, 15, 5, False, 15, 400, ("B", "W")),
}
EMPTY_SYMBOL = "e"

# Board sizes besides the seed's, the grid paper's future work: Tic-Tac-Toe on 4 by 4 (four in a row)
# and Gomoku on 19 by 19 (five in a row, as on a Go board).  The first of each is the seed's own.
SIZES = {"tictactoe": (3, 4), "gomoku": (15, 19)}


def sized(variant: Variant, size: int | None) -> Variant:
    """``variant`` on a ``size`` by ``size`` board (Tic-Tac-Toe's line as long as the board is wide)."""
    if size is None or size == variant.rows:
        return variant
    if int(size) not in SIZES.get(variant.id, ()):
        raise ValueError(f"size {size}: {variant.id} is played on boards of "
                         f"{' or '.join(str(n) for n in SIZES.get(variant.id, (variant.rows,)))}")
    size = int(size)
    return replace(variant, rows=size, cols=size, connect=size if variant.id == "tictactoe" else variant.connect)


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
