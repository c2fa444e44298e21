"""The seed's deals (``--protocol seed``): its deck order from its round seed, as its released code makes them.

The seed shuffles each round's double deck with Python's ``random.Random`` seeded
by ``(base + md5(rule code) low 32 bits + round index) mod 2**32``, where ``base``
is its configuration's game seed (42 in its published runs) and the round index
counts a rule's rounds from 0.  Its deck starts in the same order as tcgtui's
shoe (two decks, hearts, diamonds, clubs, spades, ace to king), so only the
shuffle's seed differs from tcgtui's own deals.  The rule's code is the seed's
own text (read from the user's checkout, ``rules.json``): tcgtui carries none of it.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from tcgtui.engine.eleusis.cards import Card, shoe

BASE = 42  # the seed's configured game seed (config.yaml, game.seed)
RULES_FILE = "rules.json"  # the seed's rule library, in the user's checkout
REPOSITORY = "github.com/scienceetonnante/eleusis-llm-benchmark"
MASK = 0xFFFFFFFF


def rule_hash(code: str) -> int:
    """The low 32 bits of the md5 of the rule's code, as the seed hashes it (no stripping)."""
    return int(hashlib.md5(code.encode()).hexdigest(), 16) & MASK


def round_seed(code: str, round_index: int, base: int = BASE) -> int:
    """The seed's deck seed for round ``round_index`` of the rule whose code is ``code``."""
    return (base + rule_hash(code) + round_index) & MASK


def deck(seed: int) -> list[Card]:
    """The 104 cards in the order the seed deals them for its round seed ``seed``."""
    cards = shoe()
    random.Random(seed).shuffle(cards)
    return cards


@dataclass(frozen=True)
class SeedRules:
    """The seed's rule library as the user's checkout has it: each rule's name and code, in its order."""

    names: tuple[str, ...]
    codes: tuple[str, ...]


def parse_rules(text: str) -> SeedRules:
    """``rules.json``'s rules (a JSON object with a ``rules`` list of objects with ``code``); ValueError else."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg}, line {exc.lineno})") from None
    rules = data.get("rules") if isinstance(data, dict) else None
    if (
        not isinstance(rules, list)
        or not rules
        or not all(isinstance(r, dict) and isinstance(r.get("code"), str) for r in rules)
    ):
        raise ValueError("expected an object with a 'rules' list, each rule with its 'code'")
    return SeedRules(tuple(str(r.get("name") or "") for r in rules), tuple(r["code"] for r in rules))
