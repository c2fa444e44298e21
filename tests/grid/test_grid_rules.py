"""Every sentence of grid.rules checked against the engine."""

from __future__ import annotations

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import IllegalMove, Match, replay
from tests.grid.helpers import game, state
from tests.scenario import rule


@rule("grid.rules.coords")
def test_coordinates_are_one_based_from_the_top_left():
    s = state("tictactoe")
    ev = s.apply("1,3")
    assert ev[0].data == {"row": 0, "col": 2} and s.rows_text()[0] == "..X"
    g = state("gomoku")
    g.apply("15,1")
    assert g.rows_text()[14][0] == "X"
    assert s.validate("0,1") == "out_of_bounds" and s.validate("4,1") == "out_of_bounds"
    assert g.validate("1,16") == "out_of_bounds"
    assert state("connect4").validate("8") == "out_of_bounds"


@rule("grid.rules.start")
def test_board_starts_empty_or_from_the_position():
    for gid, cells in (("tictactoe", 9), ("connect4", 42), ("gomoku", 225)):
        s = state(gid)
        assert set("".join(s.rows_text())) == {"."} and len(s.legal_moves()) == (7 if gid == "connect4" else cells)
    s = state("tictactoe", "X../.O./... X")
    assert s.rows_text() == ("X..", ".O.", "...") and s.to_move == 0


@rule("grid.rules.turns")
def test_players_alternate_first_moves_first():
    s = state("gomoku")
    assert s.current_player == 0
    s.apply("8,8")
    assert s.current_player == 1
    s.apply("8,9")
    assert s.current_player == 0 and s.rows_text()[7][7:9] == "XO"


@rule("grid.rules.place")
@rule("grid.rules.place_mark")
def test_place_on_any_empty_cell_not_a_taken_one():
    g = state("gomoku")
    g.apply("8,8")
    assert g.validate("8,8") == "taken" and g.validate("15,15") is None
    s = state("tictactoe")
    s.apply("2,2")
    assert s.validate("2,2") == "taken"
    with pytest.raises(IllegalMove):
        s.apply("2,2")
    assert "2,2" not in s.legal_moves() and len(s.legal_moves()) == 8
    s.apply("3,3")
    assert s.rows_text() == ("...", ".X.", "..O")


@rule("grid.rules.gravity")
def test_discs_drop_to_the_lowest_empty_cell_and_full_columns_are_taken():
    s = state("connect4")
    s.apply("4")
    s.apply("4")
    assert s.rows_text()[5][3] == "X" and s.rows_text()[4][3] == "O"
    for _ in range(4):
        s.apply("4")
    assert s.validate("4") == "taken" and "4" not in s.legal_moves()
    assert s.validate("4,1") == "format"


@rule("grid.rules.line")
@rule("grid.rules.line_mark")
@rule("grid.rules.line_disc")
def test_a_line_of_connect_or_more_wins_in_every_direction():
    s = state("tictactoe", "XX./OO./...")
    ev = s.apply("1,3")
    assert s.outcome.winner == 0 and s.outcome.reason == "line"
    assert [e.kind for e in ev] == ["place", "win", "game_over"]
    assert ev[1].data["line"] == [[0, 0], [0, 1], [0, 2]]
    c = state("connect4", "......./......./......./......./O....../XX.XOO. X")
    c.apply("3")                     # fills the gap of X X . X on the bottom row
    assert c.outcome.winner == 0 and c.winning_line == ((5, 0), (5, 1), (5, 2), (5, 3))
    # Gomoku: an overline of six also wins
    g = state("gomoku", "/".join(["XXX.XX........."] + ["OOOO.O........." if i == 1 else "." * 15
                                                        for i in range(1, 15)]))
    g.apply("1,4")
    assert g.outcome.winner == 0 and len(g.winning_line) == 6
    t = state("tictactoe", "O.X/.X./.O.")     # anti-diagonal
    t.apply("3,1")
    assert t.outcome.winner == 0 and t.winning_line == ((0, 2), (1, 1), (2, 0))


@rule("grid.rules.full")
def test_a_full_board_without_a_line_is_a_draw():
    s = state("tictactoe", "XOX/XOO/OX. X")
    ev = s.apply("3,3")
    assert s.outcome.winner is None and s.outcome.reason == "full"
    assert ev[-1].data["result"] == "draw"
    assert registry.get("tictactoe").store.result_code(s.outcome) == "draw"


@rule("grid.rules.invalid_cell")
@rule("grid.rules.invalid_column")
def test_the_three_kinds_of_invalid_move():
    s = state("tictactoe", "X../.../...")
    assert s.validate("a,b") == "format" and s.validate("1") == "format" and s.validate("") == "format"
    assert s.validate("1,4") == "out_of_bounds"
    assert s.validate("1,1") == "taken"
    c = state("connect4", "X....../O....../X....../O....../X....../O......")
    assert c.validate("1") == "taken" and c.validate("0") == "out_of_bounds" and c.validate("x") == "format"


@rule("grid.rules.again")
def test_after_an_invalid_move_the_same_player_moves_again_and_it_counts():
    s = state("tictactoe")
    s.apply("1,1")
    ev = s.apply_invalid("taken", "{\"row\": 1, \"column\": 1}")
    assert s.current_player == 1 and s.moves_made == 2 and s.invalid_counts == [0, 1]
    assert ev[0].kind == "invalid" and ev[0].data == {"kind": "taken", "count": 1, "left": 2}
    obs = s.observation(1)
    assert obs.turn == 3 and obs.invalid_counts == (0, 1)


@rule("grid.rules.disqualified")
def test_disqualified_at_exactly_limit_plus_one():
    for limit in (0, 3):
        s = state("tictactoe", invalid_limit=limit)
        for i in range(limit):
            s.apply_invalid("format", "x")
            assert not s.is_terminal()
        ev = s.apply_invalid("format", "x")
        assert s.outcome.winner == 1 and s.outcome.reason == "disqualified"
        assert ev[-1].data["result"] == "disqualified1st"
    s = state("connect4", invalid_limit=1)
    s.apply("1")
    s.apply_invalid("out_of_bounds", "9")
    s.apply_invalid("out_of_bounds", "9")
    assert s.outcome.winner == 0 and registry.get("connect4").store.result_code(s.outcome) == "disqualified2nd"


@rule("grid.rules.cap")
def test_reaching_the_move_cap_cancels():
    s = state("gomoku", move_cap=5, invalid_limit=10)
    s.apply("1,1")
    s.apply("2,1")
    s.apply_invalid("format", "?")
    s.apply("1,2")
    assert not s.is_terminal()
    ev = s.apply_invalid("taken", "?")
    assert s.outcome.winner is None and s.outcome.reason == "cancelled" and ev[-1].data["result"] == "cancelled"
    t = state("tictactoe", move_cap=3)
    for m in ("1,1", "2,2", "3,3"):
        t.apply(m)
    assert t.outcome.reason == "cancelled"


def test_rules_text_has_every_applicable_sentence_in_both_languages():
    for code in ("en", "ar"):
        cat = locales.load(code)
        keys = {k for k, _ in cat.items("grid.rules")}
        own = {"tictactoe": {"place_mark", "line_mark", "invalid_cell"},        # each game's own sentences
               "connect4": {"gravity", "line_disc", "invalid_column"}, "gomoku": {"place", "line", "invalid_cell"}}
        shared = keys - set().union(*own.values())
        for gid in ("tictactoe", "connect4", "gomoku"):
            spec = registry.get(gid)
            lines = spec.rules_text(spec.game(), cat)
            got = {k.split(".")[-1] for k, _ in lines}
            assert got == shared | own[gid]
            assert all(s and "{" not in s for _, s in lines)


def test_records_rebuild_the_game_with_its_params():
    spec = registry.get("tictactoe")
    g = spec.game({"invalid_limit": 1, "position": "X../.../..."})
    m = Match(g, 5)
    m.play("2,2")
    m.play_invalid("taken", "{\"row\": 2, \"column\": 2}")
    m.play("1,2")
    rec = m.record()
    assert rec.setup == {"invalid_limit": 1, "move_cap": 20, "position": "X../.../...", "to_move": ""}
    again = replay(spec.game(rec.setup), rec)
    assert again.state.to_json() == m.state.to_json()
    assert rec.moves == ["2,2", "!taken", "1,2"] and rec.invalid == ["{\"row\": 2, \"column\": 2}"]


def test_clone_is_independent_and_resample_is_exact():
    g = game("connect4")
    s = g.new_state(0)
    s.apply("4")
    s.apply_invalid("format", "x")
    c = s.clone()
    c.apply("3")
    assert s.rows_text() != c.rows_text() and s.moves_made == 2 and c.moves_made == 3
    obs = s.observation(1)
    assert g.resample(obs, None).to_json() == s.to_json()
    assert obs.legal_moves == tuple(str(i) for i in range(1, 8)) and obs.last_move == (5, 3)
    with pytest.raises(IllegalMove):
        g.move_from_text("4,4")
    assert g.move_from_text(" 4 ") == "4" and game("gomoku").move_from_text("3, 12") == "3,12"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_each_game_s_rules_name_its_own_pieces_and_moves(lang: str):
    """Tic-Tac-Toe has marks and no columns to fill, Connect Four discs and no cell to name, Gomoku stones."""
    catalog = locales.load(lang)
    words = {"stone": {"en": "stone", "ar": "حجر"}, "disc": {"en": "disc", "ar": "قرص"},
             "mark": {"en": "mark", "ar": "علامت"}, "full column": {"en": "full column", "ar": "عمودا ممتلئا"},
             "taken cell": {"en": "taken cell", "ar": "خانة مشغولة"}}
    never = {"tictactoe": ("stone", "disc", "full column"), "connect4": ("stone", "mark", "taken cell"),
             "gomoku": ("disc", "mark", "full column")}
    for gid, absent in never.items():
        text = " ".join(sentence for _, sentence in registry.get(gid).rules_text(game(gid), catalog))
        assert not [w for w in absent if words[w][lang] in text], gid
