"""The Gomoku threat player: it never misses a win, a four to block, an open four to make or an
open three to stop, and it beats the Monte Carlo player that let an open four through."""

from __future__ import annotations

import random

from tcgtui.engine import registry
from tcgtui.engine.grid.threats import candidates, worth

EMPTY_ROW = "." * 15


def board(*rows: str) -> str:
    """A 15x15 position: the given rows at the top, the rest empty."""
    return "/".join([r.ljust(15, ".") for r in rows] + [EMPTY_ROW] * (15 - len(rows)))


def choose(position: str, to_move: str = "", seeds: int = 10) -> set[str]:
    spec = registry.get("gomoku")
    game = spec.game({"position": position, "to_move": to_move})
    player = spec.reference("threats").policy(game, None)
    return {player(game.new_state(0), random.Random(i)) for i in range(seeds)}


def test_it_takes_a_win():
    assert choose(board("", ".XXXX", ".OOO", "", "..O"), "X") <= {"2,1", "2,6"}


def test_it_blocks_a_four():
    assert choose(board("", ".OOOO", "", "X.X.X", "X"), "X") <= {"2,1", "2,6"}


def test_it_makes_an_open_four_rather_than_anything_slower():
    assert choose(board("", "..XXX", "", "O..O", "....O"), "X") <= {"2,2", "2,6"}


def test_it_stops_an_open_three_before_it_is_an_open_four():
    assert choose(board("", "", "...OOO", "", "X.....X.X"), "X") <= {"3,3", "3,7"}


def test_its_candidates_lie_near_the_stones_and_the_first_stone_is_central():
    spec = registry.get("gomoku")
    empty = spec.game({}).new_state(0)
    assert candidates(empty) == [(7, 7)]
    one = spec.game({"position": board("", "", "X")}).new_state(0)
    assert {(r, c) for r, c in candidates(one)} == {(r, c) for r in range(0, 5) for c in range(0, 3)} - {(2, 0)}


def test_a_run_is_worth_more_with_open_ends_and_more_stones():
    cells = [0] * 225
    cells[7 * 15 + 5] = cells[7 * 15 + 6] = 1
    open_three = worth(cells, 15, 15, 7, 7, 1)
    cells[7 * 15 + 4] = 2
    closed_three = worth(cells, 15, 15, 7, 7, 1)
    assert open_three > closed_three > 0
