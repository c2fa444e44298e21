"""Puzzle duels under --protocol seed: replies read as The Token Games reads them (the solver's first
SOLUTION: line), an unusable reply reruns the whole round with a fresh prompt, four tries, then the duel stops."""

from __future__ import annotations

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import Match, replay
from tcgtui.engine.duel import Proposal, Verdict
from tcgtui.engine.duel.prompter import DuelPrompter, parse_answer_reply
from tcgtui.engine.duel.state import GAVE_UP, PROPOSE, SEED_TRIES, SOLVE

EVEN = "def mystery(x):\n    return isinstance(x, int) and x % 2 == 0\n"
TWO_LINES = "First I tried 3.\nSOLUTION: 4\nOn second thought:\nSOLUTION: 6\n"


def game(protocol: str = "seed"):
    return registry.get("duel").game({"rounds": 2, "protocol": protocol})


def prompter(g, seat: int = 0) -> DuelPrompter:
    return DuelPrompter(g.public(), locales.load("en"), seat)


def test_the_protocol_is_in_the_setup_and_the_record():
    assert game().setup()["protocol"] == "seed" and game("tcgtui").setup()["protocol"] == "tcgtui"
    assert registry.get("duel").game({}).setup()["protocol"] == "tcgtui"
    assert Match(game(), 1).record().setup["protocol"] == "seed"


def test_the_solver_answer_is_the_first_solution_line_under_the_seed_and_the_last_under_tcgtui():
    for protocol, value in (("seed", "4"), ("tcgtui", "6")):
        g = game(protocol)
        match = Match(g, 1)
        match.play(Proposal(EVEN, "2").text())
        match.play(Verdict("true").text())
        obs = match.state.observation(1)
        assert obs.phase == SOLVE
        assert prompter(g, 1).parse(TWO_LINES, obs).move == '{"value":"%s"}' % value, protocol
    assert parse_answer_reply(TWO_LINES).text == "6"


def test_a_proposal_is_one_python_block_then_a_solution_line_as_the_seed_reads_it():
    g = game()
    obs = Match(g, 1).state.observation(0)
    p = prompter(g)
    reply = "Here:\n```python\n" + EVEN + "```\nEven numbers.\nSOLUTION: `4`\n"
    parsed = p.parse(reply, obs)
    assert parsed.move is not None and parsed.text == "`4`"         # the seed keeps the value as written
    assert p.parse("```py\n" + EVEN + "```\nSOLUTION: 4\n", obs).error == "no_code"
    two = "```python\n" + EVEN + "```\nSOLUTION: 4\n```python\n" + EVEN + "```\nSOLUTION: 8\n"
    assert p.parse(two, obs).error == "several"
    assert prompter(game("tcgtui")).parse(reply, Match(game("tcgtui"), 1).state.observation(0)).text == "4"


def test_an_unusable_reply_reruns_the_round_then_the_duel_stops_after_four_tries():
    g = game()
    match = Match(g, 1)
    match.play(Proposal(EVEN, "2").text())
    match.play(Verdict("true").text())
    events = match.play_invalid("no_solution", "I give up")       # the solver's reply: the round is rerun
    assert match.state.phase == PROPOSE and match.state.current.code == "" and match.state.current.proposer == 0
    assert events[0].data["rerun"] and events[0].data["left"] == SEED_TRIES - 1
    assert match.state.observation(0).attempts_left == SEED_TRIES - 1
    for _ in range(SEED_TRIES - 2):
        match.play_invalid("no_code", "no puzzle")
    assert not match.state.is_terminal()
    match.play_invalid("no_code", "no puzzle")
    assert match.state.is_terminal() and match.state.outcome.reason == GAVE_UP
    assert match.state.history == []                               # nothing of the round counts
    again = replay(g, match.record())
    assert again.state.outcome.reason == GAVE_UP


def test_a_scored_round_resets_the_tries():
    g = game()
    match = Match(g, 1)
    for _ in range(SEED_TRIES - 1):
        match.play_invalid("no_code", "x")
    match.play(Proposal(EVEN, "3").text())
    match.play(Verdict("false").text())                            # a penalty: the round is scored
    assert match.state.current.number == 2 and match.state.reruns == 0
    match.play_invalid("no_code", "x")
    assert not match.state.is_terminal()


def test_tcgtui_re_asks_the_same_player_and_scores_the_round():
    g = game("tcgtui")
    match = Match(g, 1)
    for _ in range(3):
        match.play_invalid("no_code", "x")
    assert match.state.history[0].cause == "unusable" and not match.state.is_terminal()


def test_the_seed_reruns_with_a_fresh_prompt():
    for protocol, quoted in (("seed", False), ("tcgtui", True)):
        g = game(protocol)
        obs = Match(g, 1).state.observation(0)
        text = prompter(g).turn(obs, [], retry=("my bad reply", "no code"))["content"]
        assert ("my bad reply" in text) is quoted, protocol
