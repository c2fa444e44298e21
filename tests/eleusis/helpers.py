"""Rounds of Eleusis set up by hand for rule tests."""

from __future__ import annotations

import json

from tcgtui.engine.eleusis.cards import parse_cards
from tcgtui.engine.eleusis.game import EleusisGame
from tcgtui.engine.eleusis.state import EleusisState


def game(rule: int = 7, guess_format: str = "code", rule_code: str = "") -> EleusisGame:
    return EleusisGame(rule, guess_format, rule_code)


def state(rule: int = 7, seed: int = 0, hand: str = "", mainline: str = "", deck: str | None = None,
          rule_code: str = "") -> EleusisState:
    """A fresh round; ``hand``/``mainline``/``deck`` replace the dealt ones when given."""
    s = game(rule, rule_code=rule_code).new_state(seed)
    if hand:
        s.hand = parse_cards(hand)
    if mainline:
        s.board = [[c, []] for c in parse_cards(mainline)]
    if deck is not None:
        s.deck = parse_cards(deck)
    return s


def move(card: str, guess: bool = False, code: str | None = None, rule: str = "",
         confidence: int | None = None) -> str:
    obj: dict = {"card": card}
    if guess:
        obj["guess"] = True
    if code is not None:
        obj["code"] = code
    if rule:
        obj["rule"] = rule
    if confidence is not None:
        obj["confidence"] = confidence
    return json.dumps(obj)
