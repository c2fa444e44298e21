"""A stand-in Eleusis scientist (opponents/llm/testserver.py), and a stand-in translator for ``--judge``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def hand_of(prompt: str, catalogs: Sequence[Any]) -> list[str]:
    """The cards of the hand line (``Your hand: 2♥ 5♠ ...``, in any language) of ``prompt``."""
    labels = [c.t("eleusis.prompts.hand") for c in catalogs]
    for line in reversed(prompt.splitlines()):
        for label in labels:
            if line.startswith(label):
                return line[len(label) :].split()
    return []


def player(
    game_id: str,
    catalogs: Sequence[Any],
    rng: Any,
    rule: str = "return True",
    guess_from: int = 0,
    confidence: int = 3,
    translations: dict[str, str] | None = None,
) -> Any:
    """A random card of its hand, the tentative ``rule`` every turn, a formal guess from its
    ``guess_from``-th reply on (0: never).  As a translator it answers from ``translations``
    (rule text -> code), ``return False`` for text it does not know."""
    intros = [c.t("eleusis.prompts.translate.intro") for c in catalogs]
    rule_lines = [c.t("eleusis.prompts.translate.rule", rule="") for c in catalogs]
    turns = [0]

    def reply(prompt: str, image: bool) -> str:
        if any(prompt.startswith(intro) for intro in intros):
            asked = next(
                (line[len(lead) :] for line in prompt.splitlines() for lead in rule_lines if line.startswith(lead)), ""
            )
            return f"<CODE>{(translations or {}).get(asked.strip(), 'return False')}</CODE>"
        hand = hand_of(prompt, catalogs)
        if not hand:
            return "I cannot see my hand."
        turns[0] += 1
        action = {
            "reasoning_summary": f"turn {turns[0]}",
            "card": rng.choice(hand),
            "tentative_rule": rule,
            "confidence_level": confidence,
            "guess_rule": bool(guess_from) and turns[0] >= guess_from,
        }
        return f"Thinking done.\n<ACTION>{json.dumps(action, ensure_ascii=False)}</ACTION>"

    return reply
