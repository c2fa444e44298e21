"""Players never hold the dealer's rule: agents are handed ``Game.public()``, the game without its secret."""

from __future__ import annotations

import json
import random

import pytest

from tcgtui.engine import registry
from tcgtui.engine.core import Match
from tcgtui.opponents.llm.testserver import ChatServer, game_policy
from tcgtui.opponents.registry import make_agent
from tests.llm_support import llm_agent, play_match, run

SECRET = "return card.rank * 7 % 11 > 4"          # a rule no prompt would ever spell by chance


def secret_game(guess_format: str = "code"):  # type: ignore[no-untyped-def]
    return registry.get("eleusis").game({"rule_code": SECRET, "guess_format": guess_format})


def test_the_public_game_has_no_rule_and_cannot_deal() -> None:
    game = secret_game()
    public = game.public()
    assert public.rule is None and "rule" not in public.setup() and "rule_code" not in public.setup()
    assert SECRET not in json.dumps(public.setup()) and public.guess_format == "code"
    with pytest.raises(ValueError, match="no rule"):
        public.new_state(3)
    obs = Match(game, 3).state.observation(0)       # a re-deal for search still works: a library rule that fits
    assert public.resample(obs, random.Random(1)).rule is not None
    tictactoe = registry.get("tictactoe").game({})
    assert tictactoe.public() is tictactoe             # games without secrets hand themselves


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_llm_agent_never_sees_the_rule(lang: str) -> None:
    game = secret_game()

    async def go():  # type: ignore[no-untyped-def]
        agent = llm_agent(server)
        try:
            match, _ = await play_match(game, 4, [agent], lang=lang)
            return agent, match
        finally:
            await agent.aclose()
    with ChatServer(policy=game_policy("eleusis", 2, rule="return True")) as server:
        agent, match = run(go())
        sent = json.dumps([r.json for r in server.requests], ensure_ascii=False)
    assert len(match.state.plays) >= 1 and server.requests
    assert SECRET not in sent and "7 % 11" not in sent
    assert agent.ctx.game.rule is None and "rule_code" not in agent.ctx.game.setup()


def test_the_scientist_never_holds_the_rule() -> None:
    game = secret_game()
    agent = make_agent("scientist", game=game)
    match = Match(game, 5)
    run(play_match(game, 5, [agent], match=match))
    assert agent.game.rule is None and agent.game.rule_code == ""
    assert match.state.is_terminal()
