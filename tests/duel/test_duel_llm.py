"""The llm: player in puzzle duels: the prompts, the reply parser, and whole duels between
two models through the real local test server, in English and Arabic."""

from __future__ import annotations

import json

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import INVALID, Match
from tcgtui.engine.duel import Answer, Proposal, Verdict
from tcgtui.engine.duel.prompter import DuelPrompter, parse_answer_reply, parse_proposal_reply, solution_value
from tcgtui.opponents.llm.testserver import ChatServer, Reply, game_policy
from tests.llm_support import llm_agent, play_match, run

EVEN = "def mystery(x):\n    return x % 2 == 0\n"


def duel(**params):
    return registry.get("duel").game(params)


@pytest.mark.parametrize("line, value", [
    ("SOLUTION: 42", "42"), ("**SOLUTION:** `'abc'`", "'abc'"), ("`SOLUTION: \"a b\"`", '"a b"'),
    ("solution: 2**10", "2**10"), ("SOLUTION: ```[1, 2]```", "[1, 2]"), ("Final SOLUTION: -3", "-3"),
    ("SOLUTION: ٤٢", "42"), ("SOLUTION: -٧", "-7"), ("SOLUTION: «مرحبا»", "'مرحبا'"), ("SOLUTION: '٤٢'", "'٤٢'")])
def test_the_value_is_read_from_the_solution_line_without_markdown(line, value):
    assert solution_value(f"some thinking\n{line}\n") == value


def test_the_last_solution_line_counts():
    assert solution_value("SOLUTION: 1\nno wait\nSOLUTION: 2") == "2"
    assert parse_answer_reply("I think SOLUTION: 'x'\n").move == Answer("'x'").text()
    assert parse_answer_reply("no idea").error == "no_solution"


def test_a_proposal_is_the_code_block_the_private_text_and_the_sample():
    reply = "Idea first.\n```python\ndef mystery(x):\n    return x == 3\n```\nIt is easy.\n**SOLUTION:** `3`"
    p = parse_proposal_reply(reply)
    assert p.error is None
    move = json.loads(p.move)
    assert move == {"code": "def mystery(x):\n    return x == 3\n", "explanation": "Idea first.\n\nIt is easy.",
                    "solution": "3"}
    assert parse_proposal_reply("```python\nprint(1)\n```\nSOLUTION: 1").error == "no_code"
    two = "```python\ndef mystery(x): return 1\n```\n```python\ndef mystery(x): return 2\n```\nSOLUTION: 1"
    assert parse_proposal_reply(two).error == "several"
    assert parse_proposal_reply("```python\ndef mystery(x): return 1\n```\n").error == "no_solution"
    # a SOLUTION line inside the code is code, not the sample
    inside = "```python\ndef mystery(x):\n    # SOLUTION: 5\n    return x == 4\n```\nSOLUTION: 4"
    assert json.loads(parse_proposal_reply(inside).move)["solution"] == "4"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_proposer_sees_history_with_the_opponents_explanations_hidden(lang):
    cat = locales.load(lang)
    match = Match(duel(), 0)
    match.play(Proposal(EVEN, "2", "SEAT-ZERO-NOTES").text())
    match.play(Verdict("true").text())
    match.play(Answer("4").text())
    match.play(Verdict("true").text())
    match.play(Proposal("def mystery(x):\n    return x == 'zz'\n", "'zz'", "SEAT-ONE-NOTES").text())
    match.play(Verdict("false").text())
    text = DuelPrompter(duel(), cat, 0).turn(match.state.observation(0), [])["content"]
    assert "SEAT-ZERO-NOTES" in text and "SEAT-ONE-NOTES" not in text and "x == 'zz'" in text
    assert cat.t("duel.prompts.outcome.success") in text and cat.t("duel.prompts.outcome.puzzle-wrong") in text
    assert cat.t("duel.prompts.history.hidden") in text and "SOLUTION: x" in text
    assert cat.t("duel.prompts.score", round=3, rounds=10, mine=0, theirs=-1) in text


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_solver_sees_the_code_only(lang):
    cat = locales.load(lang)
    match = Match(duel(), 0)
    match.play(Proposal(EVEN, "2", "SECRET-PLAN").text())
    match.play(Verdict("true").text())
    text = DuelPrompter(duel(), cat, 1).turn(match.state.observation(1), [])["content"]
    assert EVEN.strip() in text and "SECRET-PLAN" not in text and "SOLUTION: 2" not in text
    assert cat.t("duel.prompts.solve.task") in text


def play_duel(server, lang, seed=3, rounds=10):
    game = duel(rounds=rounds, check_timeout=3)

    async def go():
        a, b = llm_agent(server), llm_agent(server)
        try:
            return await play_match(game, seed, (a, b), lang=lang)
        finally:
            await a.aclose()
            await b.aclose()
    return run(go())


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_whole_duel_between_two_models_through_the_local_server(lang):
    with ChatServer(policy=game_policy("duel", seed=11, wrong=0.3)) as server:
        match, played = play_duel(server, lang)
        prompts = [r.json["messages"][-1]["content"] for r in server.requests]
    state = match.state
    assert state.is_terminal() and len(state.history) == 10
    outcomes = {r.outcome for r in state.history}
    assert outcomes & {"puzzle-wrong", "puzzle-wrong-ex"} and outcomes & {"success", "failure"}
    asked = sum(1 for r in state.history if r.sample.result == "true")
    assert len(server.requests) == 10 + asked          # one proposal per round, one answer per valid puzzle
    cat = locales.load(lang)
    assert sum(cat.t("duel.prompts.propose.task") in p for p in prompts) == 10
    assert all(info.info["prompt_version"].startswith(f"duel-v1-{lang}-") for _, info in played)
    assert state.scores() == tuple(int(s) for s in state.outcome.scores)


def test_unusable_replies_are_asked_again_then_scored():
    bad = [Reply("I would rather not."), Reply("```python\ndef mystery(x): return True\n```\nno sample"),
           Reply("still nothing")]
    with ChatServer(script=bad, policy=game_policy("duel", seed=2)) as server:
        match, played = play_duel(server, "en", rounds=2)
        second = server.requests[1].json["messages"][-1]["content"]
    first = match.state.history[0]
    assert first.outcome == "puzzle-wrong" and first.cause == "unusable"
    assert match.record().moves[:3] == [INVALID + "no_code", INVALID + "no_solution", INVALID + "no_code"]
    assert "I would rather not." in second and locales.load("en").t("duel.prompts.reason.no_code") in second
    assert match.invalid_texts[0] == "I would rather not."


HOSTILE = ("import os\ndef mystery(x):\n    while True:\n        os.fork()\n",
           "def mystery(x):\n    return len('a' * 10 ** 10) > 0\n",
           "def mystery(x):\n    while True:\n        pass\n",
           "def mystery(x):\n    return open('/etc/hostname').read() != ''\n",
           "import socket\ndef mystery(x):\n    return socket.socket() is not None\n")


def test_hostile_puzzles_are_contained_and_the_duel_goes_on():
    """Seat 0 proposes a hostile puzzle every round; every check ends in error or timeout, each such
    round is scored puzzle-wrong-ex, and the duel reaches its end."""
    replies = []
    for code in HOSTILE:
        replies.append(Reply(f"```python\n{code}```\nSOLUTION: 1"))          # seat 0 proposes
        replies.append(Reply("```python\ndef mystery(x):\n    return x == 7\n```\nSOLUTION: 7"))   # seat 1
        replies.append(Reply("SOLUTION: 7"))                                   # seat 0 solves
    game = duel(rounds=10, check_timeout=1.5)

    async def go():
        a, b = llm_agent(server), llm_agent(server)
        try:
            return await play_match(game, 0, (a, b))
        finally:
            await a.aclose()
            await b.aclose()
    with ChatServer(script=replies) as server:
        match, _ = run(go())
    history = match.state.history
    assert match.state.is_terminal() and len(history) == 10
    assert [r.outcome for r in history[0::2]] == ["puzzle-wrong-ex"] * 5
    assert all(r.sample.result in ("error", "timeout") for r in history[0::2])
    assert [r.outcome for r in history[1::2]] == ["success"] * 5
    assert match.state.scores() == (-5, 0)
