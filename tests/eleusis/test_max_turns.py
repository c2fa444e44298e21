"""Eleusis's ``max_turns`` parameter: a shorter round (a test, a demo) under the same rules, scored
and described from its own length, recorded, and refused where it does not fit."""

from __future__ import annotations

import random

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.eleusis.analysis import round_facts
from tcgtui.engine.eleusis.game import EleusisGame
from tcgtui.engine.eleusis.narrator import rules_text
from tcgtui.engine.registry import ParamError
from tests.eleusis.helpers import move

RED = "return card.color == 'red'"


def short(turns: int, **params) -> EleusisGame:
    return registry.get("eleusis").game({"rule": 7, "guess_format": "code", "max_turns": turns, **params})


def test_the_default_is_the_seeds_30_turns():
    assert registry.get("eleusis").info.param("max_turns").default == 30
    assert registry.get("eleusis").game({"rule": 7}).new_state(0).max_turns == 30


@pytest.mark.parametrize("turns", [1, 6, 11])
def test_a_round_lasts_exactly_max_turns_without_a_right_guess(turns):
    s = short(turns).new_state(1)
    rng = random.Random(turns)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_moves()))
    assert s.turns == turns and s.outcome.reason == "turns" and s.outcome.scores == (0.0,)


def test_a_right_guess_scores_from_the_rounds_own_length():
    s = short(6).new_state(0)
    s.apply(s.legal_moves()[0])
    obs = s.observation(0)
    assert obs.max_turns == 6 and obs.potential == 6 + 1 - 2
    s.apply(move(s.legal_moves()[0], guess=True, code=RED))
    assert s.outcome.reason == "solved" and s.outcome.scores == (6 + 1 - 2,)


def test_bankruptcy_comes_from_the_rounds_own_length():
    s = short(6).new_state(2)
    while not s.is_terminal():
        s.apply(move(s.legal_moves()[0], guess=True, code="return False"))
    # after turn n with n wrong guesses a right guess next turn would earn 6 - n - 2n: nothing at n = 2
    assert s.turns == 2 and s.outcome.reason == "bankrupt" and s.outcome.scores == (-4.0,)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_rules_players_read_state_the_rounds_length(lang):
    catalog = locales.load(lang)
    said = dict(rules_text(short(6).public(), catalog))
    assert said["eleusis.rules.turns"] == catalog.t("eleusis.rules.turns", turns=6)
    assert said["eleusis.rules.correct"] == catalog.t("eleusis.rules.correct", top=7, penalty=2)
    assert "30" not in said["eleusis.rules.turns"]


def test_a_record_keeps_the_length_and_rebuilds_the_same_round():
    game = short(4)
    setup = game.deal_setup(3)
    assert setup["max_turns"] == 4 and game.public().setup()["max_turns"] == 4
    names = {p.name for p in registry.get("eleusis").info.params}
    again = registry.get("eleusis").game({k: v for k, v in setup.items() if k in names})
    assert again.new_state(3).max_turns == 4


def test_no_stakes_counts_from_the_rounds_length():
    events = [{"kind": "play", "turn": 1, "card": "x"}, {"kind": "silent", "turn": 1, "correct": True}]
    facts = round_facts({"game": "eleusis", "setup": short(6).deal_setup(0), "events": events, "moves": [],
                         "outcome": {"scores": [0.0], "reason": "turns"}})
    assert facts["no_stakes"] == 6 + 1 - 1


@pytest.mark.parametrize("text", ["0", "105", "many"])
def test_a_length_out_of_bounds_is_refused_naming_what_was_expected(text):
    with pytest.raises(ParamError, match="max_turns.*from 1 to 104"):
        registry.get("eleusis").info.param("max_turns").parse(text)


def test_the_seed_protocol_keeps_its_30_turns():
    with pytest.raises(ValueError, match="seed's rounds of 30 turns"):
        EleusisGame(7, "code", protocol="seed", seed_deal=5, max_turns=6)
    assert EleusisGame(7, "code", protocol="seed", seed_deal=5).max_turns == 30
