"""The person as an agent: decide waits for the interface, and its time is recorded."""

from __future__ import annotations

import asyncio

import pytest

from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.human import HumanAgent
from tcgtui.opponents.random_agent import RandomAgent
from tcgtui.match import FINISHED, run_match

pytestmark = pytest.mark.anyio


async def test_decide_waits_for_a_legal_choice(community) -> None:  # type: ignore[no-untyped-def]
    asked = []
    human = HumanAgent("ada", on_turn=lambda obs, events: asked.append(obs.legal_moves))
    state = TcgGame(community).new_state(1)
    human.start(SeatContext(0, 1, game=TcgGame(community)))
    obs = state.observation(0)
    task = asyncio.create_task(human.decide(obs, []))
    await asyncio.sleep(0)
    assert human.waiting and asked == [obs.legal_moves]
    assert not human.choose("not_a_card")
    assert not human.choose(next(c.id for c in community.cards if c.id not in obs.legal_moves))
    assert human.waiting
    assert human.choose(obs.legal_moves[-1])
    decision = await task
    assert decision.move == obs.legal_moves[-1] and not human.waiting
    assert not human.choose(obs.legal_moves[0])          # nothing pending any more
    assert human.describe() == {"spec": "human", "handle": "ada"}


async def test_run_match_times_the_person(starter) -> None:  # type: ignore[no-untyped-def]
    human = HumanAgent()
    delay = 0.05

    def answer(obs, events) -> None:  # type: ignore[no-untyped-def]
        asyncio.get_running_loop().call_later(delay, human.choose, obs.legal_moves[0])

    human.on_turn = answer
    result = await run_match(TcgGame(starter), 3, (human, RandomAgent()))
    assert result.status == FINISHED
    mine = [d for d in result.decisions if d.seat == 0]
    assert mine and all(d.seconds >= delay * 0.9 for d in mine)
    assert result.record.moves[0] == mine[0].move


async def test_a_move_that_carries_more_than_a_legal_choice_is_taken_through_the_choice_it_stands_for() -> None:
    from tcgtui.engine import registry
    from tcgtui.engine.eleusis.cards import parse_card
    from tcgtui.engine.eleusis.moves import Play
    game = registry.get("eleusis").game({"rule": 0})
    obs = game.new_state(3).observation(0)
    human = HumanAgent("ada")
    task = asyncio.create_task(human.decide(obs, []))
    await asyncio.sleep(0)
    card = obs.legal_moves[0]
    guess = Play(parse_card(card), guess=True, rule="return True", code="return True").text()
    assert not human.choose(guess)                          # not listed by itself
    assert not human.choose(guess, "ZZ")                    # nor through a choice that is not legal
    assert human.choose(guess, card)
    assert (await task).move == guess
