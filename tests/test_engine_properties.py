"""Guarantees over many games: they end, they replay exactly, and nothing hidden leaks.

Game counts (kept in constants so the closing note can quote them):
community and starter packs, plus random packs over the whole vocabulary.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from tcgtui.engine.core import GameRecord, Match, replay
from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.observation import TcgObservation
from tests.packgen import random_pack

COMMUNITY_GAMES = 2000
STARTER_GAMES = 300
RANDOM_PACKS = 400
GAMES_PER_RANDOM_PACK = 5


def check_invariants(state) -> None:
    n = len(state.cards)
    for p in (0, 1):
        held = state.decks[p] + state.hands[p] + state.tricks[p] + state.graves[p] + [c.card for c in state.boards[p]]
        assert sorted(held) == list(range(n)), "every card of a player's deck is in exactly one place"
        assert all(state.cards[i].type == C.TRICK for i in state.tricks[p])
        assert all(state.cards[c.card].type == C.CHAMPION for c in state.boards[p])
    assert state.turn <= state.rules.turn_limit
    if not state.is_terminal():
        assert state.legal_moves(), "a player to move always has a card"
        assert state.lp[0] > 0 and state.lp[1] > 0


def play_random(game: TcgGame, seed: int) -> Match:
    match = Match(game, seed)
    rng = random.Random(seed * 7919 + 1)
    while not match.state.is_terminal():
        match.play(rng.choice(match.state.legal_moves()))
        check_invariants(match.state)
    return match


@pytest.mark.parametrize("name,games", [("community", COMMUNITY_GAMES), ("starter", STARTER_GAMES)])
def test_every_game_ends_shipped_packs(name, games, community, starter):
    pack = {"community": community, "starter": starter}[name]
    game = TcgGame(pack)
    reasons = {"lp": 0, "turn_limit": 0}
    for seed in range(games):
        match = play_random(game, seed)
        assert match.state.turn <= pack.rules.turn_limit
        reasons[match.state.outcome.reason] += 1
    if name == "community":
        assert reasons["lp"] > reasons["turn_limit"] > 0


def test_every_game_ends_random_packs():
    for pack_seed in range(RANDOM_PACKS):
        game = TcgGame(random_pack(pack_seed))
        for seed in range(GAMES_PER_RANDOM_PACK):
            state = play_random(game, seed).state
            assert state.is_terminal() and state.turn <= game.pack.rules.turn_limit


def test_same_seed_and_moves_give_the_identical_game(community):
    for seed in range(60):
        pack = community if seed % 2 else random_pack(seed)
        game = TcgGame(pack)
        original = play_random(game, seed)
        record = GameRecord.from_json(json.loads(json.dumps(original.record().to_json())))
        again = replay(game, record)
        assert again.state.to_json() == original.state.to_json()
        assert [e.to_json() for e in again.events] == record.events
        assert again.record().outcome == record.outcome


def test_different_seeds_give_different_games(community):
    game = TcgGame(community)
    finals = {json.dumps(play_random(game, seed).state.to_json()) for seed in range(30)}
    assert len(finals) == 30


def test_clone_is_independent(community):
    state = TcgGame(community).new_state(5)
    copy = state.clone()
    before = state.to_json()
    rng = random.Random(1)
    while not copy.is_terminal():
        copy.apply(rng.choice(copy.legal_moves()))
    assert state.to_json() == before


def _flat(value) -> list:
    """Every leaf of an observation; the check below also proves it holds no live objects."""
    if dataclasses.is_dataclass(value):
        return [x for f in dataclasses.fields(value) for x in _flat(getattr(value, f.name))]
    if isinstance(value, tuple):
        return [x for v in value for x in _flat(v)]
    assert value is None or isinstance(value, (str, int, bool)), f"unexpected {type(value)}"
    return [value]


def _rehide(state, observer: int, rng: random.Random):
    """The same state with everything ``observer`` cannot see dealt differently."""
    other = state.clone()
    q = 1 - observer
    pool = other.hands[q] + other.tricks[q] + other.decks[q]
    tricks = rng.sample([i for i in pool if other.cards[i].type == C.TRICK], len(other.tricks[q]))
    rest = [i for i in pool if i not in tricks]
    rng.shuffle(rest)
    h = len(other.hands[q])
    other.tricks[q], other.hands[q], other.decks[q] = tricks, rest[:h], rest[h:]
    rng.shuffle(other.decks[observer])
    other.rng.seed(rng.random())
    return other


def test_observations_never_contain_hidden_information(community, starter):
    """Scan: an observation is unchanged when everything its owner cannot see is re-dealt,
    and events shown to a seat never name the other seat's draws or face-down tricks."""
    rng = random.Random(2024)
    checked = 0
    for seed in range(150):
        pack = (community, starter, random_pack(seed))[seed % 3]
        match = Match(TcgGame(pack), seed)
        while not match.state.is_terminal():
            state = match.state
            for seat in (0, 1):
                obs = state.observation(seat)
                assert isinstance(obs, TcgObservation)
                _flat(obs)
                assert obs == _rehide(state, seat, rng).observation(seat)
                checked += 1
            match.play(rng.choice(state.legal_moves()))
        for seat in (0, 1):
            for event in match.events_for(seat):
                if event.player == 1 - seat and event.kind in ("draw", "set_trick"):
                    assert "card" not in event.data
    assert checked > 3000
