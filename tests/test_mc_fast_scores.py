"""The evaluator's one-call mc:K (``montecarlo.fast_scores``) gives exactly the scores an ``mc:K``
decision records, so values judged before and after it was added agree to the last digit."""

from __future__ import annotations

import asyncio

import pytest

from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.tcg.decks import from_ids
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.montecarlo import MonteCarloAgent, fast_scores
from tcgtui.games.tcg.perf._positions import midgame_positions


async def agent_scores(game, k: int, seat: int, seed: int, obs) -> dict:
    agent = MonteCarloAgent(k)
    try:
        agent.start(SeatContext(seat, seed, "en", game.public()))
        agent.begin_turn(obs.turn)
        return (await agent.decide(obs, [])).info["scores"]
    finally:
        await agent.aclose()


@pytest.mark.parametrize("k", [7, 300])
def test_one_call_scores_equal_the_agents_on_the_whole_pack(community, k):
    game = TcgGame(community)
    for i, state in enumerate(midgame_positions(community, 6, 3)):
        seat = state.current
        obs = state.observation(seat)
        seed = 1000 + i
        assert fast_scores(game, k, seat, seed, obs) == asyncio.run(agent_scores(game, k, seat, seed, obs))


def test_one_call_scores_equal_the_agents_on_deck_lists():
    from tcgtui.games.tcg.packs import load_pack
    frontier = load_pack("frontier")
    ids = [c.id for c in frontier.cards]
    game = TcgGame(frontier, (from_ids(frontier, ids[:10] * 2), from_ids(frontier, ids[22:32] * 2)))
    state = game.new_state(5)
    for _ in range(6):
        state.apply(state.legal_moves()[0])
    seat = state.current
    obs = state.observation(seat)
    assert len(obs.legal_moves) >= 2
    assert fast_scores(game, 200, seat, 9, obs) == asyncio.run(agent_scores(game, 200, seat, 9, obs))
