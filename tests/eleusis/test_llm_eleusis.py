"""A model plays Eleusis through the real local test server, in both guess formats and both languages."""

from __future__ import annotations

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.eleusis.moves import parse_play
from tcgtui.errors import OptionError
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.llm.testserver import ChatServer, game_policy
from tests.eleusis.helpers import state
from tests.llm_support import llm_agent, play_llm, run

RED_CODE = "return card.color == 'red'"
RED_WORDS = {"en": "Only red cards.", "ar": "الأوراق الحمراء فقط."}


def play(server, guess_format, lang="en", rule=7, seed=3, **options):
    game = registry.get("eleusis").game({"rule": rule, "guess_format": guess_format})

    return play_llm(server, game, seed, lang=lang, **options)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_code_format_a_right_guess_ends_the_round(lang):
    with ChatServer(policy=game_policy("eleusis", 1, rule=RED_CODE, guess_from=3, confidence=8)) as server:
        match, decisions = play(server, "code", lang)
    s = match.state
    assert s.outcome.reason == "solved" and s.score == 31 - 3
    prompt = server.requests[0].json["messages"][-1]["content"]
    assert locales.load(lang).t("eleusis.prompts.hand") in prompt and "<ACTION>" in prompt
    assert "Turn 1 / 30" in prompt or "الدور 1 من 30" in prompt
    plays = [parse_play(d.move) for _, d in decisions]
    assert plays[0].code == RED_CODE and plays[0].confidence == 8
    kinds = [e.kind for e in match.events]
    assert kinds.count("silent") == 2 and kinds.count("guess") == 1        # confident turns judged silently
    assert all(d.info["invalid"] == 0 for _, d in decisions)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_text_format_translated_by_the_judge_and_cached(lang):
    words = RED_WORDS[lang]
    policy = game_policy("eleusis", 2, rule=words, guess_from=4, confidence=6, translations={words: RED_CODE})
    with ChatServer(policy=policy) as server:
        match, decisions = play(server, "text", lang, judge="llm:translator")
    assert match.state.outcome.reason == "solved" and match.state.score == 31 - 4
    judged = [d.info["follow_up"] for _, d in decisions]
    assert all(j["model"] == "translator" for j in judged) and "<CODE>" in judged[0]["reply"]
    assert [j["cached"] for j in judged][1:] == [True] * (len(judged) - 1)
    to_judge = [r.json for r in server.requests if r.json.get("model") == "translator"]
    assert to_judge and to_judge[0]["temperature"] == 0
    assert all(parse_play(d.move).code == RED_CODE for _, d in decisions)


def test_a_wrong_translation_is_a_wrong_guess():
    policy = game_policy("eleusis", 4, rule="Only hearts.", guess_from=1, confidence=9,
                            translations={"Only hearts.": "return card.suit == 'H'"})
    with ChatServer(policy=policy) as server:
        match, decisions = play(server, "text", judge="llm:translator-2")
    s = match.state
    assert s.failed[0] == "Only hearts." and s.outcome.reason == "bankrupt"


def test_free_text_without_a_translator_refuses_to_start():
    game = registry.get("eleusis").game({"guess_format": "text"})
    with ChatServer(policy=game_policy("eleusis")) as server:
        agent = llm_agent(server)
        with pytest.raises(OptionError, match="--judge llm:MODEL"):
            agent.start(SeatContext(0, 0, "en", game))
        run(agent.aclose())


def test_a_malformed_action_is_re_prompted_then_a_random_card():
    replies = ["no block here", "<ACTION>{not json}</ACTION>", '<ACTION>{"card": "ZZ", "tentative_rule": "x"}</ACTION>']
    with ChatServer(script=replies * 2, policy=game_policy("eleusis", 5, rule=RED_CODE)) as server:
        match, decisions = play(server, "code", invalid_retries=2)
    first = decisions[0][1]
    assert first.info["invalid"] == 3 and first.info["fallback"] == "random"
    assert [a["error"] for a in first.info["attempts"]] == ["no_action", "json", "card"]
    assert parse_play(first.move).card.text() in match.record().moves[0]
    assert not match.state.is_terminal() or match.state.outcome is not None


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_prompt_holds_the_last_three_turns_and_every_failed_guess(lang):
    cat = locales.load(lang)
    game = registry.get("eleusis").game({"rule": 7, "guess_format": "code"})
    p = registry.get("eleusis").prompter(game, cat, 0, None)
    s = state(7, hand="2C 3C 4C 5C 6C 7H", mainline="9H")
    for card in ("2C", "3C", "4C", "5C"):
        obs = s.observation(0)
        p.parse(f'<ACTION>{{"reasoning_summary": "why {card}", "card": "{card}", "tentative_rule": "x", '
                f'"confidence_level": 1, "guess_rule": false}}</ACTION>', obs)
        s.apply(card)
    s.failed.append("hearts only")
    text = p.turn(s.observation(0), [])["content"]
    assert "why 2C" not in text and all(f"why {c}" in text for c in ("3C", "4C", "5C"))
    assert "hearts only" in text and "9\u2665 [2\u2663] [3\u2663] [4\u2663] [5\u2663]" in text


def test_the_last_action_block_is_read_and_symbols_or_letters_name_the_card():
    game = registry.get("eleusis").game({"rule": 7, "guess_format": "text"})
    p = registry.get("eleusis").prompter(game, locales.load("en"), 0, None)
    obs = state(7, hand="2C 10H").observation(0)
    old = '{"card": "2C", "tentative_rule": "a", "confidence_level": 1, "guess_rule": false}'
    new = '{"card": "10\u2665", "tentative_rule": "red", "confidence_level": "7", "guess_rule": true}'
    parsed = p.parse(f"draft <ACTION>{old}</ACTION> final <ACTION>{new}</ACTION>", obs)
    play = parse_play(parsed.move)
    assert parsed.error is None and play.card.text() == "10H" and play.guess and play.confidence == 7
    assert play.code is None and p.follow_up(parsed.move) is not None
    done = parse_play(p.complete(parsed.move, "sure:\n```python\nreturn card.color == 'red'\n```"))
    assert done.code == "return card.color == 'red'" and p.follow_up(done.text()) is None
    for bad, kind in (('{"card": "2C", "tentative_rule": "a", "confidence_level": 11}', "confidence"),
                      ('{"card": "2C", "tentative_rule": "a", "guess_rule": "yes"}', "guess"),
                      ('{"card": "KS", "tentative_rule": "a"}', "card"), ('["2C"]', "json")):
        assert p.parse(f"<ACTION>{bad}</ACTION>", obs).error == kind


