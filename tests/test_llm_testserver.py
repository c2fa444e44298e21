"""The fake endpoint as others use it: the hand-reading policy, and ``python -m tcgtui.opponents.llm.testserver``."""

from __future__ import annotations

import re
import subprocess
import sys

import httpx

from tcgtui.engine.core import Match
from tcgtui.engine.tcg import TcgGame
from tests.llm_support import PromptBuilder
from tcgtui.engine.tcg.fake_replies import hand_of
from tcgtui.opponents.llm.testserver import catalogs, game_policy, prompt_of


def test_the_policy_plays_a_card_of_the_hand_in_either_language(community):
    match = Match(TcgGame(community), 6)
    obs = match.state.observation(0)
    for lang in ("en", "ar"):
        turn = PromptBuilder(community, lang, 0).turn(obs, match.events_for(0))
        request = {"messages": [{"role": "system", "content": "x"}, turn]}
        hand = [community.card(c).name(lang) for c in obs.hand]
        assert hand_of(prompt_of(request), catalogs()) == hand
        reply = game_policy("tcg", 1)(request)
        assert re.fullmatch(r"<BEGIN_MOVE>(.+)<END_MOVE>", reply.content).group(1) in hand
    assert hand_of(prompt_of({"messages": []}), catalogs()) == []


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


def test_a_paced_server_streams_a_reply_token_by_token_over_time():
    """The test server streamed instantly, so streaming was never seen (issue 12 §4)."""
    import time

    from tcgtui.opponents.llm.testserver import ChatServer, Reply
    text = "<BEGIN_MOVE>" + "x" * 68 + "<END_MOVE>"       # 90 characters: about 23 tokens
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}

    def arrivals(server: ChatServer) -> list[float]:
        times = []
        with httpx.stream("POST", server.base_url + "/chat/completions", json=body, timeout=10) as r:
            for line in r.iter_lines():
                if '"content"' in line:
                    times.append(time.perf_counter())
        return times

    with ChatServer([Reply(text)], tokens_per_second=100) as paced:
        times = arrivals(paced)
    assert len(times) >= 20 and times[-1] - times[0] >= 0.15        # 23 tokens at 100/s: about 0.23 s
    with ChatServer([Reply(text)]) as instant:                        # what tests use: all at once
        times = arrivals(instant)
    assert times[-1] - times[0] < 0.1


def test_the_command_line_refuses_a_negative_pace():
    done = subprocess.run([sys.executable, "-m", "tcgtui.opponents.llm.testserver", "--tokens-per-second", "-1"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "--tokens-per-second: -1.0 is not a pace" in done.stderr
