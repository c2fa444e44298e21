"""Fixed positions and plain random games shared by the search benchmarks."""

from __future__ import annotations

import random

from tcgtui.engine.tcg import Pack, TcgState


def random_game(pack: Pack, seed: int) -> TcgState:
    """One game of uniformly random moves on the reference engine."""
    state = TcgState.new(pack, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


def midgame_positions(pack: Pack, count: int, seed: int) -> list[TcgState]:
    """``count`` positions from seeded random games, each the first at or after a turn
    between 5 and 12 where the player to move has a real choice (two cards or more)."""
    out: list[TcgState] = []
    game = seed
    while len(out) < count:
        state = TcgState.new(pack, game)
        rng = random.Random(game)
        target = 5 + game % 8
        while not state.is_terminal():
            if state.turn >= target and len(state.legal_moves()) >= 2:
                out.append(state.clone())
                break
            state.apply(rng.choice(state.legal_moves()))
        game += 1
    return out
