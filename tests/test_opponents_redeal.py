"""Re-dealing: every playout starts from a state that agrees with the searcher's
observation and carries none of the hidden truth (the OpenSpiel #1604/#1613 bugs)."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from tcgtui.engine.tcg import TcgGame, TcgState, determinize
from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.fast import encode as E
from tcgtui.engine.tcg.fast import layout as L
from tcgtui.engine.tcg.fast import kernel as R
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from opponents_support import midgame, random_pack


def fast_redeals(obs, pack, count: int, seed: int = 0):
    """``count`` fast re-deals of ``obs``, decoded to reference states."""
    program = L.compile_pack(pack)
    O = E.encode_observation(obs, program)
    S = np.zeros(L.state_size(program.n), dtype=np.int64)
    W = np.zeros(L.work_size(program.n), dtype=np.int64)
    rs = np.array([seed], dtype=np.uint64)
    out = []
    for _ in range(count):
        R.redeal(program.code, O, S, W, rs)
        out.append(E.decode_state(S, pack))
    return out


def hidden_swapped(state: TcgState, seat: int) -> TcgState:
    """The same position as ``seat`` sees it, with different hidden cards and deck orders."""
    b = state.clone()
    opp = 1 - seat
    hand, deck = b.hands[opp], b.decks[opp]
    k = min(len(hand), len(deck))
    hand[:k], deck[:k] = deck[:k], hand[:k]
    spare = [i for i in deck if b.cards[i].type == C.TRICK]
    if b.tricks[opp] and spare:
        old = b.tricks[opp][0]
        b.tricks[opp][0] = spare[0]
        deck[deck.index(spare[0])] = old
    random.Random(1).shuffle(deck)
    random.Random(2).shuffle(b.decks[seat])
    return b


def positions(community):
    out = []
    for seed in range(12):
        s = midgame(community, seed, turn=4 + seed % 5)
        out.append(s)
    for seed in (1, 4, 8):
        out.append(midgame(random_pack(seed), seed, turn=5))
    return out


def test_fast_redeals_agree_with_the_observation(community):
    for state in positions(community):
        obs = state.observation(state.current)
        for s in fast_redeals(obs, state.pack, 50, seed=state.turn):
            assert s.observation(obs.seat) == obs


def test_reference_redeals_agree_with_the_observation(community):
    for state in positions(community):
        obs = state.observation(state.current)
        rng = random.Random(3)
        for _ in range(50):
            assert determinize(obs, state.pack, rng).observation(obs.seat) == obs


def rich_position(community) -> TcgState:
    """An early position with much hidden: opponent hand, a face-down trick, both decks."""
    for seed in range(200):
        s = midgame(community, seed, turn=5)
        if s.tricks[1 - s.current] and len(s.hands[1 - s.current]) >= 3:
            return s
    raise AssertionError("no position with a face-down trick")


def features(states, seat: int) -> dict[str, Counter]:
    opp = 1 - seat
    out: dict[str, Counter] = {"opp_hand": Counter(), "opp_trick": Counter(), "my_top": Counter(),
                               "opp_top": Counter()}
    for s in states:
        out["opp_hand"].update(s.hands[opp])
        out["opp_trick"].update(s.tricks[opp])
        out["my_top"][s.decks[seat][-1]] += 1
        out["opp_top"][s.decks[opp][-1]] += 1
    return out


def test_fast_redeal_draws_from_the_same_distribution_as_the_reference(community):
    state = rich_position(community)
    obs = state.observation(state.current)
    rng = random.Random(5)
    ref = features([determinize(obs, community, rng) for _ in range(3000)], obs.seat)
    fast = features(fast_redeals(obs, community, 3000, seed=5), obs.seat)
    for name in ref:
        cards = sorted(set(ref[name]) | set(fast[name]))
        assert len(cards) > 1, name
        table = np.array([[ref[name][c] for c in cards], [fast[name][c] for c in cards]])
        assert chi2_contingency(table).pvalue > 0.001, (name, table)


@pytest.mark.parametrize("path", ["fast", "reference"])
def test_redeals_ignore_the_true_hidden_cards(path, community):
    """Two true states that look the same to the searcher re-deal identically: a re-deal
    that read the true hand, tricks or deck order would tell them apart."""
    a = rich_position(community)
    seat = a.current
    b = hidden_swapped(a, seat)
    assert a.observation(seat) == b.observation(seat)
    assert a.hands[1 - seat] != b.hands[1 - seat] and a.decks[seat] != b.decks[seat]
    if path == "fast":
        da = fast_redeals(a.observation(seat), community, 30, seed=9)
        db = fast_redeals(b.observation(seat), community, 30, seed=9)
    else:
        ra, rb = random.Random(9), random.Random(9)
        da = [determinize(a.observation(seat), community, ra) for _ in range(30)]
        db = [determinize(b.observation(seat), community, rb) for _ in range(30)]
    assert [E.state_view(s) for s in da] == [E.state_view(s) for s in db]


@pytest.mark.parametrize("path", ["fast", "reference"])
def test_the_true_hand_is_no_likelier_than_any_unseen_card(path, community):
    state = rich_position(community)
    seat, opp = state.current, 1 - state.current
    obs = state.observation(seat)
    if path == "fast":
        deals = fast_redeals(obs, community, 2000, seed=11)
    else:
        rng = random.Random(11)
        deals = [determinize(obs, community, rng) for _ in range(2000)]
    seen = set(state.graves[opp]) | {c.card for c in state.boards[opp]}
    pool = len(community.cards) - len(seen) - len(state.tricks[opp])
    true_hand = set(state.hands[opp])
    hits = sum(len(true_hand & set(d.hands[opp])) for d in deals)
    # a card outside the face-down tricks lands in the hand with chance hand/pool at most;
    # a re-deal that kept the true hand would score 1.0 here
    assert hits / (len(deals) * len(true_hand)) < len(true_hand) / pool + 0.05
    assert sum(set(d.hands[opp]) == true_hand for d in deals) < 0.1 * len(deals)
    orders = {tuple(d.decks[seat]) for d in deals[:200]}
    assert len(orders) > 150
    top = sum(d.decks[seat][-1] == state.decks[seat][-1] for d in deals)
    assert top < 3 * len(deals) / len(state.decks[seat])


def decide(agent, obs, pack, seed: int, state=None):
    agent.start(SeatContext(obs.seat, seed, game=TcgGame(pack)))
    if state is not None:
        agent.see_state(state.clone())
    return asyncio.run(agent.decide(obs, []))


def test_mc_decides_from_the_observation_alone_and_peek_does_not(community):
    a = rich_position(community)
    seat = a.current
    b = hidden_swapped(a, seat)
    obs = a.observation(seat)
    honest = [decide(make_agent("mc:40"), s.observation(seat), community, 1) for s in (a, b)]
    assert honest[0].info == honest[1].info
    peek = [decide(make_agent("mc:40:peek"), obs, community, 1, state=s) for s in (a, b)]
    assert peek[0].info["scores"] != peek[1].info["scores"]
