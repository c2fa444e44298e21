"""The numpy playouts (what search players use while the compiled ones compile) give the
compiled kernel's tallies exactly, so a search player's decision does not depend on which
of the two it ran on (issue 26 item 4)."""

from __future__ import annotations

import asyncio
import random
import threading

import numpy as np
import pytest

from tcgtui.engine import registry
from tcgtui.engine.grid import playouts as interim
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent


def position(gid: str, moves: int, seed: int, **params):
    g = registry.get(gid).game(params)
    s = g.new_state(0)
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_moves()))
    return g, s


@pytest.mark.parametrize("gid, moves, params", [
    ("tictactoe", 0, {}), ("tictactoe", 3, {}), ("tictactoe", 6, {}),
    ("connect4", 0, {}), ("connect4", 9, {}), ("connect4", 30, {}), ("connect4", 4, {"move_cap": 12}),
    ("gomoku", 2, {"move_cap": 40}), ("gomoku", 20, {}),
])
def test_the_numpy_playouts_give_the_compiled_tallies(gid, moves, params):
    fast = registry.get(gid).fast()
    for seed in range(3):
        g, s = position(gid, moves, seed, **params)
        if s.is_terminal():
            continue
        obs = s.observation(s.to_move)
        prepared = fast.prepare(g)
        encoded, index = fast.encode(prepared, obs), fast.move_index(prepared, obs, list(obs.legal_moves))
        count = 40 if gid == "gomoku" else 300
        for first, n, which in ((0, count, index), (17, 1, index[:1]), (5, 3, index[-2:])):
            want = fast.playouts(prepared, encoded, obs.to_move, which, first, n, 1000 + seed)
            got = interim.playouts(prepared, encoded, obs.to_move, which, first, n, 1000 + seed)
            assert got.tolist() == want.tolist(), (gid, moves, seed, first, n)
            assert got.sum() == n * len(which)


def test_the_numpy_playouts_see_wins_draws_and_the_move_cap():
    g, s = position("tictactoe", 0, 0)
    obs = s.observation(0)
    e = interim.encode(interim.prepare(g), obs)
    out = interim.playouts(None, e, 0, np.array([4]), 0, 2000, 7)[0]
    assert out[0] > out[2] > 0 and out[1] > 0        # the centre first: wins more than it loses, some draws
    capped = e.copy()
    capped[5] = 1                                      # one move left: nobody can finish a line
    assert interim.playouts(None, capped, 0, np.array([4]), 0, 50, 7).tolist() == [[0, 50, 0]]


def test_the_lines_are_every_window_of_the_board():
    assert len(interim.windows(3, 3, 3)) == 8
    assert len(interim.windows(6, 7, 4)) == 69
    assert len(interim.windows(15, 15, 5)) == 2 * 15 * 11 + 2 * 11 * 11     # rows and columns, then both diagonals


async def _decide(gid: str, spec: str, compiled: threading.Event | None, moves: int = 2):
    g, s = position(gid, moves, 4)
    agent = make_agent(spec, game=g, compiled=compiled)
    agent.start(SeatContext(s.to_move, 9, game=g))
    agent.begin_turn(moves)
    return await agent.decide(s.observation(s.to_move), [])


@pytest.mark.parametrize("gid, spec", [("tictactoe", "mc:200"), ("connect4", "mc:200"), ("gomoku", "mc:5"),
                                       ("tictactoe", "mcts:200"), ("connect4", "mcts:200")])
def test_a_search_player_while_compiling_makes_the_compiled_decision(gid, spec):
    waiting = threading.Event()                       # the compile is not done
    before = asyncio.run(_decide(gid, spec, waiting))
    after = asyncio.run(_decide(gid, spec, None))
    assert before.info.get("interim") is True and "interim" not in after.info
    assert before.move == after.move
    keys = ("scores", "visits")
    assert [before.info.get(k) for k in keys] == [after.info.get(k) for k in keys]


def test_once_compiled_the_player_switches_to_the_compiled_path():
    compiled = threading.Event()
    g, s = position("connect4", 3, 1)
    agent = make_agent("mc:50", game=g, compiled=compiled)
    agent.start(SeatContext(s.to_move, 2, game=g))
    first = asyncio.run(agent.decide(s.observation(s.to_move), []))
    compiled.set()
    second = asyncio.run(agent.decide(s.observation(s.to_move), []))
    assert first.info.get("interim") is True and "interim" not in second.info
    assert agent.fast is registry.get("connect4").fast()
