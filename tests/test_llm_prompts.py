"""What the model reads: snapshots in both languages, rules and card text, narration, history budget.

Snapshots live in tests/snapshots/prompts/; after a deliberate wording change
rewrite them with ``TCGTUI_UPDATE_SNAPSHOTS=1 pytest tests/test_llm_prompts.py``
and review the diff (the prompt version changes with them).
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import string
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.engine.core import Match
from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.tcg.cards import Rules
from tcgtui.engine.tcg.describe import card_text
from tcgtui.engine.tcg.narrator import Narrator
from tcgtui.engine.tcg.prompter import cards_text, rules_text
from tcgtui.opponents.llm.prompts import TurnLog, estimate_tokens, fit_history, message_tokens
from tests.llm_support import PromptBuilder, prompt_version

SNAPSHOTS = Path(__file__).parent / "snapshots" / "prompts"
UPDATE = os.environ.get("TCGTUI_UPDATE_SNAPSHOTS") == "1"
MY_FILES = ("prompts", "events", "llm_options")


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
        return
    assert path.is_file(), f"no snapshot {path}; run with TCGTUI_UPDATE_SNAPSHOTS=1 and review it"
    assert text + "\n" == path.read_text(encoding="utf-8"), f"{name} differs from {path}"


def mid_game(pack, seed=2, min_turn=9):
    """Random play until seat 0 is to move at ``min_turn`` or later, with its news since last move."""
    match = Match(TcgGame(pack), seed)
    rng = random.Random(seed)
    seen = 0
    while True:
        seat = match.state.current_player
        if seat == 0:
            if match.state.turn >= min_turn and match.state.boards[0] and match.state.boards[1]:
                return match, match.state.observation(0), match.events_for(0, seen)
            seen = len(match.events)
        match.play(rng.choice(match.state.legal_moves()))
        assert not match.state.is_terminal(), "pick another seed: this game ended early"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_prompt_snapshots(community, lang):
    match, obs, events = mid_game(community)
    b = PromptBuilder(community, lang, 0)
    check_snapshot(f"{lang}_system", b.system()["content"])
    check_snapshot(f"{lang}_turn", b.turn(obs, events)["content"])
    absent = next(c.id for c in community.cards if c.id not in obs.hand)
    why = b.reason("not_in_hand", card=absent)
    check_snapshot(f"{lang}_invalid", b.invalid(why, obs, 1)["content"])
    check_snapshot(f"{lang}_fallback_turn", b.turn(obs, events[:3], fallback_card=obs.hand[0])["content"])


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_turn_message_carries_the_whole_visible_state(community, lang):
    match, obs, events = mid_game(community)
    text = PromptBuilder(community, lang, 0).turn(obs, events)["content"]
    name = lambda cid: community.card(cid).name(lang)  # noqa: E731
    for cid in obs.hand + obs.my_tricks + obs.graves[0] + obs.graves[1]:
        assert name(cid) in text
    for view in obs.boards[0] + obs.boards[1]:
        assert name(view.card) in text
    for n in (obs.lp[0], obs.lp[1], obs.opp_hand_size, obs.opp_trick_count, *obs.deck_sizes, obs.turn):
        assert str(n) in text
    news = Narrator(locales.load(lang), community, viewer=0).all(events)
    assert all(line in text for line in news)


def test_the_first_message_has_every_card_and_the_rules(community, starter):
    for pack in (community, starter):
        for lang in ("en", "ar"):
            t = locales.load(lang)
            system = PromptBuilder(pack, lang, 1).system()["content"]
            assert rules_text(t, pack) in system
            for card in pack.cards:
                assert card.name(lang) in system and card_text(card, t) in system
            assert cards_text(t, pack) in system


def test_rules_text_is_formatted_with_the_pack_numbers(community):
    t = locales.load("en")
    odd = dataclasses.replace(community, rules=Rules(starting_lp=37, opening_hand=6, turn_limit=123))
    text, other = rules_text(t, community), rules_text(t, odd)
    used = {f for _, v in t.items("rules") for _, f, _, _ in string.Formatter().parse(str(v)) if f}
    for field, value in (("starting_lp", "37"), ("opening_hand", "6"), ("turn_limit", "123")):
        if field in used:
            assert value in other and value not in text
    assert "{" not in text


def test_no_rules_text_is_a_locale_error(community):
    t = locales.load("en")
    bare = locales.Catalog("xx", "X", False, {}, {k: v for k, v in t.entries.items()
                                                  if not k.startswith("rules.")})
    with pytest.raises(locales.LocaleError, match="no rules text"):
        rules_text(bare, community)


def test_prompt_version_follows_the_templates():
    en, ar = prompt_version("en"), prompt_version("ar")
    assert re.fullmatch(r"v\d+-en-[0-9a-f]{10}", en) and en != ar.replace("-ar-", "-en-")
    cat = locales.load("en")
    old = cat.entries["prompts.turn.ask"]
    try:
        cat.entries["prompts.turn.ask"] = old + " Hurry."
        prompt_version.cache_clear()
        assert prompt_version("en") != en
    finally:
        cat.entries["prompts.turn.ask"] = old
        prompt_version.cache_clear()
    assert prompt_version("en") == en


def test_fit_history_drops_the_oldest_turns_first():
    system = {"role": "system", "content": "s" * 400}
    turns = [TurnLog([{"role": "user", "content": f"turn {i} " + "x" * 392},
                      {"role": "assistant", "content": "ok"}], 0) for i in range(10)]
    for t in turns:
        t.tokens = sum(message_tokens(m) for m in t.messages)
    current = [{"role": "user", "content": "now"}]
    assert fit_history(system, turns, current, 10 ** 6) == [system] + [m for t in turns for m in t.messages] + current
    budget = message_tokens(system) + message_tokens(current[0]) + 3 * turns[0].tokens
    kept = fit_history(system, turns, current, budget)
    assert kept[0] == system and kept[-1] == current[0]
    assert [m["content"].split()[1] for m in kept if m["content"].startswith("turn")] == ["7", "8", "9"]
    assert fit_history(system, turns, current, 1) == [system] + current


def test_arabic_costs_more_tokens_per_character_than_english():
    assert estimate_tokens("a" * 400) == 100
    assert estimate_tokens("ب" * 400) == 200
    assert estimate_tokens("") == 0


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_narration_covers_every_event_for_every_reader(community, starter, lang):
    t = locales.load(lang)
    kinds = set()
    for pack in (community, starter):
        for seed in range(40):
            match = Match(TcgGame(pack), seed)
            rng = random.Random(seed)
            while not match.state.is_terminal():
                match.play(rng.choice(match.state.legal_moves()))
            for viewer in (0, 1, None):
                narrate = Narrator(t, pack, viewer)
                events = match.events if viewer is None else match.events_for(viewer)
                for e in events:
                    line = narrate(e)
                    kinds.add(e.kind)
                    assert line and "{" not in line and not line.lower().startswith(e.kind + " ("), (e, line)
                    hidden = viewer is not None and e.player != viewer and e.kind in ("draw", "set_trick")
                    if hidden:   # the opponent's draws and tricks never name a card
                        assert not any(c.name(lang) in line for c in pack.cards), line
    assert kinds >= {"turn", "draw", "summon", "cast", "set_trick", "attack", "block", "damage", "heal",
                     "trick", "ability", "destroy", "end_turn", "game_over"}


def test_narration_of_an_unknown_event_does_not_fail(community):
    from tcgtui.engine.core import Event
    line = Narrator(locales.load("en"), community, 0)(Event("teleport", 1, {"card": "frost_mage"}))
    assert line == "Teleport (your opponent)."


def test_my_locale_files_match_across_languages():
    en, ar = locales.load("en"), locales.load("ar")
    for prefix in MY_FILES:
        keys_en = {k for k in en.entries if k.startswith(prefix + ".")}
        keys_ar = {k for k in ar.entries if k.startswith(prefix + ".")}
        assert keys_en and keys_en == keys_ar, prefix
        for key in keys_en:
            assert en.placeholders(key) == ar.placeholders(key), key
            texts = [ar.entries[key]] if isinstance(ar.entries[key], str) else list(ar.entries[key].values())
            for text in texts:
                assert not re.search("[\u064b-\u0652\u0670]", text), f"{key}: diacritics"
                assert not re.search("[\u0660-\u0669\u06f0-\u06f9]", text), f"{key}: Arabic-Indic digits"
