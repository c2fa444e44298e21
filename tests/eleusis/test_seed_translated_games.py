"""Eleusis under --protocol seed with --translator: a bench whose every guess goes through the seed's
translator (the fixture compile prompt, the local test server) and the seed's walk in the sandbox, settled
by the referee; and the refusals of the flag.

The fixture checkout's rules.json (written for tcgtui's tests) makes rule 7's Python ``return True``;
the scientist guesses "only red cards" on its 2nd turn (translated to a rule that differs: wrong) and
"anything goes" on its 4th (translated to ``return True``: right), so the round ends solved on turn 4
with 31 - 4 - 2 = 25.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import replay
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.upstream import load
from tests.eleusis.test_seed_prompt import FILES, checkout
from tests.eleusis.test_seed_prompt import reply as seed_reply
from tests.eleusis.test_seed_deals import FIXTURES
from tests.llm_support import play_llm

COMPILE = (FIXTURES / "seed_compile_prompt.py").read_text(encoding="utf-8")
TRANSLATIONS = {"only red cards": "return card.color == 'red'", "anything goes": "return True"}


def fixture_checkout(tmp_path):
    return checkout(tmp_path / "seed", {**FILES, "src/eleusis/prompts/compile.py": COMPILE})


def policy(asked: list):
    turns = [0]

    def answer(request):
        prompt = request["messages"][-1]["content"]
        if request.get("model") == "translator":
            words = next(w for w in TRANSLATIONS if f"Rule: {w}\n" in prompt)
            asked.append(words)
            return Reply(f"<NAME>x</NAME>\n<CODE>\n{TRANSLATIONS[words]}\n</CODE>")
        hand = next(line[2:].split(" / ") for line in prompt.splitlines() if line.startswith("H "))
        turns[0] += 1
        words = {2: "only red cards", 4: "anything goes"}.get(turns[0], "")
        return Reply(seed_reply(hand[0], words or "no idea", bool(words), "", 6))
    return answer


def test_a_seed_bench_translates_each_guess_and_walks_it_in_the_sandbox(tmp_path, capsys):
    db, asked = tmp_path / "b.sqlite3", []
    with ChatServer(policy=policy(asked)) as server:
        assert main(["bench", "--game", "eleusis", "--protocol", "seed", "--upstream", str(fixture_checkout(tmp_path)),
                     "--agent", "llm:fake", "--base-url", server.base_url, "--translator", "llm:translator",
                     "--rules", "7", "--seeds", "1", "--db", str(db), "--concurrency", "1"]) == 0
    assert asked == ["only red cards", "anything goes"]
    with sqlite3.connect(db) as c:
        score, reason, params, record = c.execute("SELECT score, reason, game_params, record_json FROM games").fetchone()
        infos = [json.loads(i) for (i,) in c.execute("SELECT d.info_json FROM decisions d ORDER BY d.idx")]
    assert (score, reason) == (25.0, "solved")
    assert json.loads(params)["translator"] == "llm:translator"
    translated = [i["follow_up"]["seed_translation"] for i in infos if "follow_up" in i]
    assert [(t["words"], t["code"], t["status"], len(t["attempts"])) for t in translated] == [
        ("only red cards", "return card.color == 'red'", "success", 1), ("anything goes", "return True", "success", 1)]
    assert translated[0]["attempts"][0]["model"] == "translator"
    events = [e for e in json.loads(record)["events"] if e["kind"] == "guess"]
    walks = [(e["turn"], e["correct"], e["walk"]["outcome"]) for e in events]
    assert walks == [(2, False, "differs"), (4, True, "same")]
    assert events[0]["walk"]["where"] and events[1]["walk"]["sandbox"] == "true"
    capsys.readouterr()
    assert main(["report", "--game", "eleusis", "--db", str(db)]) == 0      # the referee's moves are no plays
    assert "translator" in capsys.readouterr().out


def test_the_translator_is_refused_outside_the_seeds_protocol_and_needed_inside_it(tmp_path, capsys):
    assert main(["bench", "--game", "eleusis", "--agent", "random", "--translator", "llm:t", "--games", "1",
                 "--db", str(tmp_path / "a.sqlite3")]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--translator" in err[0] and "--protocol seed" in err[0]
    assert main(["bench", "--game", "eleusis", "--protocol", "seed", "--upstream", str(fixture_checkout(tmp_path)),
                 "--agent", "random", "--translator", "llm:t", "--guess-format", "code", "--games", "1",
                 "--db", str(tmp_path / "c.sqlite3")]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--translator" in err[0] and "--guess-format code" in err[0]
    with ChatServer(policy=policy([])) as server:
        assert main(["bench", "--game", "eleusis", "--protocol", "seed", "--upstream", str(fixture_checkout(tmp_path)),
                     "--agent", "llm:fake", "--base-url", server.base_url, "--rules", "7", "--seeds", "1",
                     "--db", str(tmp_path / "b.sqlite3")]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].count("--translator") >= 1


@pytest.mark.parametrize("options, temperature", [({}, 0.7), ({"judge_temperature": 0.2}, 0.2)])
def test_the_translator_runs_at_the_seeds_temperature_and_its_guess_is_walked(options, temperature, tmp_path):
    """The seed's translating model runs at 0.7 (its config); --judge-temperature sets it either way."""
    asked: list = []
    game = registry.get("eleusis").game({"rule": 7, "protocol": "seed", "translator": "llm:translator",
                                         "upstream": load("--upstream", str(fixture_checkout(tmp_path)))})

    with ChatServer(policy=policy(asked)) as server:
        match, decisions = play_llm(server, game, 3, **options)
    to_translator = [r.json for r in server.requests if r.json.get("model") == "translator"]
    assert len(to_translator) == 2 and {r["temperature"] for r in to_translator} == {temperature}
    assert match.record().setup["translator"] == "llm:translator" and match.state.score == 25


def test_a_guess_whose_translation_fails_has_no_code_and_is_wrong_and_the_record_replays(tmp_path):
    """The seed's coordinator stops at 5 requests; the guess has no code, its walk is ``no_code`` (wrong).
    The record replays from its setup alone (no checkout, no referee): the verdicts are its moves."""
    asked: list = []
    speak = policy(asked)

    def answer(request):
        if request.get("model") == "translator":
            asked.append("x")
            return Reply("I cannot write that rule.")
        return speak(request)
    game = registry.get("eleusis").game({"rule": 7, "protocol": "seed", "translator": "llm:translator", "max_turns": 30,
                                         "upstream": load("--upstream", str(fixture_checkout(tmp_path)))})

    with ChatServer(policy=answer) as server:
        match, decisions = play_llm(server, game, 3)
    translated = [d.info["follow_up"]["seed_translation"] for _, d in decisions if "follow_up" in d.info]
    assert [(t["words"], t["code"], t["status"], [a["outcome"] for a in t["attempts"]]) for t in translated] == [
        (w, None, "exhausted", ["not_code"] * 5) for w in ("only red cards", "anything goes")]
    guesses = [e.data for e in match.events if e.kind == "guess"]
    assert [(g["correct"], g["walk"]["outcome"]) for g in guesses] == [(False, "no_code")] * 2
    assert match.state.score == -2 * 2 and match.state.outcome.reason == "turns"
    record = match.record()
    again = replay(registry.get("eleusis").game(record.setup), record)
    assert again.state.score == match.state.score and again.events[-1].data == match.events[-1].data
