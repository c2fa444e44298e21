"""Reference players: perfect Tic-Tac-Toe never loses, alpha-beta Connect Four beats random and blocks."""

from __future__ import annotations

import random

from tcgtui.engine import registry
from tcgtui.engine.grid import blocks, players
from tests.grid.helpers import play_out, random_move, state


def reference(gid, name, arg=None):
    spec = registry.get(gid)
    ref = spec.reference(name)
    if arg is None and ref.takes_arg:
        arg = ref.default_arg
    return ref.policy(spec.game(), arg)


def test_perfect_never_loses_to_random_in_either_seat():
    perfect = reference("tictactoe", "perfect")
    rng = random.Random(3)
    results = {0: [], 1: []}
    for i in range(200):
        seat = i % 2
        choosers = [random_move, random_move]
        choosers[seat] = perfect
        s = play_out(state("tictactoe"), choosers, rng)
        results[seat].append(s.outcome.returns(seat))
    assert all(r >= 0 for rs in results.values() for r in rs)
    assert sum(r > 0 for r in results[0]) > 80              # and it wins most games as first player


def test_perfect_draws_itself_and_takes_the_quickest_win():
    perfect = reference("tictactoe", "perfect")
    rng = random.Random(1)
    for _ in range(5):
        s = play_out(state("tictactoe"), [perfect, perfect], rng)
        assert s.outcome.winner is None
    s = state("tictactoe", "XX./OO./...")
    assert perfect(s, rng) == "1,3"
    s = state("tictactoe", "X../.O./..X")          # O must not lose: avoid the corners
    assert perfect(s, rng) in ("1,2", "2,1", "2,3", "3,2")
    s = state("tictactoe", "X.X/O../X.O")          # X has two threats: O loses, but blocks one
    assert {perfect(s, random.Random(i)) for i in range(20)} <= {"1,2", "2,2"}
    s = state("tictactoe", "XX./O../...")          # a loss far off is preferred to one at once
    assert max(players.move_values(s).values()) == players.move_values(s)[perfect(s, rng)]


def test_alphabeta_beats_random_and_prunes(monkeypatch):
    """Quick is counted in positions searched, not seconds (a busy machine is no failure):
    at its default depth a decision stays far below a full-width search (7^8 positions)."""
    nodes = [0]
    search = players.AlphaBeta.search

    def counted(self, *args):
        nodes[0] += 1
        return search(self, *args)
    monkeypatch.setattr(players.AlphaBeta, "search", counted)
    ab = reference("connect4", "ab")
    rng = random.Random(7)
    wins, most = 0, 0
    games = 40
    for i in range(games):
        seat = i % 2
        s = state("connect4")
        while not s.is_terminal():
            if s.to_move == seat:
                nodes[0] = 0
                s.apply(ab(s, rng))
                most = max(most, nodes[0])
            else:
                s.apply(random_move(s, rng))
        wins += s.outcome.winner == seat
    assert wins >= 0.95 * games
    assert 0 < most < 100_000          # 18,867 at most today; about a second of pure Python at 100,000


def test_alphabeta_takes_wins_and_blocks():
    ab = reference("connect4", "ab", 8)
    rng = random.Random(0)
    threat = state("connect4", "......./......./......./...O.../...O.../..XOX.X")
    assert blocks(threat) == [(2, 3)] and ab(threat, rng) == "4"
    win = state("connect4", "......./......./......./......./..OO.../.XXX.O.")
    assert ab(win, rng) in ("1", "5")
    shallow = reference("connect4", "ab", 1)
    assert shallow(threat, rng) == "4"
    # a double threat on the bottom row must be stopped before it appears
    early = state("connect4", "......./......./......./......./..X..../X.OO...")
    assert {ab(early, random.Random(i)) for i in range(4)} <= {"2", "5", "6"}
