"""Immediate wins and blocks in every direction and window, missed wins/blocks in records, sections."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tcgtui import locales
from tcgtui.engine.core import Match
from tcgtui.engine.grid import analyze, blocks, immediate_wins, missed, sections
from tests.grid.helpers import game, state

N = 15


def gomoku_board(stones: dict[tuple[int, int], str]) -> str:
    rows = [["."] * N for _ in range(N)]
    for (r, c), ch in stones.items():
        rows[r][c] = ch
    return "/".join("".join(r) for r in rows)


def far_o(k: int) -> dict[tuple[int, int], str]:
    """k scattered O stones that make no line (to balance counts)."""
    spots = [(14, 0), (14, 3), (12, 1), (10, 4), (14, 6), (12, 8), (10, 10), (14, 12), (12, 14), (8, 0)]
    return {spots[i]: "O" for i in range(k)}


@pytest.mark.parametrize("dr, dc", [(0, 1), (1, 0), (1, 1), (1, -1)])
@pytest.mark.parametrize("gap", range(5))
def test_gomoku_every_direction_and_window_position(dr, dc, gap):
    r0, c0 = 3, 9 if dc < 0 else 3
    line = [(r0 + k * dr, c0 + k * dc) for k in range(5)]
    stones = {cell: "X" for i, cell in enumerate(line) if i != gap}
    stones.update(far_o(4))
    s = state("gomoku", gomoku_board(stones))
    assert s.to_move == 0
    assert line[gap] in immediate_wins(s, 0)
    assert immediate_wins(s, 1) == []
    extended = {(r0 + k * dr, c0 + k * dc) for k in range(-1, 6)}
    assert set(immediate_wins(s, 0)) <= extended
    assert len(immediate_wins(s, 0)) == (2 if gap in (0, 4) else 1)     # an open four has two ends
    # the same shape for O with X to move: the side to move must block there
    swapped = {cell: ("O" if ch == "X" else "X") for cell, ch in stones.items()}
    t = state("gomoku", gomoku_board(swapped) + " X")
    assert line[gap] in blocks(t) and set(blocks(t)) <= extended and immediate_wins(t, 0) == []
    a = analyze(t)
    assert [line[gap][0] + 1, line[gap][1] + 1] in a["blocks"] and a["wins"] == []


def test_gomoku_overline_and_both_ends_and_broken_four():
    stones = {(7, c): "X" for c in (2, 3, 4, 6, 7)}       # XXX.XX -> filling makes six
    stones.update(far_o(5))
    s = state("gomoku", gomoku_board(stones))
    assert (7, 5) in immediate_wins(s, 0)
    open4 = {(2, c): "X" for c in (5, 6, 7, 8)}
    open4.update(far_o(4))
    s = state("gomoku", gomoku_board(open4))
    assert immediate_wins(s, 0) == [(2, 4), (2, 9)]
    three = {(2, c): "X" for c in (5, 6, 7)}
    three.update(far_o(3))
    assert immediate_wins(state("gomoku", gomoku_board(three)), 0) == []


def test_tictactoe_both_seats_and_all_lines():
    s = state("tictactoe", "X.X/.O./O..")      # X to move: X wins at 1,2; O threatens nothing? 3,1-2,2-1,3 taken
    assert immediate_wins(s, 0) == [(0, 1)]
    assert blocks(s) == []
    t = state("tictactoe", "X../XO./.O.")     # X to move: X wins at 3,1; O threatens 1,2 (column 2)
    assert immediate_wins(t, 0) == [(2, 0)] and blocks(t) == [(0, 1)]
    assert analyze(t) == {"legal": [[1, 2], [1, 3], [2, 3], [3, 1], [3, 3]], "wins": [[3, 1]], "blocks": [[1, 2]]}
    d = state("tictactoe", "O.X/.X./...")     # O to move: X's anti-diagonal at 3,1
    assert blocks(d) == [(2, 0)] and immediate_wins(d, 1) == []


def test_connect4_only_playable_cells_count():
    s = state("connect4", "......./......./......./......./..OO.../.XXX.O.")
    assert immediate_wins(s, 0) == [(5, 0), (5, 4)] and analyze(s)["wins"] == [1, 5]
    # X's diagonal 6,2 5,3 4,4 would need row 3, column 5, which floats above an empty cell
    floating = state("connect4", "......./......./......./...X.../..XO.../.XOOO.X")
    assert immediate_wins(floating, 0) == []
    assert blocks(floating) == [(5, 5)] and analyze(floating)["blocks"] == [6]
    vertical = state("connect4", "......./......./......./...X.../...X.../...X.OO")
    assert vertical.to_move == 1 and immediate_wins(vertical, 1) == [] and blocks(vertical) == [(2, 3)]


def record_of(gid, moves, **params):
    m = Match(game(gid, **params), 0)
    for mv in moves:
        if mv.startswith("!"):
            m.play_invalid(mv[1:], "raw " + mv)
        else:
            m.play(mv)
    return m.record().to_json()


def test_missed_wins_and_blocks_on_a_hand_made_record():
    # X: 1,1; O: 2,2; X: 1,2 (threat at 1,3); O misses the block 3,3; X misses the win (plays 3,1 - which
    # is not 1,3), O then wins?  Walk through by hand.
    rec = record_of("tictactoe", ["1,1", "2,2", "1,2", "!taken", "3,3", "3,1", "1,3"])
    # after 1,1 2,2 1,2: O to move, X threatens 1,3 -> O plays 3,3: missed block (O has no win)
    # X to move: X wins at 1,3 and 2,1 (column 1: 1,1 + 3,1? no, 3,1 empty) -> X win at 1,3; X plays 3,1: missed win
    # O to move: O wins at 1,1? no. O has 2,2 3,3 -> 1,1 taken; X threatens 1,3 and 2,1 -> O plays 1,3: blocks one
    out = missed(rec)
    x, o = out["seats"]
    assert x["win_chances"] == 1 and x["missed_wins"] == 1
    assert o["block_chances"] == 2 and o["missed_blocks"] == 1
    assert o["invalid"]["taken"] == 1 and o["decisions"] == 4 and o["valid"] == 3
    assert out["length"] == 7 and out["result"] is None
    rec2 = record_of("tictactoe", ["!format", "!format", "!out_of_bounds", "!taken"])
    m2 = missed(rec2)
    assert m2["seats"][0]["disqualified"] and m2["result"] == "disqualified1st"
    assert m2["seats"][0]["invalid"] == {"format": 2, "out_of_bounds": 1, "taken": 1}


def test_a_block_missed_only_when_no_own_win():
    # X to move with its own win and O's threat: taking neither is a missed win, not a missed block
    rec = record_of("tictactoe", ["1,1", "2,1", "1,2", "2,2", "3,3"], position="")
    x = missed(rec)["seats"][0]
    assert x["win_chances"] == 1 and x["missed_wins"] == 1 and x["block_chances"] == 0


def test_sections_per_agent_and_mover():
    recs = [record_of("tictactoe", ["1,1", "2,2", "1,2", "3,3", "1,3"]),
            record_of("tictactoe", ["!format", "2,2", "1,1", "3,3", "!taken", "1,2", "1,3"])]
    games = [SimpleNamespace(record=recs[0], seat=0, agent="llm:a", status="finished"),
             SimpleNamespace(record=recs[0], seat=1, agent="random", status="finished"),
             SimpleNamespace(record=recs[1], seat=1, agent="llm:a", status="finished"),
             SimpleNamespace(record=recs[1], seat=0, agent="random", status="aborted")]
    out = sections(games)
    assert set(out) == {"missed", "invalid", "outcomes", "seat_rates"}
    rows = {(r["agent"], r["mover"]): r for r in out["missed"]}
    assert rows[("random", "second")]["missed_blocks"] == 1 and rows[("random", "second")]["missed_block_rate"] == 1.0
    assert rows[("llm:a", "second")]["games"] == 1 and ("random", "first") not in rows
    inv = {(r["agent"], r["mover"]): r for r in out["invalid"]}
    assert set(inv) == set(rows) == {("llm:a", "first"), ("llm:a", "second"), ("random", "second")}
    first, second = inv[("llm:a", "first")], inv[("llm:a", "second")]
    assert (first["decisions"], second["decisions"]) == (3, 3) and (first["taken"], second["taken"]) == (0, 1)
    assert second["format"] == 0 and second["taken_rate"] == 1 / 3 and inv[("random", "second")]["format"] == 0
    o = {(r["agent"], r["mover"]): r for r in out["outcomes"]}
    assert (o[("llm:a", "first")]["mean_length"], o[("llm:a", "second")]["mean_length"]) == (5, 7)
    assert o[("llm:a", "second")]["disqualified_rate"] == 0
    for code in ("en", "ar"):
        cat = locales.load(code)
        for name, rows in out.items():
            assert cat.t(f"grid.report.section.{name}")
            for row in rows:
                for key in row:          # an interval's two ends are one column, NAME_ci
                    shown = key.rsplit("_", 1)[0] if key.endswith(("_ci_low", "_ci_high")) else key
                    assert cat.has(f"grid.report.col.{shown}"), key
