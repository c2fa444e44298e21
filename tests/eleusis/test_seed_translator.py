"""Eleusis under --protocol seed: the seed's translator (its compile prompt, its retries, its fallbacks),
played against the local test server, and its translations judged in the sandbox.

``fixtures/seed_compile_prompt.py`` is a prompt file in the seed's shape written for these
tests; with ``TCGTUI_ELEUSIS_UPSTREAM`` naming a checkout, the seed's own is read too.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.seed_compile import COMPILE_FILE, CompileWording, compiler_for, extract_code, is_function_body
from tcgtui.engine.eleusis.seed_prompter import WordingError
from tcgtui.errors import UserError
from tcgtui.games.eleusis.seed_judge import SAME, WALK_LIMITS, judge_code
from tcgtui.opponents.llm.translator import (ENDPOINT, EXHAUSTED, NOT_CODE, OK, RETRY_SUCCESS, SUCCESS,
                                                  TRUNCATED, SeedTranslator, seed_translator, translator_models)
from tcgtui.opponents.llm.testserver import ChatServer, Fault, Reply
from tcgtui.sandbox import Sandbox
from tests.eleusis.test_seed_deals import CHECKOUT, FIXTURES, needs_checkout

SOURCE = (FIXTURES / "seed_compile_prompt.py").read_text(encoding="utf-8")
RED = "<NAME>red_only</NAME>\n<CODE>\nreturn card.color == 'red'\n</CODE>"
FAST = {"backoff_base": 0.001, "backoff_max": 0.01}


def translate(models: list[ChatServer], words: str = "only red cards", sleeps: list | None = None, **limits):
    async def sleep(seconds: float) -> None:
        if sleeps is not None:
            sleeps.append(seconds)
    options = {**FAST, "base_url": models[0].base_url, "translator": ",".join(f"llm:m{i}" for i in range(len(models)))}
    settings = translator_models(options)
    settings = [replace(s, base_url=m.base_url) for s, m in zip(settings, models)]

    async def go():
        t = SeedTranslator(compiler_for(SOURCE), settings, sleep=sleep, **limits)
        try:
            return await t.translate(words), await t.translate(words)
        finally:
            await t.aclose()
    return asyncio.run(go())


def test_the_prompt_is_read_from_the_source_by_its_syntax_tree():
    prompt = CompileWording.read(SOURCE).prompt("only red cards")
    assert "Rule: only red cards\n" in prompt and "{2, 3}" in prompt and "{rule_text}" not in prompt
    with pytest.raises(WordingError, match="get_rule_compile_prompt"):
        CompileWording.read("def other():\n    return 'x'\n")


@needs_checkout
def test_the_seeds_own_compile_prompt_reads():
    source = (Path(CHECKOUT) / COMPILE_FILE).read_text(encoding="utf-8")
    prompt = CompileWording.read(source).prompt("RULE-WORDS-HERE")
    assert "RULE-WORDS-HERE" in prompt and "<CODE>" in prompt


def test_what_the_seed_keeps_of_a_reply():
    assert extract_code("<code>return 1</code> then <CODE>\nreturn card.rank > 5\n</CODE>") == "return card.rank > 5"
    assert extract_code("<think><CODE>return 0</CODE></think>```\nreturn True\n```") == "return True"
    assert extract_code("```python\nreturn 2\n``` and ```json\nreturn 3\n```") == "return 3"
    assert extract_code("  return False  ") == "return False"
    assert is_function_body("if not mainline:\n    return True\nreturn card.rank > mainline[-1].rank")
    assert not is_function_body("return (") and not is_function_body("")
    assert not is_function_body("nonlocal x")       # compiles only inside an enclosing function


def test_a_translation_retried_until_its_reply_compiles():
    with ChatServer(["no code at all ((", Reply(RED, finish_reason="length"), RED]) as server:
        found, again = translate([server])
    assert found.code == "return card.color == 'red'" and found.status == RETRY_SUCCESS
    assert [a.outcome for a in found.attempts] == [NOT_CODE, TRUNCATED, OK]
    assert "Rule: only red cards" in server.requests[0].json["messages"][0]["content"]
    assert server.requests[0].json["temperature"] == 0.7          # the seed's translating temperature
    assert again.cached and again.code == found.code and len(server.requests) == 3
    assert found.to_json()["attempts"][0]["reply"] == "no code at all (("


def test_five_failed_requests_leave_the_guess_without_code_and_the_fallback_unasked():
    with ChatServer(["((("] * 6 + [RED]) as primary, ChatServer([RED]) as fallback:
        found, again = translate([primary, fallback])
    assert found.code is None and found.status == EXHAUSTED and len(found.attempts) == 5
    assert fallback.requests == []
    assert not again.cached and again.code is not None and len(primary.requests) == 7    # asked again, not kept


def test_a_fallback_model_takes_over_after_the_primarys_retries():
    with ChatServer(["(((", "((("]) as primary, ChatServer([RED]) as fallback:
        found, _ = translate([primary, fallback], max_retries=1)
    assert found.code is not None and found.model == "m1" and found.status == RETRY_SUCCESS
    assert [a.model for a in found.attempts] == ["m0", "m0", "m1"]


def test_every_model_failing_waits_a_doubling_pause_before_another_cycle():
    sleeps: list = []
    with ChatServer(["((("] * 9) as a, ChatServer(["((("] * 9) as b:
        found, _ = translate([a, b], sleeps=sleeps, max_retries=0)
    assert found.status == EXHAUSTED and [x.model for x in found.attempts] == ["m0", "m1", "m0", "m1", "m0"]
    assert sleeps == [60.0, 120.0] * 2 and found.sleep_cycles == 2      # the second asking goes the same way


def test_an_endpoint_failure_is_one_failed_request():
    with ChatServer([RED], faults=[Fault.http(400)]) as server:
        found, _ = translate([server])
    assert [a.outcome for a in found.attempts] == [ENDPOINT, OK] and found.code is not None


def test_a_translation_is_judged_in_the_sandbox():
    with ChatServer([RED]) as server:
        found, _ = translate([server])
    assert found.status == SUCCESS
    v = asyncio.run(judge_code(Sandbox("local", WALK_LIMITS), "return card.suit.suit_name in ('hearts', 'diamonds')",
                               found.code, [parse_card("2H")], simulations=3, turns=5))
    assert v.outcome == SAME


def test_refusals_name_the_flag():
    with pytest.raises(UserError, match=r"^--upstream: .*compile\.py"):
        seed_translator({"translator": "llm:m"}, partial(compiler_for, None))
    with pytest.raises(UserError, match=r"^--translator: "):
        seed_translator({"base_url": "http://127.0.0.1:9/v1"}, partial(compiler_for, SOURCE))
    with pytest.raises(UserError, match=r"^--translator: 'gpt' is not a model"):
        seed_translator({"translator": "gpt"}, partial(compiler_for, SOURCE))
    with pytest.raises(UserError, match=r"^--upstream: .*no function get_rule_compile_prompt"):
        seed_translator({"translator": "llm:m"}, partial(compiler_for, "x = 1\n"))
