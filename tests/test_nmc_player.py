"""``nmc:K`` (engine/tcg/nested.py): a card-game player that sees only its seat and replays from its seed."""

from __future__ import annotations

import asyncio
import random
import threading

import numpy as np
import pytest

from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.tcg.nested import policy
from tcgtui.match import run_match
from tcgtui.opponents.base import SeatContext
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


def test_its_playouts_are_the_same_in_any_split_into_batches(community):
    """Playout j of a decision is fixed by (seed, j): two batches tally what one does, so a
    decision cut by a budget made exactly the first playouts of the full one."""
    from tcgtui.engine.tcg.fast import kernel, search

    game = TcgGame(community)
    program = search.prepare(game)
    state = midgame(community, 3, turn=5)
    obs = state.observation(state.current)
    base = search.encode(program, obs)
    index = search.move_index(program, obs, state.legal_moves())
    assert len(index) > 1
    whole, parts = (np.zeros((len(index), 3), dtype=np.int64) for _ in range(2))
    kernel.nmc_playouts(program.code, base, obs.seat, index, 0, 10, 77, 2, whole)
    kernel.nmc_playouts(program.code, base, obs.seat, index, 0, 4, 77, 2, parts)
    kernel.nmc_playouts(program.code, base, obs.seat, index, 4, 6, 77, 2, parts)
    assert (whole == parts).all() and whole.sum() == 10 * len(index)
    other = np.zeros_like(whole)
    kernel.nmc_playouts(program.code, base, obs.seat, index, 0, 10, 78, 2, other)
    assert (other != whole).any()


def test_under_a_budget_it_answers_from_the_batches_it_finished(community):
    from tcgtui.engine.tcg.nested import BATCH, anytime

    game = TcgGame(community)
    state = midgame(community, 2, turn=6)
    width = len(state.legal_moves())
    assert width > 1
    cut = anytime(game, 300)(state, random.Random(4), lambda: True)
    assert cut[1:] == (BATCH * width, 300 * width)
    assert cut[0] == policy(game, BATCH)(state, random.Random(4))  # the same first playouts
    whole = anytime(game, 3 * BATCH)(state, random.Random(4), lambda: False)
    assert whole[1:] == (3 * BATCH * width, 3 * BATCH * width)
    assert whole[0] == policy(game, 3 * BATCH)(state, random.Random(4))


def test_while_the_compiled_search_loads_a_stand_in_answers_and_says_so(community):
    """The TUI hands a person's nmc opponent the event it sets once the compiled search is loaded;
    until then flat Monte Carlo on the interim path answers within the budget, recorded as a
    stand-in, and nmc itself (under the same budget) once it is set."""
    game = TcgGame(community)
    state = midgame(community, 2, turn=6)
    seat = state.current
    loaded = threading.Event()
    agent = make_agent("nmc:300", compiled=loaded, interim_budget=0.3)
    agent.start(SeatContext(seat, 0, game=game))
    early = asyncio.run(agent.decide(state.observation(seat), []))
    assert early.info["stand_in"] == "mc:1000" and early.info["interim"] is True
    assert early.move in state.legal_moves()
    loaded.set()
    later = asyncio.run(agent.decide(state.observation(seat), []))
    assert "stand_in" not in later.info and later.info["budget_s"] == 0.3 and later.move in state.legal_moves()
    bench = make_agent("nmc:300")          # no event (the bench): nmc from the first decision
    bench.start(SeatContext(seat, 0, game=game))
    assert "stand_in" not in asyncio.run(bench.decide(state.observation(seat), [])).info


def test_the_tui_loads_the_compiled_search_for_nmc_as_for_the_search_players():
    from tcgtui.tui.games.base import uses_fast

    card, grid = registry.get("tcg"), registry.get("connect4")
    assert uses_fast(card, "nmc") and uses_fast(card, "mc") and uses_fast(card, "mcts")
    assert not uses_fast(card, "random") and not uses_fast(card, "llm") and not uses_fast(grid, "ab")
