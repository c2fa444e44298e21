"""``nmc:K``: flat Monte Carlo whose playouts are played by flat Monte Carlo, for the card game.

For each card in hand, K playouts, each from a fresh re-deal of what this seat
cannot see; in them both sides choose every card by two random playouts per
card (``mc:2``) instead of at random, so the playouts model two players who
play, not two who guess (docs/ladder.md measures why that is what random
playouts miss).  The player is handed a state rebuilt from its observation
(``Reference``), and reads only that state's observation and its own hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from tcgtui.engine.tcg.fast import encode, mc_variants, search
from tcgtui.engine.tcg.fast import layout as L

INNER = 2  # random playouts per card when a playout's player chooses (``mc:2``)


def policy(game: Any, k: int | None) -> Callable[[Any, random.Random], str]:
    program = search.prepare(game)
    n = program.n

    def choose(state: Any, rng: random.Random) -> str:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        obs = state.observation(state.current_player)
        seen = encode.encode_observation(obs, program)
        hand = np.zeros(L.state_size(n), dtype=np.int64)  # only the seat's own hand is read
        slots = encode.observed_slots(obs, program)[0]
        hand[L.S_HANDN + obs.seat] = len(slots)
        hand[L.SH + (2 + obs.seat) * n : L.SH + (2 + obs.seat) * n + len(slots)] = slots
        size = L.state_size(n)
        card = mc_variants.flat_choice(
            program.code,
            seen,
            np.zeros(size, dtype=np.int64),
            np.zeros(size, dtype=np.int64),
            np.zeros(L.work_size(n), dtype=np.int64),
            np.array([rng.getrandbits(63)], dtype=np.uint64),
            n,
            mc_variants.NESTED,
            k or 1,
            INNER,
            0.0,
            hand,
            np.zeros(n),
        )
        return program.card_ids[int(card)]

    return choose
