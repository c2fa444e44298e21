"""A move of Eleusis: the card played, with the turn's tentative rule, confidence and guess.

A plain card (``5H``) is the whole move of a player that says nothing more
(``random``); otherwise the move is a compact JSON object with ``card``,
``guess`` (bool), ``rule`` (the tentative rule as written), ``code`` (the rule
in the rule language: the text itself in the ``code`` guess format, the
translator's output in the ``text`` format) and ``confidence`` (0-10).
The text form is canonical, so records replay exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from tcgtui.engine.core import IllegalMove
from tcgtui.engine.eleusis.cards import Card, CardError, parse_card

MAX_TEXT = 4_000


@dataclass(frozen=True)
class Play:
    card: Card
    guess: bool = False
    rule: str = ""
    code: str | None = None
    confidence: int | None = None

    def text(self) -> str:
        if not (self.guess or self.rule or self.code is not None or self.confidence is not None):
            return self.card.text()
        obj: dict = {"card": self.card.text()}
        if self.guess:
            obj["guess"] = True
        if self.rule:
            obj["rule"] = self.rule
        if self.code is not None:
            obj["code"] = self.code
        if self.confidence is not None:
            obj["confidence"] = self.confidence
        return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Walk:
    """The referee's verdict on a guess walked in the sandbox (``--translator``): whether the guess
    agreed with the secret rule, and the check's account (outcome, where it differed, seconds)."""

    equivalent: bool
    account: dict

    def text(self) -> str:
        return json.dumps(
            {"walk": {**self.account, "equivalent": self.equivalent}},
            ensure_ascii=False,
            sort_keys=True,
            separators=(",", ":"),
        )


def parse_walk(text: str) -> Walk | None:
    """The referee's move ``{"walk": {...}}``, or None if ``text`` is not one."""
    try:
        obj = json.loads(str(text))
    except json.JSONDecodeError:
        return None
    if not isinstance(obj, dict) or set(obj) != {"walk"} or not isinstance(obj["walk"], dict):
        return None
    equivalent = obj["walk"].get("equivalent")
    return Walk(equivalent, dict(obj["walk"])) if isinstance(equivalent, bool) else None


def parse_play(text: str) -> Play:
    """The move ``text`` (a card, or the JSON object); IllegalMove naming what is wrong."""
    raw = str(text).strip()
    if not raw.startswith("{"):
        try:
            return Play(parse_card(raw))
        except CardError:
            raise IllegalMove(f"{raw!r} is not a card") from None
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError:
        raise IllegalMove("a move object that is not JSON") from None
    if not isinstance(obj, dict) or set(obj) - {"card", "guess", "rule", "code", "confidence"}:
        raise IllegalMove("a move object with unknown fields")
    try:
        card = parse_card(str(obj.get("card", "")))
    except CardError:
        raise IllegalMove(f"{obj.get('card')!r} is not a card") from None
    guess, rule, code, conf = obj.get("guess", False), obj.get("rule", ""), obj.get("code"), obj.get("confidence")
    if not isinstance(guess, bool) or not isinstance(rule, str) or not (code is None or isinstance(code, str)):
        raise IllegalMove("guess must be true or false, rule and code text")
    if conf is not None and (isinstance(conf, bool) or not isinstance(conf, int) or not 0 <= conf <= 10):
        raise IllegalMove("confidence must be a whole number from 0 to 10")
    if len(rule) > MAX_TEXT or len(code or "") > MAX_TEXT:
        raise IllegalMove("a rule longer than the limit")
    return Play(card, guess, rule, code, conf)
