"""The flat Monte Carlo variants behind docs/ladder.md see what they claim to see, and replay.

A variant that re-deals (``mc``, ``paired``, ``heavy``, ``nested``, ``honest``) must decide the
same when the hidden cards of the true state are swapped; ``hands`` may read both hands but not
the deck orders; ``peek`` reads everything; ``honest``'s players inside the playouts do not read
the hidden cards of the playout's world either.  Whole games replay from their seed.
"""

from __future__ import annotations

import numpy as np
import pytest

from tcgtui.engine.tcg.fast import encode as E
from tcgtui.engine.tcg.fast import layout as L
from tcgtui.engine.tcg.fast import mc_variants as V
from tcgtui.games.tcg.packs import DEFAULT_PACK, load_pack
from opponents_support import midgame

PACK = load_pack(DEFAULT_PACK)
PROGRAM = L.compile_pack(PACK)
N = PROGRAM.n


def decide(kind: int, truth: np.ndarray, obs: np.ndarray, k: int = 6, arg: int = 1, eps: float = 0.3):
    size = L.state_size(N)
    S, T = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    O = np.zeros(L.obs_size(N), dtype=np.int64)
    W = np.zeros(L.work_size(N), dtype=np.int64)
    rs = np.array([12345], dtype=np.uint64)
    vals = np.zeros(N)
    card = V.flat_choice(PROGRAM.code, obs, S, T, O, W, rs, N, kind, k, arg, eps, truth.copy(), vals)
    return int(card), vals.round(9).tolist()


def position(seed: int):
    """A middle-game state whose opponent holds a card and has a card left in its deck."""
    state = midgame(PACK, seed, 6)
    seat = state.current_player
    truth = E.encode_state(state, PROGRAM)
    opp = 1 - seat
    assert truth[L.S_HANDN + opp] > 0 and truth[L.S_DECKN + opp] > 1
    return truth, E.encode_observation(state.observation(seat), PROGRAM), opp


def swapped_hand(truth: np.ndarray, opp: int) -> np.ndarray:
    """The opponent's first card in hand exchanged with the first card of its deck."""
    out = truth.copy()
    hand, deck = L.SH + (2 + opp) * N, L.SH + opp * N
    out[hand], out[deck] = truth[deck], truth[hand]
    return out


def reordered_decks(truth: np.ndarray) -> np.ndarray:
    out = truth.copy()
    for p in range(2):
        lo, count = L.SH + p * N, int(truth[L.S_DECKN + p])
        out[lo:lo + count] = truth[lo:lo + count][::-1]
    return out


@pytest.mark.parametrize("kind", [V.MC, V.PAIRED, V.HEAVY, V.NESTED, V.HONEST])
def test_a_variant_that_re_deals_never_reads_the_hidden_cards(kind):
    for seed in (3, 8):
        truth, obs, opp = position(seed)
        assert decide(kind, truth, obs) == decide(kind, swapped_hand(truth, opp), obs)
        assert decide(kind, truth, obs) == decide(kind, reordered_decks(truth), obs)


def test_the_honest_player_inside_a_playout_reads_only_what_its_seat_sees_of_the_world():
    """``honest_choice`` is handed a whole world; the other hand and both deck orders in it must
    not change its card (the same random stream), and across worlds its card is not one fixed card."""
    def choose(world: np.ndarray) -> int:
        size = L.state_size(N)
        T, O = np.zeros(size, dtype=np.int64), np.zeros(L.obs_size(N), dtype=np.int64)
        W = np.zeros(L.work_size(N), dtype=np.int64)
        return int(V.honest_choice(PROGRAM.code, world.copy(), T, O, W, np.array([99], dtype=np.uint64), N, 30))

    chosen = set()
    for seed in (3, 8, 11):
        truth, _, opp = position(seed)
        chosen.add(choose(truth))
        assert choose(truth) == choose(swapped_hand(truth, opp)) == choose(reordered_decks(truth))
    assert len(chosen) > 1  # not one fixed card whatever the world


def test_hands_reads_the_hands_but_not_the_deck_orders_and_peek_reads_both():
    truth, obs, opp = position(3)
    assert decide(V.HANDS, truth, obs, k=40) == decide(V.HANDS, reordered_decks(truth), obs, k=40)
    assert decide(V.HANDS, truth, obs, k=40) != decide(V.HANDS, swapped_hand(truth, opp), obs, k=40)
    assert decide(V.PEEK, truth, obs, k=40) != decide(V.PEEK, reordered_decks(truth), obs, k=40)


def test_games_replay_from_their_seed_and_the_salt_changes_only_the_search():
    def games(seed: int, salt: int) -> list[float]:
        out = np.zeros(8)
        V.duel(PROGRAM.code, np.array([V.MC, V.PEEK]), np.array([3, 3]), np.zeros(2, dtype=np.int64),
               np.zeros(2), seed, 0, 8, salt, out)
        return out.tolist()

    assert games(5, 0) == games(5, 0)
    assert games(5, 0) != games(5, 1)
