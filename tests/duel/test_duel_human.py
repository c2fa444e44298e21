"""A person in a duel, through the same agent as every human game (the screen is still to come):
asked with the observation of their role, answering with the game's move text."""

from __future__ import annotations

import asyncio

from tcgtui.engine import registry
from tcgtui.engine.duel import Answer, Proposal
from tcgtui.match import run_match
from tcgtui.opponents.human import HumanAgent
from tcgtui.opponents.registry import make_agent


def test_a_person_proposes_and_solves_against_the_reference_player():
    game = registry.get("duel").game({"rounds": 4, "check_timeout": 3})
    asked = []

    async def play():
        person = HumanAgent("ann")

        def on_turn(obs, events):
            asked.append((obs.phase, obs.code))
            if obs.phase == "propose":
                move = Proposal("def mystery(x):\n    return x == 'ann'\n", "'ann'", "my secret").text()
            else:
                move = Answer(repr(obs.code.split("== ")[-1].strip().strip("'"))).text() if "==" in obs.code \
                    else Answer("0").text()
            asyncio.get_running_loop().call_soon(person.choose, move)
        person.on_turn = on_turn
        return await run_match(game, 1, (person, make_agent("puzzler")))
    result = asyncio.run(play())
    assert result.status == "finished" and [phase for phase, _ in asked] == ["propose", "solve"] * 2
    assert all(code == "" for phase, code in asked if phase == "propose")
    assert all("def mystery" in code for phase, code in asked if phase == "solve")
    proposals = [e for e in result.record.events if e["kind"] == "proposed" and e["player"] == 0]
    assert len(proposals) == 2 and all(e["explanation"] == "my secret" for e in proposals)


def test_a_person_cannot_answer_when_not_asked():
    person = HumanAgent()
    assert person.choose(Answer("1").text()) is False
