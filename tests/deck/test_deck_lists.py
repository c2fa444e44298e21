"""Deck lists in the card game: the default is the old game exactly, copies play on
both rule paths alike, and search re-deals from the two lists."""

from __future__ import annotations

import random
import tomllib
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from tcgtui.engine.tcg import TcgGame, TcgState
from tcgtui.engine.tcg.decks import Deck, DeckError, build_deck, from_ids, whole_pack
from tcgtui.engine.tcg.fast import encode as E
from tcgtui.engine.tcg.fast import kernel as R
from tcgtui.engine.tcg.fast import layout as L
from tcgtui.games.tcg.packs import resolve
from tests.opponents_support import SplitMix
from tests.scenario import pack_from


@pytest.fixture(scope="module")
def copies_pack():
    """The community cards with 20-card decks of up to 3 copies."""
    with (resolve("community") / "pack.toml").open("rb") as fh:
        cards = tomllib.load(fh)["card"]
    return pack_from(cards, "copies", deck_size=20, max_copies=3)


def two_decks(pack, seed: int) -> tuple[Deck, Deck]:
    rng = random.Random(seed)
    ids = [c.id for c in pack.cards]
    out = []
    for _ in range(2):
        picked: list[str] = []
        while len(picked) < 20:
            cid = rng.choice(ids)
            if picked.count(cid) < 3:
                picked.append(cid)
        out.append(from_ids(pack, picked))
    return out[0], out[1]


def play(game, seed: int):
    state = game.new_state(seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state.apply(move)
    return moves, state.to_json()


def test_the_whole_pack_as_a_list_is_the_default_game(community):
    listed = build_deck(community, {"cards": {c.id: 1 for c in reversed(community.cards)}})
    assert listed == whole_pack(community)
    game = TcgGame(community, (listed, listed))
    assert game.default_decks and game.setup() == TcgGame(community).setup()
    assert "decks" not in game.setup()
    for seed in (0, 1, 7, 123, 99991):
        old = TcgState.new(community, seed)              # the deal as it was before deck lists
        assert game.new_state(seed).to_json() == old.to_json()
        assert play(game, seed) == play(TcgGame(community), seed)


def test_a_deck_holds_its_copies_and_the_record_carries_both_lists(copies_pack):
    d0, d1 = two_decks(copies_pack, 3)
    game = TcgGame(copies_pack, (d0, d1))
    state = game.new_state(5)
    for p, deck in enumerate((d0, d1)):
        held = state.decks[p] + state.hands[p]
        assert Counter(held) == Counter(deck.cards())
    assert game.setup()["decks"] == [d0.to_json(copies_pack), d1.to_json(copies_pack)]
    assert game.seated(1).decks == (d1, d0) and game.seated(0) is game
    assert game.seated(1) is game.seated(1)


def test_copies_of_a_card_in_hand_are_one_move(copies_pack):
    deck = from_ids(copies_pack, ["stone_golem"] * 3 + [c.id for c in copies_pack.cards[1:]] + ["swift_scout"] * 2 + ["frost_mage"])
    game = TcgGame(copies_pack, (deck, deck))
    for seed in range(40):
        state = game.new_state(seed)
        moves = state.legal_moves()
        assert len(moves) == len(set(moves))
        assert set(moves) == {copies_pack.cards[i].id for i in state.hands[state.current]}


@pytest.mark.parametrize("raw, why", [
    ({"cards": {"nope": 1}}, "not in pack"),
    ({"cards": {"stone_golem": 4}}, "from 1 to 3"),
    ({"cards": {"stone_golem": 2}}, "expects 20"),
    ({"cards": []}, "[cards] table"),
    ({"deck": {}}, "[cards] table"),
    ({"cards": {"stone_golem": True}}, "from 1 to 3"),
])
def test_a_bad_list_is_one_line_naming_the_file(copies_pack, raw, why):
    with pytest.raises(DeckError) as info:
        build_deck(copies_pack, raw, "my.toml")
    assert str(info.value).startswith("my.toml: ") and why in str(info.value)
    assert "\n" not in str(info.value)


def test_a_pack_without_copies_allows_only_the_whole_pack(community):
    with pytest.raises(DeckError, match="expects 15"):
        build_deck(community, {"cards": {community.cards[0].id: 1}})


def positions(game, count: int):
    out = []
    for seed in range(count):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.turn < 3 + seed % 6:
            last = state.clone()
            state.apply(rng.choice(state.legal_moves()))
        out.append(last if state.is_terminal() else state)
    return out


def test_reference_redeals_with_copies_agree_with_the_observation(copies_pack):
    game = TcgGame(copies_pack, two_decks(copies_pack, 11))
    rng = random.Random(4)
    for state in positions(game, 12):
        obs = state.observation(state.current)
        for _ in range(20):
            s = game.resample(obs, rng)
            assert s.observation(obs.seat) == obs
            for p in (0, 1):
                held = s.decks[p] + s.hands[p] + s.tricks[p] + s.graves[p] + [c.card for c in s.boards[p]]
                assert Counter(held) == Counter(game.decks[p].cards())


def test_fast_redeals_with_copies_agree_with_the_observation(copies_pack):
    game = TcgGame(copies_pack, two_decks(copies_pack, 12))
    program = L.compile_pack(copies_pack, game.owned())
    S = np.zeros(L.state_size(program.n), dtype=np.int64)
    W = np.zeros(L.work_size(program.n), dtype=np.int64)
    for state in positions(game, 12):
        obs = state.observation(state.current)
        O = E.encode_observation(obs, program)
        rs = np.array([state.turn], dtype=np.uint64)
        for _ in range(20):
            R.redeal(program.code, O, S, W, rs)
            v = E.view(S, program.n)
            for p in (0, 1):
                held = v["decks"][p] + v["hands"][p] + v["tricks"][p] + v["graves"][p] + [b[0] for b in v["boards"][p]]
                owners = [k for k in range(program.n) if program.owners[k] >> p & 1]
                assert sorted(held) == owners                  # every copy of the seat's deck, once
                assert len(v["decks"][p]) == obs.deck_sizes[p]
            mine = [program.card_ids[k] for k in v["hands"][obs.seat]]
            assert mine == list(obs.hand)
            assert len(v["hands"][1 - obs.seat]) == obs.opp_hand_size


def as_cards(v: dict, program: L.Program, pack) -> dict:
    """A state view with program slots turned into pack indices."""
    idx = pack.index
    def c(k: int) -> int:
        return idx[program.card_ids[k]]
    out = dict(v)
    for zone in ("decks", "hands", "tricks", "graves"):
        out[zone] = [[c(k) for k in z] for z in v[zone]]
    out["boards"] = [[[c(b[0]), *b[1:]] for b in side] for side in v["boards"]]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_both_rule_paths_play_a_deck_game_alike(copies_pack, seed):
    game = TcgGame(copies_pack, two_decks(copies_pack, seed))
    program = L.compile_pack(copies_pack, game.owned())
    W = np.zeros(L.work_size(program.n), dtype=np.int64)
    state = game.new_state(seed)
    S = E.encode_state(state, program)
    mirror = SplitMix(seed)
    rs = np.array([mirror.state], dtype=np.uint64)
    state.rng = mirror
    pick = random.Random(seed)
    while not state.is_terminal():
        p = state.current
        move = pick.choice(state.legal_moves())
        hand = E.view(S, program.n)["hands"][p]
        slot = next(k for k in hand if program.card_ids[k] == move)
        state.apply(move)
        R.step(program.code, S, W, rs, slot)
        assert as_cards(E.view(S, program.n), program, copies_pack) == E.state_view(state)


def test_fresh_deck_games_have_the_same_outcomes_on_both_paths(copies_pack):
    game = TcgGame(copies_pack, two_decks(copies_pack, 21))
    program = L.compile_pack(copies_pack, game.owned())
    fast = np.zeros(4, dtype=np.int64)
    W = np.zeros(L.work_size(program.n), dtype=np.int64)
    R.random_games(program.code, 9, 0, 1500, W, fast)
    ref = np.zeros(4, dtype=np.int64)
    for seed in range(1500):
        _, end = play(game, seed)
        w = end["outcome"]["winner"]
        ref[L.OUT_DRAW if w is None else 1 + w] += 1
    table = np.array([fast[1:], ref[1:]])
    table = table[:, table.sum(axis=0) > 0]
    assert chi2_contingency(table).pvalue > 0.001, (fast, ref)


def test_the_frontier_pack_uses_every_primitive_and_builds_decks():
    from tcgtui.games.tcg.packs import load_pack
    from tests.opponents_support import primitives, vocabulary
    frontier = load_pack("frontier")
    assert len(frontier.cards) >= 40 and {"en", "ar"} <= set(frontier.languages)
    assert primitives(frontier) == vocabulary()
    assert (frontier.rules.deck_size, frontier.rules.max_copies) == (20, 2)
    L.compile_pack(frontier)                     # the fast path knows every card
    deck = from_ids(frontier, [c.id for c in frontier.cards[:10]] * 2)
    game = TcgGame(frontier, (deck, deck))
    moves, end = play(game, 1)
    assert end["outcome"] is not None
