"""Reading moves out of replies: reasoning apart, tags, soft fallback, Arabic spelling variants."""

from __future__ import annotations

import arabic_reshaper
import pytest

from tcgtui.engine.tcg.parse import (LAST_NAME, NONE, SOFT, STRICT, TAGS, CardMatcher, normalize,
                                     parse_answer)
from tcgtui.opponents.llm.reasoning import split_reasoning


@pytest.fixture(scope="module")
def matcher(community):
    return CardMatcher(community)


def test_normalize_folds_case_punctuation_and_arabic_variants():
    assert normalize("  FROST-mage!! ") == "frost mage"
    assert normalize("frost_mage") == "frost mage"
    # alef forms, taa marbuta, alef maqsura, tatweel, diacritics, Arabic-Indic digits
    assert normalize("أإآٱ") == normalize("اااا")
    assert normalize("ضربة") == normalize("ضربه")
    assert normalize("مستوى") == normalize("مستوي")
    assert normalize("ضـــربة") == normalize("ضربة")
    assert normalize("ضَرْبَةٌ مُبَاشِرَةٌ") == normalize("ضربة مباشرة")
    assert normalize("٣ و ۴") == "3 و 4"
    # presentation forms (already shaped text) read as the letters they show
    # text already shaped for a terminal (presentation forms, lam-alef ligatures) reads the same
    assert normalize(arabic_reshaper.reshape("الصمود الأخير")) == normalize("الصمود الأخير")


def test_split_reasoning_keeps_thoughts_apart():
    answer, thoughts = split_reasoning("<think>maybe <BEGIN_MOVE>Stone Golem<END_MOVE></think>"
                                       "I play <BEGIN_MOVE>Frost Mage<END_MOVE>")
    assert answer == "I play <BEGIN_MOVE>Frost Mage<END_MOVE>"
    assert "Stone Golem" in thoughts
    # a closing tag with no opening one: everything before it was thought
    answer, thoughts = split_reasoning("weighing Draw Power</think><BEGIN_MOVE>Swift Scout<END_MOVE>")
    assert answer == "<BEGIN_MOVE>Swift Scout<END_MOVE>" and thoughts == "weighing Draw Power"
    # cut while thinking: nothing is an answer
    answer, thoughts = split_reasoning("<THINK>I will play <BEGIN_MOVE>Frost Mage<END_MOVE>")
    assert answer == "" and "Frost Mage" in thoughts
    # several blocks
    answer, thoughts = split_reasoning("<think>a</think>x<thinking>b</thinking>y")
    assert answer == "xy" and thoughts == "a\nb"


def test_tags_win_and_the_last_tagged_move_counts(matcher):
    text = "Format: <BEGIN_MOVE>Stone Golem<END_MOVE>. My move: <begin_move> frost mage </END_MOVE>"
    p = parse_answer(text, matcher, STRICT)
    assert (p.card, p.path, p.error) == ("frost_mage", TAGS, None)


def test_tag_content_may_carry_extra_words(matcher):
    p = parse_answer("<BEGIN_MOVE>**Play Frost Mage (Champion)**<END_MOVE>", matcher, STRICT)
    assert (p.card, p.path) == ("frost_mage", TAGS)
    p = parse_answer("<BEGIN_MOVE>Frost Mage or Stone Golem<END_MOVE>", matcher, STRICT)
    assert (p.card, p.error) == (None, "ambiguous")
    p = parse_answer("<BEGIN_MOVE>Fireball<END_MOVE>", matcher, SOFT)
    assert (p.card, p.error, p.text) == (None, "unknown", "Fireball")


def test_longest_name_wins_over_a_shorter_one_inside_it(starter, community):
    m = CardMatcher(community)
    assert parse_answer("<BEGIN_MOVE>Direct Strike<END_MOVE>", m, STRICT).card == "direct_strike"
    assert [c for _, c in m.mentions("revenge strike then direct strike")] == [
        "revenge_strike", "direct_strike"]


def test_strict_needs_tags_soft_takes_the_last_name(matcher):
    text = "Stone Golem is safe, but I'll go with Swift Scout."
    strict = parse_answer(text, matcher, STRICT)
    assert (strict.card, strict.path, strict.error) == (None, NONE, "no_tags")
    soft = parse_answer(text, matcher, SOFT)
    assert (soft.card, soft.path, soft.error) == ("swift_scout", LAST_NAME, None)
    assert parse_answer("I pass.", matcher, SOFT).error == "no_name"
    assert parse_answer("   ", matcher, SOFT).error == "empty"


def test_arabic_names_match_with_spelling_variants_and_prefixes(matcher):
    # the shipped name is "ضربة مباشرة"; a model may drop the taa marbuta dots or add harakat
    for reply in ("<BEGIN_MOVE>ضربه مباشره<END_MOVE>", "<BEGIN_MOVE>ضَرْبَةٌ مُبَاشِرَةٌ<END_MOVE>",
                  "<BEGIN_MOVE>ضـربة مبـاشرة<END_MOVE>", "<BEGIN_MOVE>«ضربة مباشرة»<END_MOVE>"):
        assert parse_answer(reply, matcher, STRICT).card == "direct_strike", reply
    # hamza forms of alef: "استدعاء طارئ" written "إستدعاء طارئ"
    assert parse_answer("<BEGIN_MOVE>إستدعاء طارئ<END_MOVE>", matcher, STRICT).card == "emergency_summon"
    # a one-letter prefix stuck to the name in running text
    soft = parse_answer("سأبدأ بالعملاق الحجري", matcher, SOFT)
    assert (soft.card, soft.path) == ("stone_golem", LAST_NAME)


def test_a_card_may_be_named_in_either_language_or_by_id(matcher):
    assert parse_answer("<BEGIN_MOVE>ساحر الصقيع<END_MOVE>", matcher, STRICT).card == "frost_mage"
    assert parse_answer("<BEGIN_MOVE>Frost Mage<END_MOVE>", matcher, STRICT).card == "frost_mage"
    assert parse_answer("<BEGIN_MOVE>frost_mage<END_MOVE>", matcher, STRICT).card == "frost_mage"


def test_a_megabyte_answer_parses(matcher):
    text = "I think. " * 120_000 + "<BEGIN_MOVE>Shield Boost<END_MOVE>"
    assert parse_answer(text, matcher, STRICT).card == "shield_boost"
    assert parse_answer(text.replace("<BEGIN_MOVE>", "").replace("<END_MOVE>", ""), matcher, SOFT).card \
        == "shield_boost"
