"""The fake endpoint as others use it: the hand-reading policy, and ``python -m tcgtui.opponents.llm.testserver``."""

from __future__ import annotations

import re
import subprocess
import sys

import httpx

from tcgtui.engine.core import Match
from tcgtui.engine.tcg import TcgGame
from tests.llm_support import PromptBuilder
from tcgtui.opponents.llm.testserver import hand_of, hand_policy


def test_the_policy_plays_a_card_of_the_hand_in_either_language(community):
    match = Match(TcgGame(community), 6)
    obs = match.state.observation(0)
    for lang in ("en", "ar"):
        turn = PromptBuilder(community, lang, 0).turn(obs, match.events_for(0))
        request = {"messages": [{"role": "system", "content": "x"}, turn]}
        hand = [community.card(c).name(lang) for c in obs.hand]
        assert hand_of(request) == hand
        reply = hand_policy(1)(request)
        assert re.fullmatch(r"<BEGIN_MOVE>(.+)<END_MOVE>", reply.content).group(1) in hand
    assert hand_of({"messages": []}) == []


def test_the_command_line_server_answers_requests(community):
    proc = subprocess.Popen([sys.executable, "-m", "tcgtui.opponents.llm.testserver", "--port", "0", "--think"],
                            stdout=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://\S+/v1", proc.stdout.readline()).group(0)
        body = {"model": "m", "messages": [{"role": "user", "content": "Your hand: Frost Mage"}]}
        reply = httpx.post(url + "/chat/completions", json=body, timeout=10).json()
        message = reply["choices"][0]["message"]
        assert message["content"] == "<BEGIN_MOVE>Frost Mage<END_MOVE>"
        assert "Frost Mage" in message["reasoning_content"] and reply["usage"]["prompt_tokens"] > 0
        assert httpx.post(url + "/nothing", json=body, timeout=10).status_code == 404
    finally:
        proc.terminate()
        proc.wait(timeout=10)
