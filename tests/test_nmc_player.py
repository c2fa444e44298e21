"""``nmc:K`` (engine/tcg/nested.py): a card-game player that sees only its seat and replays from its seed."""

from __future__ import annotations

import asyncio
import random

import pytest

from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.tcg.nested import policy
from tcgtui.match import run_match
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.spec import AgentSpec, SpecError, check_supported, parse_spec
from tcgtui.engine import registry
from opponents_support import midgame
from test_opponents_redeal import hidden_swapped


def test_the_spec_parses_with_a_bounded_k_and_plays_only_the_card_game():
    assert parse_spec("nmc:300") == AgentSpec("nmc", 300)
    assert parse_spec("nmc") == AgentSpec("nmc", 100)
    for bad in ("nmc:0", "nmc:20000", "nmc:x"):
        with pytest.raises(SpecError, match="is not a player"):
            parse_spec(bad)
    with pytest.raises(SpecError, match="cannot play connect4"):
        check_supported(parse_spec("nmc:10"), registry.get("connect4"))


def test_it_decides_from_its_observation_alone(community):
    """The true state and one with the opponent's hand, tricks and both deck orders changed (the
    same to this seat) get the same card from the same seed, in every position."""
    choose = policy(TcgGame(community), 6)
    for seed in range(8):
        state = midgame(community, seed, turn=4 + seed % 4)
        twin = hidden_swapped(state, state.current)
        assert twin.observation(state.current) == state.observation(state.current)
        assert len(state.legal_moves()) > 1
        assert choose(state, random.Random(seed)) == choose(twin, random.Random(seed))


def play(game, seed):
    agents = (make_agent("nmc:4"), make_agent("random"))
    return asyncio.run(run_match(game, seed, agents))


def test_games_against_it_replay_from_their_seed(community):
    game = TcgGame(community)
    first, again, other = play(game, 5), play(game, 5), play(game, 6)
    assert first.record.to_json()["moves"] == again.record.to_json()["moves"]
    assert first.record.to_json()["moves"] != other.record.to_json()["moves"]
