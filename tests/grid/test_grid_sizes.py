"""Larger boards as a game parameter (the grid paper's own future work): Tic-Tac-Toe on 4 by 4 and
5 by 5 (a line of the whole side wins), Gomoku on 19 by 19 (five in a row); the move cap grows with
the cells unless given; the seed's board stays the default and the only one under its protocol."""

from __future__ import annotations

import pytest

from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.grid.game import GridGame


@pytest.mark.parametrize("game_id, size, connect, cap", [("tictactoe", 3, 3, 20), ("tictactoe", 4, 4, 36),
                                                         ("tictactoe", 5, 5, 56), ("gomoku", 15, 5, 400),
                                                         ("gomoku", 19, 5, 642)])
def test_a_size_gives_the_board_its_line_and_its_cap(game_id: str, size: int, connect: int, cap: int) -> None:
    game = registry.get(game_id).game({"size": size})
    cfg = game.config
    assert (cfg.rows, cfg.cols, cfg.connect, cfg.move_cap) == (size, size, connect, cap)
    state = game.new_state(1)
    assert len(state.legal_moves()) == size * size
    assert registry.get(game_id).game({"size": size, "move_cap": 99}).config.move_cap == 99   # given: kept


def test_a_whole_side_wins_on_a_larger_tic_tac_toe_board_and_three_do_not() -> None:
    game = registry.get("tictactoe").game({"size": 4})
    state = game.new_state(0)
    for move in ("1,1", "2,1", "1,2", "2,2", "1,3", "2,3"):
        state.apply(game.move_from_text(move))
    assert not state.is_terminal()                  # three in a row is not a line on 4 by 4
    state.apply(game.move_from_text("1,4"))
    assert state.is_terminal() and state.outcome.winner == 0


def test_the_seeds_board_is_the_default_and_stored_records_keep_their_key() -> None:
    assert "size" not in GridGame("tictactoe").setup() and "size" not in GridGame("gomoku", size=15).setup()
    assert GridGame("tictactoe", size=4).setup()["size"] == 4
    assert GridGame("connect4").size is None and "size" not in {p.name for p in registry.get("connect4").info.params}


def test_a_size_off_the_list_or_under_the_seed_protocol_is_one_line(capsys) -> None:
    assert main(["rules", "--game", "tictactoe", "--param", "size=7"]) == 2
    err = capsys.readouterr().err
    assert "size=7: expected one of 3, 4, 5" in err and err.count("\n") == 1
    with pytest.raises(ValueError, match="3 by 3 board only"):
        GridGame("tictactoe", protocol="seed", size=4)


def test_the_rules_and_a_bench_game_follow_the_size(tmp_path, capsys) -> None:
    assert main(["rules", "--game", "tictactoe", "--param", "size=5"]) == 0
    rules = " ".join(capsys.readouterr().out.split())
    assert "5 rows and 5 columns" in rules and "a line of 5 of your marks" in rules
    db = tmp_path / "g.sqlite3"
    assert main(["bench", "--game", "gomoku", "--param", "size=19", "--agent", "random", "--vs", "threats",
                 "--games", "1", "--db", str(db)]) == 0
