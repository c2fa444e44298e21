"""The fast path plays the same game as the reference rules (engine/tcg/state.py).

Deterministic: from the same deal, with the same moves and the same random
stream for reshuffles, both paths reach identical states after every move,
for the shipped packs and for random packs that use every primitive.
Statistical: independent random playouts give the same outcome distribution.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from tcgtui.engine.tcg import TcgState
from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.fast import encode as E
from tcgtui.engine.tcg.fast import layout as L
from tcgtui.engine.tcg.fast import kernel as R
from opponents_support import SplitMix, midgame, primitives, random_pack, random_playout, vocabulary

RANDOM_PACKS = range(40)


def work(program: L.Program) -> np.ndarray:
    return np.zeros(L.work_size(program.n), dtype=np.int64)


def play_both(pack, seed: int, stream: int) -> tuple[int, set[str]]:
    """One random game on both paths, compared after every move; returns moves and event kinds."""
    program = L.compile_pack(pack)
    W = work(program)
    state = TcgState.new(pack, seed)
    S = E.encode_state(state, program)
    assert E.view(S, program.n) == E.state_view(state)
    mirror = SplitMix(stream)
    rs = np.array([mirror.state], dtype=np.uint64)
    state.rng = mirror
    pick = random.Random(seed)
    kinds: set[str] = set()
    moves = 0
    while not state.is_terminal():
        move = pick.choice(state.legal_moves())
        kinds.update(e.kind for e in state.apply(move))
        R.step(program.code, S, W, rs, program.card_ids.index(move))
        moves += 1
        assert E.view(S, program.n) == E.state_view(state), f"{pack.id} seed {seed} move {moves} ({move})"
        assert int(rs[0]) == mirror.state, "the random streams diverged"
    return moves, kinds


def test_the_interpreter_knows_the_whole_vocabulary():
    assert L.IMPLEMENTED_EFFECTS == set(C.EFFECTS)
    assert L.IMPLEMENTED_TRIGGERS == set(C.TRIGGERS)
    assert L.IMPLEMENTED_TARGETS == set(C.TARGETS)
    assert L.IMPLEMENTED_KEYWORDS == set(C.KEYWORDS)


def test_the_random_packs_use_every_primitive():
    used = set().union(*(primitives(random_pack(s)) for s in RANDOM_PACKS))
    assert used == vocabulary()


@pytest.mark.parametrize("name", ["community", "starter"])
def test_shipped_packs_reach_identical_states(name, community, starter):
    pack = {"community": community, "starter": starter}[name]
    kinds: set[str] = set()
    for seed in range(60):
        kinds |= play_both(pack, seed, stream=seed + 1)[1]
    if name == "community":   # the comparison covered reshuffles and reactions
        assert {"shuffle_hand", "trick", "repeat", "freeze", "block", "destroy"} <= kinds


def test_random_packs_reach_identical_states():
    kinds: set[str] = set()
    for seed in RANDOM_PACKS:
        pack = random_pack(seed)
        for game in range(8):
            kinds |= play_both(pack, game, stream=seed * 100 + game)[1]
    assert {"attack_stopped", "repeat", "shuffle_hand", "freeze", "buff", "no_cards", "trick"} <= kinds


def test_playouts_follow_the_same_moves_with_a_shared_stream(community):
    """A whole fast playout equals the reference game driven by the same stream."""
    for pack in (community, random_pack(3), random_pack(11)):
        program = L.compile_pack(pack)
        W = work(program)
        for pos in range(3):
            start = midgame(pack, 100 + pos, turn=6)
            S0 = E.encode_state(start, program)
            for j in range(40):
                counts = np.zeros(4, dtype=np.int64)
                R.playouts_from(program.code, S0, 77, j, 1, W, counts)
                ref = start.clone()
                random_playout(ref, SplitMix.seeded(77, j, 1))
                winner = ref.outcome.winner
                assert counts[L.OUT_DRAW if winner is None else 1 + winner] == 1


def outcome_table(fast: np.ndarray, ref: np.ndarray) -> np.ndarray:
    table = np.array([fast[1:4], ref[1:4]])
    return table[:, table.sum(axis=0) > 0]


def reference_counts(start: TcgState, playouts: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    counts = np.zeros(4, dtype=np.int64)
    for _ in range(playouts):
        s = start.clone()
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_moves()))
        w = s.outcome.winner
        counts[L.OUT_DRAW if w is None else 1 + w] += 1
    return counts


@pytest.mark.parametrize("source,seed", [("community", 5), ("community", 6), ("starter", 7),
                                         ("random", 2), ("random", 19)])
def test_random_playouts_have_the_same_outcome_distribution(source, seed, community, starter):
    pack = {"community": community, "starter": starter}.get(source) or random_pack(seed)
    program = L.compile_pack(pack)
    start = midgame(pack, seed, turn=5)
    fast = np.zeros(4, dtype=np.int64)
    R.playouts_from(program.code, E.encode_state(start, program), seed, 0, 1500, work(program), fast)
    ref = reference_counts(start, 1500, seed)
    assert chi2_contingency(outcome_table(fast, ref)).pvalue > 0.001, (fast, ref)


def test_fresh_deals_have_the_same_outcomes_and_lengths(community):
    program = L.compile_pack(community)
    fast = np.zeros(4, dtype=np.int64)
    games = 1500
    mean_turns = R.random_games(program.code, 9, 0, games, work(program), fast) / games
    ref = np.zeros(4, dtype=np.int64)
    turns = 0
    for seed in range(games):
        state = TcgState.new(community, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        turns += state.turn
        w = state.outcome.winner
        ref[L.OUT_DRAW if w is None else 1 + w] += 1
    assert chi2_contingency(outcome_table(fast, ref)).pvalue > 0.001, (fast, ref)
    assert abs(mean_turns - turns / games) < 1.0


def test_a_pack_with_an_unknown_primitive_is_refused(community):
    card = community.cards[0]
    odd = C.Card(card.id, card.type, card.names, card.power, card.guard, frozenset({"flying"}))
    pack = C.Pack("odd", 1, (odd,) + community.cards[1:], community.rules, community.languages,
                  community.names, "odd-hash")
    with pytest.raises(L.UnsupportedCard, match="flying"):
        L.compile_pack(pack)
