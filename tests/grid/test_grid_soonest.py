"""Exact players win as soon as they can and lose as late as they can (issue 26 item 6).

Each exact player is checked against a brute-force solver written here, independent
of the players' code: the game's result under best play and how many plies it takes,
where the winner hurries and the loser holds out.  Every move a player picks must
reach the best (result, length) there is."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from tcgtui.engine import registry
from tests.grid.helpers import random_move, state


def reference(gid: str, name: str, arg: int | None = None):
    spec = registry.get(gid)
    return spec.reference(name).policy(spec.game(), arg)


def key(result: int, plies: int) -> tuple[int, int]:
    """Better for the mover is bigger: a win sooner, then a draw, then a loss later."""
    return (result, -plies if result > 0 else plies)


@lru_cache(maxsize=None)
def solve(board: str, gid: str) -> tuple[int, int]:
    """(+1 win / 0 draw / -1 loss for the side to move, plies to the end) under best play."""
    s = state(gid, board)
    best: tuple[int, int] | None = None
    for move in s.legal_moves():
        value = after(s, move, gid)
        if best is None or key(*value) > key(*best):
            best = value
    assert best is not None
    return best


def after(s, move: str, gid: str) -> tuple[int, int]:
    """The mover's (result, plies) once ``move`` is played and both sides play best."""
    t = s.clone()
    t.apply(move)
    if t.is_terminal():
        w = t.outcome.winner
        return (0 if w is None else (1 if w == s.to_move else -1), 1)
    result, plies = solve(position(t), gid)
    return (-result, plies + 1)


def position(s) -> str:
    return "/".join(s.observation(s.to_move).board)


def reachable(gid: str, count: int, min_stones: int, seed: int) -> list:
    rng = random.Random(seed)
    out: list = []
    while len(out) < count:
        s = state(gid)
        while not s.is_terminal():
            if s.moves_made >= min_stones and rng.random() < 0.5:
                out.append(s.clone())
                break
            s.apply(random_move(s, rng))
    return out


def every_position(gid: str) -> list:
    """Every position reachable from the empty board that is not over."""
    seen: dict[str, object] = {}
    todo = [state(gid)]
    while todo:
        s = todo.pop()
        if s.is_terminal() or position(s) in seen:
            continue
        seen[position(s)] = s
        for move in s.legal_moves():
            t = s.clone()
            t.apply(move)
            todo.append(t)
    return list(seen.values())


def test_perfect_tictactoe_hurries_a_win_and_holds_out_a_loss_everywhere():
    perfect = reference("tictactoe", "perfect")
    positions = every_position("tictactoe")
    decisive = 0
    for s in positions:
        best = key(*solve(position(s), "tictactoe"))
        for seed in range(2):
            move = perfect(s, random.Random(seed))
            assert key(*after(s, move, "tictactoe")) == best, (position(s), move)
        decisive += best[0] != 0
    assert len(positions) == 4520 and decisive > 2000


def test_perfect_blocks_one_of_two_threats_rather_than_lose_at_once():
    s = state("tictactoe", "X.X/O../X.O")           # O to move; X threatens 1,2 and 2,2
    moves = {reference("tictactoe", "perfect")(s, random.Random(i)) for i in range(30)}
    assert moves <= {"1,2", "2,2"}


@pytest.mark.parametrize("depth", [8])      # ab's default
def test_alphabeta_connect_four_hurries_a_win_and_holds_out_a_loss_within_its_depth(depth):
    """Positions whose end lies within the search depth (few empty cells), where ab is exact:
    among them, wins that could be slower and losses that could be quicker."""
    ab = reference("connect4", "ab", depth)
    checked, hurried, held_out = 0, 0, 0
    for s in reachable("connect4", 200, 42 - depth, 2):
        if s.is_terminal() or 42 - s.moves_made > depth:
            continue
        options = {m: key(*after(s, m, "connect4")) for m in s.legal_moves()}
        best = max(options.values())
        move = ab(s, random.Random(0))
        assert options[move] == best, (position(s), move, options)
        checked += 1
        same = [v for v in options.values() if v[0] == best[0]]
        hurried += best[0] > 0 and len(set(same)) > 1         # a slower win was there to take
        held_out += best[0] < 0 and len(set(same)) > 1        # a quicker loss was there to take
    assert checked > 100 and hurried > 3 and held_out > 3, (checked, hurried, held_out)


def test_threats_takes_a_win_at_once_rather_than_a_slower_one():
    s = state("gomoku", "/".join(["." * 15] * 6 + ["...XXXX........", "...OOO.........", "........O......"]
                                 + ["." * 15] * 6))
    move = reference("gomoku", "threats")(s, random.Random(0))
    assert move in ("7,3", "7,8")
