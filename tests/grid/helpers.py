"""Shared helpers for the grid game tests."""

from __future__ import annotations

import random

from tcgtui.engine import registry
from tcgtui.engine.grid import GridGame, GridState


def game(game_id: str, **params) -> GridGame:
    return registry.get(game_id).game(params)


def state(game_id: str, position: str = "", **params) -> GridState:
    return game(game_id, position=position, **params).new_state(0)


def random_move(s: GridState, rng: random.Random) -> str:
    return rng.choice(s.legal_moves())


def play_out(s: GridState, choosers, rng: random.Random) -> GridState:
    while not s.is_terminal():
        s.apply(choosers[s.to_move](s, rng))
    return s
