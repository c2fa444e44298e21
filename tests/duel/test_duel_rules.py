"""Every sentence of duel.rules checked against the engine (and the sandbox, for the checks)."""

from __future__ import annotations

import asyncio

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import IllegalMove, Match, replay
from tcgtui.engine.duel import REFEREE, Answer, Proposal, Verdict
from tcgtui.engine.duel.state import ANSWER, OVER, PROPOSE, SOLVE
from tcgtui.match import run_match
from tcgtui.opponents.registry import make_agent
from tcgtui.sandbox import Limits, Sandbox
from tests.scenario import rule

EVEN = "def mystery(x):\n    return x % 2 == 0\n"


def duel(**params):
    return registry.get("duel").game(params)


def play_round(match, sample="true", answer=None, code=EVEN, solution="2", value="4"):
    """One round: propose, the sample's verdict, then (if asked) the answer and its verdict."""
    match.play(Proposal(code, solution, "private notes").text())
    match.play(Verdict(sample, 0.01).text())
    if answer is not None:
        match.play(Answer(value).text())
        match.play(Verdict(answer, 0.01).text())


@rule("duel.rules.rounds")
def test_rounds_alternate_the_proposer_starting_with_the_first_player():
    match = Match(duel(rounds=4), 0)
    proposers = []
    for _ in range(4):
        proposers.append(match.state.current_player)
        play_round(match, answer="true")
    assert proposers == [0, 1, 0, 1] and match.state.is_terminal()
    with pytest.raises(registry.ParamError):
        registry.get("duel").info.resolve({"rounds": 1})
    with pytest.raises(ValueError, match="even"):
        duel(rounds=5)


@rule("duel.rules.propose")
def test_the_proposer_gives_code_and_a_secret_sample():
    state = duel().new_state(0)
    assert state.phase == PROPOSE and state.current_player == 0
    assert state.validate(Proposal(EVEN, "2").text()) is None
    assert state.validate(Proposal(EVEN, "").text()) == "format"        # no sample: not a puzzle
    assert state.validate(Proposal("", "2").text()) == "format"
    assert state.validate("def mystery(x): return True") == "format"
    events = state.apply(Proposal(EVEN, "2", "why").text())
    assert events[0].for_seat(1).data.keys() == {"round", "code"}          # the sample stays secret
    assert events[0].for_seat(0).data["solution"] == "2"
    assert state.pending().code == EVEN and state.pending().value == "2" and state.current_player == REFEREE


@rule("duel.rules.value")
def test_values_are_python_expressions_read_as_the_argument_of_mystery():
    sandbox = Sandbox(limits=Limits(timeout=3))
    code = "import math\nSEVEN = 7\ndef mystery(x):\n    return x == 'abcabc' or x == [1, 2, 3] or x == 7\n"
    for value in ("'abc' * 2", "list(range(1, 4))", "int('7')", "len('abcdefg')", "chr(ord('a')) + 'bcabc'",
                  "SEVEN", "math.isqrt(49)", "next(iter([7]))", "(lambda: 7)()", "__import__('math').isqrt(49)",
                  "x=7"):
        assert sandbox.check_sync(code, value).result == "true", value
    for value in ("open('x')", "undefined_name", "1, 2", "7) or (7", "7\n)\nimport os\n("):
        assert sandbox.check_sync(code, value).result == "error", value


@rule("duel.rules.sample")
def test_a_wrong_sample_is_a_penalty_and_the_solver_is_not_asked():
    match = Match(duel(), 0)
    play_round(match, sample="false")
    s = match.state
    assert s.history[0].outcome == "puzzle-wrong" and s.penalties == [1, 0] and s.wins == [0, 0]
    assert s.history[0].value is None and s.phase == PROPOSE and s.current_player == 1   # next round


@rule("duel.rules.solve")
def test_the_solver_sees_only_the_code():
    match = Match(duel(), 0)
    match.play(Proposal(EVEN, "2", "my secret idea").text())
    match.play(Verdict("true").text())
    assert match.state.phase == SOLVE and match.state.current_player == 1
    obs = match.state.observation(1)
    assert obs.code == EVEN and obs.role == "solver"
    seen = [e.to_json() for e in match.events_for(1)]
    assert "my secret idea" not in str(seen) and '"2"' not in str(obs)
    match.play(Answer("4").text())
    assert match.state.phase == ANSWER and match.state.pending().value == "4"


@rule("duel.rules.success")
def test_a_solved_puzzle_is_a_draw():
    match = Match(duel(), 0)
    play_round(match, answer="true")
    assert match.state.history[0].outcome == "success" and match.state.wins == [0, 0]
    assert match.state.penalties == [0, 0]


@rule("duel.rules.failure")
def test_an_unsolved_puzzle_wins_the_round_for_the_proposer():
    match = Match(duel(), 0)
    play_round(match, answer="false")
    play_round(match, answer="false")
    assert [r.outcome for r in match.state.history] == ["failure", "failure"] and match.state.wins == [1, 1]


@rule("duel.rules.only_true")
def test_only_true_itself_counts():
    sandbox = Sandbox(limits=Limits(timeout=3))
    for body in ("1", "'yes'", "[0]", "x"):
        assert sandbox.check_sync(f"def mystery(x):\n    return {body}\n", "1").result == "false", body
    assert sandbox.check_sync("def mystery(x):\n    return x == 1\n", "1").result == "true"


@rule("duel.rules.errors")
def test_errors_and_timeouts_count_as_not_true_with_their_ex_outcome():
    match = Match(duel(), 0)
    play_round(match, sample="error")
    play_round(match, sample="timeout")
    play_round(match, answer="error")
    play_round(match, answer="timeout")
    assert [r.outcome for r in match.state.history] == ["puzzle-wrong-ex"] * 2 + ["failure-ex"] * 2
    assert match.state.penalties == [1, 1] and match.state.wins == [1, 1]
    v = Sandbox(limits=Limits(timeout=1)).check_sync("def mystery(x):\n    return 1 / 0\n", "1")
    assert v.result == "error" and "ZeroDivisionError" in v.detail


@rule("duel.rules.sandbox")
def test_checks_run_in_the_sandbox_and_reaching_out_raises_an_error(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    game = duel(rounds=2, check_timeout=1.5)
    assert "1.5" in dict(registry.get("duel").rules_text(game, locales.load("en")))["duel.rules.sandbox"]
    attack = Proposal("import os\ndef mystery(x):\n    return os.environ['OPENAI_API_KEY'] == x\n", "'sk-secret'")
    loop = Proposal("def mystery(x):\n    while True:\n        pass\n", "1")
    agents = (make_agent("puzzler"), make_agent("puzzler"))
    match = Match(game, 0)
    match.play(attack.text())
    result = asyncio.run(run_match(game, 0, agents, match=match))
    checked = [e for e in result.record.events if e["kind"] == "checked"]
    assert checked[0]["result"] == "error" and "KeyError" in checked[0]["detail"]
    assert result.outcome is not None and match.state.history[0].outcome == "puzzle-wrong-ex"
    assert result.record.setup["check_timeout"] == 1.5
    (tmp_path / "outside.txt").write_text("x")
    sandbox = Sandbox(limits=Limits(timeout=3))
    for reach in (f"open({str(tmp_path / 'outside.txt')!r}).read()", "open('/etc/hostname').read()",
                  "__import__('socket').socket()", "__import__('os').kill(1, 0) or __import__('os').fork()"):
        v = sandbox.check_sync(f"def mystery(x):\n    return {reach}\n", "1")
        assert v.result == "error" and ("Permission" in v.detail or "not permitted" in v.detail), (reach, v)
    slow = Match(game, 0)
    slow.play(loop.text())
    asyncio.run(run_match(game, 0, agents, match=slow))
    first = slow.state.history[0]
    assert first.sample.result == "timeout" and 1.5 <= first.sample.seconds < 3


@rule("duel.rules.history")
def test_proposers_see_earlier_puzzles_with_outcomes_but_not_the_opponents_secrets():
    match = Match(duel(), 0)
    play_round(match, answer="false", solution="2")             # seat 0's puzzle
    match.play(Proposal("def mystery(x):\n    return x == 5\n", "5", "seat one's plan").text())
    match.play(Verdict("true").text())
    match.play(Answer("5").text())
    match.play(Verdict("true").text())
    obs = match.state.observation(0)
    assert obs.phase == PROPOSE and [r.outcome for r in obs.history] == ["failure", "success"]
    mine, theirs = obs.history
    assert mine.explanation == "private notes" and mine.solution == "2"
    assert theirs.code.endswith("x == 5\n") and theirs.explanation == "" and theirs.solution == ""
    assert match.state.observation(1).history[1].explanation == "seat one's plan"


@rule("duel.rules.attempts")
def test_unusable_replies_are_asked_again_then_the_round_is_scored():
    match = Match(duel(attempts=2), 0)
    match.play_invalid("format", "no code block here")
    assert match.state.phase == PROPOSE and match.state.current_player == 0
    assert match.state.observation(0).attempts_left == 1
    match.play_invalid("format", "still nothing")
    assert match.state.history[0].outcome == "puzzle-wrong" and match.state.history[0].cause == "unusable"
    assert match.state.penalties == [1, 0] and match.state.current_player == 1
    match.play(Proposal(EVEN, "2").text())
    match.play(Verdict("true").text())
    match.play_invalid("format", "I give up")
    match.play_invalid("no_solution", "really")
    assert match.state.history[1].outcome == "failure" and match.state.wins == [0, 1]
    again = replay(duel(attempts=2), match.record())
    assert again.state.to_json() == match.state.to_json()                 # invalid attempts replay too
    with pytest.raises(IllegalMove):
        Match(duel(), 0).state.apply(Answer("4").text())                   # an answer is not a proposal


@rule("duel.rules.score")
def test_score_is_wins_minus_penalties_and_the_higher_score_wins():
    match = Match(duel(rounds=4), 0)
    play_round(match, answer="false")          # seat 0 wins round 1
    play_round(match, sample="false")          # seat 1 penalised
    play_round(match, sample="false")          # seat 0 penalised
    play_round(match, answer="true")           # draw
    s = match.state
    assert s.phase == OVER and s.scores() == (0, -1)
    assert s.outcome.winner == 0 and s.outcome.scores == (0.0, -1.0) and s.returns() == [0.0, -1.0]
    level = Match(duel(rounds=2), 0)
    play_round(level, answer="true")
    play_round(level, answer="true")
    assert level.state.outcome.winner is None


def test_rules_text_is_complete_in_both_languages():
    game = duel(rounds=6, attempts=4)
    for lang in ("en", "ar"):
        rules = registry.get("duel").rules_text(game, locales.load(lang))
        assert len(rules) == 13 and all(sentence for _, sentence in rules)
        text = " ".join(s for _, s in rules)
        assert "6" in text and "4" in text


def test_the_record_keeps_every_verdict_and_replays_without_running_code():
    game = duel(rounds=2)
    result = asyncio.run(run_match(game, 5, (make_agent("puzzler"), make_agent("puzzler"))))
    verdicts = [m for m in result.record.moves if '"result"' in m]
    assert len(verdicts) == 4
    again = replay(game, result.record)                   # no referee here: replay runs no code
    assert again.state.is_terminal() and again.state.outcome == result.outcome
    assert again.record().to_json() == result.record.to_json()


@rule("duel.rules.time_up")
def test_time_up_with_nothing_written_is_a_failure_for_the_solver():
    from tcgtui.engine.duel.moves import TimeUp
    untimed = Match(duel(rounds=2), 0)
    play_round(untimed)
    with pytest.raises(IllegalMove):                       # no time to solve: nothing can run out
        untimed.play(TimeUp().text())
    game = duel(rounds=2, solve_time=30)
    match = Match(game, 0)
    play_round(match)
    assert match.state.phase == SOLVE
    match.play(TimeUp().text())
    first = match.state.history[0]
    assert first.outcome == "failure" and first.cause == "time" and first.value is None
    assert match.state.wins == [1, 0] and match.state.phase == PROPOSE     # no check: nothing to run
    assert game.setup()["solve_time"] == 30.0 and replay(game, match.record()).state.to_json() == \
        match.state.to_json()
    said = registry.get("duel").narrator(game, locales.load("en")).all(match.events)
    assert any("time to solve is up" in s for s in said)


@rule("duel.rules.solve_time")
def test_the_time_to_solve_is_told_only_in_timed_duels():
    timed = dict(registry.get("duel").rules_text(duel(solve_time=45), locales.load("en")))
    assert "45 seconds" in timed["duel.rules.solve_time"] and "duel.rules.time_up" in timed
    untimed = dict(registry.get("duel").rules_text(duel(), locales.load("en")))
    assert "duel.rules.solve_time" not in untimed and "duel.rules.time_up" not in untimed
