"""The compiled playouts agree with playouts through the core API and split into batches freely."""

from __future__ import annotations

import importlib
import random

import pytest

from tcgtui.engine import registry


def setup(gid, position="", **params):
    spec = registry.get(gid)
    fast = spec.fast()
    g = spec.game({"position": position, **params})
    fast.warm_up(g)
    s = g.new_state(0)
    obs = s.observation(s.to_move)
    prepared = fast.prepare(g)
    return fast, prepared, s, obs


def python_playouts(s, move, seat, n, rng):
    tally = [0, 0, 0]
    for _ in range(n):
        t = s.clone()
        t.apply(move)
        while not t.is_terminal():
            t.apply(rng.choice(t.legal_moves()))
        w = t.outcome.winner
        tally[1 if w is None else (0 if w == seat else 2)] += 1
    return tally


@pytest.mark.parametrize("gid, position, params", [
    ("tictactoe", "", {}),
    ("tictactoe", "X../.O./...", {}),
    ("connect4", "......./......./......./......./...O.../..XX...", {}),
    ("connect4", "", {"move_cap": 10}),
    ("gomoku", "", {"move_cap": 30}),
])
def test_win_rates_agree_with_the_core_api(gid, position, params):
    fast, prepared, s, obs = setup(gid, position, **params)
    moves = list(obs.legal_moves)[:3]
    idx = fast.move_index(prepared, obs, moves)
    n = 1500 if gid != "gomoku" else 400
    out = fast.playouts(prepared, fast.encode(prepared, obs), obs.to_move, idx, 0, n, 11)
    assert out.sum(axis=1).tolist() == [n] * len(moves)
    rng = random.Random(5)
    m = n if gid != "gomoku" else 150
    for k, move in enumerate(moves):
        ref = python_playouts(s, move, obs.to_move, m, rng)
        for col in range(3):
            p_fast, p_ref = out[k, col] / n, ref[col] / m
            se = (max(p_ref * (1 - p_ref), 0.01) / m + max(p_fast * (1 - p_fast), 0.01) / n) ** 0.5
            assert abs(p_fast - p_ref) < 4.5 * se, (move, col, out[k].tolist(), ref)


def test_batches_give_identical_tallies_and_seeds_matter():
    fast, prepared, s, obs = setup("connect4")
    enc = fast.encode(prepared, obs)
    idx = fast.move_index(prepared, obs, list(obs.legal_moves))
    whole = fast.playouts(prepared, enc, 0, idx, 0, 300, 42)
    parts = sum(fast.playouts(prepared, enc, 0, idx, f, c, 42) for f, c in ((0, 100), (100, 37), (137, 163)))
    assert (whole == parts).all()
    assert not (fast.playouts(prepared, enc, 0, idx, 0, 300, 43) == whole).all()


def test_connect4_gravity_cells_and_cancelled_playouts_are_draws():
    fast, prepared, s, obs = setup("connect4", "......./......./......./......./...O.../..XX...")
    assert fast.move_index(prepared, obs, ["4", "3"]).tolist() == [3 * 7 + 3, 4 * 7 + 2]
    fast, prepared, s, obs = setup("gomoku", move_cap=2)
    out = fast.playouts(prepared, fast.encode(prepared, obs), 0, fast.move_index(prepared, obs, ["8,8"]), 0, 50, 1)
    assert out.tolist() == [[0, 50, 0]]


def test_the_accelerator_is_registered_lazily():
    assert registry.get("gomoku").fast() is importlib.import_module("tcgtui.engine.grid.fast")
