"""Start positions: parsed into the board and side to move, or one clear line naming the problem."""

from __future__ import annotations

import pytest

from tcgtui.engine.grid import GridGame, PositionError, format_position, parse_position
from tests.grid.helpers import game


def parse(gid, text, to_move=""):
    return parse_position(text, GridGame(gid).config, to_move)


def test_good_positions_and_inferred_side():
    board, seat = parse("tictactoe", "XX./OO./...")
    assert seat == 0 and format_position(board, 3) == "XX./OO./..."
    assert parse("tictactoe", "X../.../...")[1] == 1
    assert parse("tictactoe", "x../.../... o")[1] == 1
    assert parse("tictactoe", "X../.O./...", "X")[1] == 0
    assert parse("connect4", "......./......./......./......./...O.../..XX...")[1] == 1
    s = game("tictactoe", position="X../.../...").new_state(0)
    assert s.to_move == 1 and s.legal_moves()[0] == "1,2"


@pytest.mark.parametrize("gid, text, to_move, words", [
    ("tictactoe", "XX./OO.", "", "3 rows"),
    ("tictactoe", "XX./OO./....", "", "row 3 has 4 cells"),
    ("tictactoe", "XX./OZ./...", "", "'Z'"),
    ("tictactoe", "XXX/O../...", "", "impossible counts"),
    ("tictactoe", "O../.../...", "", "impossible counts"),
    ("tictactoe", "X../.../... X", "", "O to move"),
    ("tictactoe", "X../.../...", "X", "O to move"),
    ("tictactoe", "X../.../... O", "X", "to_move says"),
    ("tictactoe", "X../.../... Q", "", "X or O"),
    ("tictactoe", "", "", "empty"),
    ("connect4", "......./......./......./...X.../......./...O..X", "", "column 4: a stone at row 4 floats"),
    ("tictactoe", "XXX/OOO/X.. O", "", "both players"),
    ("tictactoe", "XXX/OO./...", "", "X already has a line"),
    ("tictactoe", "XXO/XO./O..", "", "O already has a line"),
    ("tictactoe", "XOX/XOO/OXO", "", "impossible counts"),
    ("tictactoe", "XOX/OOX/XXO", "", "full"),
])
def test_bad_positions_name_the_problem(gid, text, to_move, words):
    with pytest.raises(PositionError) as err:
        parse(gid, text, to_move)
    assert words in str(err.value) and "\n" not in str(err.value)
    assert isinstance(err.value, ValueError)


def test_the_game_checks_its_position_when_made():
    with pytest.raises(PositionError):
        game("gomoku", position="X/O")
    with pytest.raises(PositionError):
        game("tictactoe", to_move="O")
