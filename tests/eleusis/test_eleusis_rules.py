"""Every sentence of eleusis.rules checked against the engine, plus the score and the records."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import IllegalMove, Match, replay
from tcgtui.engine.eleusis.cards import parse_card, shoe
from tcgtui.engine.eleusis.library import compiled
from tcgtui.engine.eleusis.state import deck_order
from tests.eleusis.helpers import game, move, state
from tests.scenario import rule

RED = "return card.color == 'red'"


@rule("eleusis.rules.deck")
def test_two_decks_of_52_with_ranks_and_colours():
    s = state(7, seed=3)
    everything = Counter(s.hand + s.deck + s.mainline())
    set_aside = s.start_events[0].data["set_aside"]
    assert sum(everything.values()) == 104 - set_aside
    assert Counter(shoe()) == Counter({c: 2 for c in shoe()})
    assert (parse_card("AH").rank, parse_card("JS").rank, parse_card("QS").rank, parse_card("KD").rank) == (1, 11, 12, 13)
    assert [parse_card(f"2{s}").color for s in "HDCS"] == ["red", "red", "black", "black"]


@rule("eleusis.rules.secret")
def test_the_secret_rule_decides_from_the_mainline_and_is_not_observed():
    s = state(16, hand="5H 5C 9D", mainline="2S")
    s.apply("5C")                         # black after black: rejected
    s.apply("5H")                         # red after black: accepted
    assert s.plays == [(parse_card("5C"), False), (parse_card("5H"), True)]
    obs = s.observation(0)
    assert "16" not in repr(obs) and "color" not in repr(obs)


@rule("eleusis.rules.starter")
def test_the_starter_is_the_first_deck_card_the_rule_accepts():
    for number, seed in ((5, 1), (15, 2), (22, 4), (7, 0)):
        s = state(number, seed=seed)
        deck = deck_order(seed)[12:]
        truth = compiled(number)
        first = next(i for i, c in enumerate(deck) if truth.accepts(c, []))
        assert s.mainline() == [deck[first]] and s.board[0][1] == []
        assert s.start_events[0].data == {"starter": deck[first].text(), "set_aside": first}
        assert s.deck == deck[first + 1:]


@rule("eleusis.rules.hand")
def test_a_hand_of_12_refilled_after_each_play_while_the_deck_lasts():
    s = state(7, seed=5)
    assert len(s.hand) == 12
    drawn = s.deck[0]
    s.apply(s.legal_moves()[0])
    assert len(s.hand) == 12 and drawn in s.hand
    s = state(7, hand="2H 3H", deck="")
    s.apply("2H")
    assert s.hand == [parse_card("3H")]


@rule("eleusis.rules.play")
def test_accepted_cards_extend_the_mainline_and_rejected_ones_go_under_the_last_card():
    s = state(7, hand="2H 3C 4D 5S", mainline="9H")
    ev = s.apply("3C")
    assert ev[0].kind == "play" and ev[0].data["accepted"] is False
    s.apply("4D")
    s.apply("5S")
    assert s.board == [[parse_card("9H"), [parse_card("3C")]], [parse_card("4D"), [parse_card("5S")]]]
    assert s.observation(0).board == (("9H", ("3C",)), ("4D", ("5S",)))
    with pytest.raises(IllegalMove):
        s.apply("KD")                     # not in the hand
    assert s.validate("KD") == "not_in_hand" and s.validate("zz") == "format"


@rule("eleusis.rules.turns")
def test_a_round_lasts_at_most_30_turns():
    s = state(5, seed=1)
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_moves()))
    assert s.turns == 30 and s.outcome.reason == "turns" and s.outcome.scores == (0.0,)


@rule("eleusis.rules.tentative")
def test_the_tentative_rule_and_confidence_are_recorded_each_turn():
    s = state(7, hand="2H 3C")
    ev = s.apply(move("2H", rule="red cards", confidence=3))
    assert ev[0].data["rule"] == "red cards" and ev[0].data["confidence"] == 3
    assert [e.kind for e in ev] == ["play"]           # below 5: nothing judged
    with pytest.raises(IllegalMove, match="confidence"):
        game().move_from_text(move("3C", rule="x", confidence=11))
    assert s.validate(move("3C", confidence=-1)) == "format"


@rule("eleusis.rules.guess")
def test_a_guess_is_judged_on_the_mainline_before_the_turns_card():
    # the secret rule: same colour as the previous card.  On "5H" "red only" behaves the same from there;
    # the card played with the guess (a black one, rejected) cannot change that verdict.
    same = "return not mainline or card.color == mainline[-1].color"
    s = state(rule_code=same, hand="2C 3H", mainline="5H")
    ev = s.apply(move("2C", guess=True, code=RED, rule="red only"))
    assert [e.kind for e in ev] == ["play", "guess", "game_over"] and ev[1].data["correct"] is True
    assert ev[0].data["accepted"] is False


@rule("eleusis.rules.judge")
def test_the_guess_must_agree_on_every_card_from_the_mainline_on():
    s = state(7, hand="2C 3H 4H", mainline="5H")
    ev = s.apply(move("2C", guess=True, code="return card.suit == 'H'"))
    assert ev[1].data["correct"] is False
    ce = ev[1].data["counterexample"]
    assert ce["mainline"] == ["5H"] and parse_card(ce["card"]).suit == "D" and ce["secret_rule_accepts"] is True
    ev = s.apply(move("3H", guess=True, code="return card.rank > 100"))
    assert ev[1].data["correct"] is False
    ev = s.apply(move("4H", guess=True, code="import os"))           # not a rule: a wrong guess
    assert ev[1].data["correct"] is False and ev[1].data["error"] == "not_allowed"


@rule("eleusis.rules.correct")
def test_a_right_guess_on_turn_n_scores_31_minus_n_minus_2_per_wrong_guess():
    s = state(7, hand="2C 3C 4C 5C")
    s.apply("2C")
    s.apply(move("3C", guess=True, code="return card.suit == 'H'"))
    ev = s.apply(move("4C", guess=True, code=RED))
    assert ev[-1].kind == "game_over" and ev[-1].data["reason"] == "solved"
    assert s.outcome.scores == (31 - 3 - 2,) and s.returns() == [26.0] and s.legal_moves() == []


@rule("eleusis.rules.wrong")
def test_a_wrong_guess_costs_2_and_the_round_goes_on():
    s = state(7, hand="2C 3C")
    ev = s.apply(move("2C", guess=True, code="return False", rule="nothing"))
    assert ev[1].kind == "guess" and ev[1].data["correct"] is False
    assert not s.is_terminal() and s.failed == ["nothing"]
    assert s.observation(0).failed_guesses == ("nothing",) and s.observation(0).potential == 31 - 2 - 2


@rule("eleusis.rules.unsolved")
def test_a_round_without_a_right_guess_scores_minus_2_per_wrong_guess():
    s = state(7, seed=2)
    s.apply(move(s.legal_moves()[0], guess=True, code="return False"))
    rng = random.Random(0)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_moves()))
    # one wrong guess: after turn 28 a right guess could earn 31 - 29 - 2 = 0, so the round stops there
    assert s.turns == 28 and s.outcome.reason == "bankrupt" and s.outcome.scores == (-2.0,)


@rule("eleusis.rules.bankrupt")
def test_the_round_ends_when_a_right_guess_could_earn_nothing_more():
    s = state(7, seed=2)
    for turn in range(1, 31):
        s.apply(move(s.legal_moves()[0], guess=True, code="return False"))
        if s.is_terminal():
            break
    # after turn n with k = n wrong guesses, a right guess next turn would earn 30 - n - 2n
    assert s.turns == 10 and s.outcome.reason == "bankrupt" and s.outcome.scores == (-20.0,)


@rule("eleusis.rules.silent")
def test_confident_tentative_rules_are_judged_silently_without_penalty():
    s = state(7, hand="2C 3C 4C")
    ev = s.apply(move("2C", code=RED, rule="red", confidence=5))
    assert [e.kind for e in ev] == ["play", "silent"] and ev[1].data["correct"] is True
    ev = s.apply(move("3C", code="return True", rule="all", confidence=9))
    assert ev[1].data["correct"] is False and s.failed == [] and not s.is_terminal()
    ev = s.apply(move("4C", code=RED, rule="red", confidence=4))
    assert [e.kind for e in ev] == ["play"]
    s = state(7, hand="2C 3C")
    ev = s.apply(move("2C", rule="red cards, in words, not translated", confidence=9))
    assert [e.kind for e in ev] == ["play"]            # nothing to judge without code


@rule("eleusis.rules.no_cards")
def test_the_round_ends_when_the_hand_is_empty():
    s = state(7, hand="2C 3C", deck="")
    s.apply("2C")
    ev = s.apply("3C")
    assert ev[-1].data["reason"] == "no_cards" and s.outcome.scores == (0.0,)


def test_deals_depend_on_the_seed_alone_and_rounds_replay():
    a, b = game(7).new_state(9), game(16).new_state(9)
    assert a.hand == b.hand == deck_order(9)[:12]
    g = game(16)
    match = Match(g, 4)
    rng = random.Random(4)
    match.play(move(match.state.legal_moves()[0], rule="alternate", code="return True", confidence=6))
    while not match.state.is_terminal():
        match.play(rng.choice(match.state.legal_moves()))
    again = replay(g, match.record())
    assert again.state.to_json() == match.state.to_json()
    assert again.record().to_json() == match.record().to_json()


def test_registered_with_one_seat_a_score_and_its_parameters():
    spec = registry.get("eleusis")
    assert spec.info.seats == 1 and spec.info.outcome == "score"
    assert spec.info.resolve({"rule": 25})["rule"] == 25
    with pytest.raises(registry.ParamError):
        spec.info.resolve({"rule": 26})
    with pytest.raises(ValueError, match="rule_code"):
        spec.make(spec.info.resolve({"rule_code": "import os"}))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_rules_text_and_narration_read_in_both_languages(lang):
    cat = locales.load(lang)
    g = game(7)
    sentences = registry.get("eleusis").rules_text(g, cat)
    assert len(sentences) == 15 and all("{" not in s for _, s in sentences)
    narrator = registry.get("eleusis").narrator(g, cat)
    s = state(7, hand="2C 3H")
    lines = narrator.all(s.start_events + s.apply("2C") + s.apply(move("3H", guess=True, code=RED)))
    assert len(lines) == 5 and all("{" not in x for x in lines)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_log_shows_cards_as_the_board_does(lang):
    narrator = registry.get("eleusis").narrator(game(7), locales.load(lang))
    s = state(7, hand="10D 3H")
    lines = narrator.all(s.start_events + s.apply("10D"))
    assert "10♦" in lines[-1] and "10D" not in lines[-1]
    starter = s.start_events[0].data["starter"]
    assert starter is not None and parse_card(starter).symbol() in lines[0] and starter not in lines[0]
