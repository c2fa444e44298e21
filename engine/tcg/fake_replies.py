"""A stand-in model for the card game (opponents/llm/testserver.py): a random card of the hand it reads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def hand_of(prompt: str, catalogs: Sequence[Any]) -> list[str]:
    """Card names on the last hand line of ``prompt`` (``Your hand: ...`` in any language); empty if none."""
    labels = [(c, c.t("prompts.turn.hand", list="").strip()) for c in catalogs]
    for line in reversed(prompt.splitlines()):
        for catalog, label in labels:
            if line.startswith(label):
                sep = catalog.t("prompts.list_sep")
                return [n.strip() for n in line[len(label) :].split(sep) if n.strip()]
    return []


def player(game_id: str, catalogs: Sequence[Any], rng: Any, think: bool = False) -> Any:
    """Plays a random card of its hand, optionally thinking first (a reasoning text)."""

    def reply(prompt: str, image: bool) -> str | tuple[str, str | None]:
        hand = hand_of(prompt, catalogs)
        if not hand:
            return "I cannot see my hand."
        name = rng.choice(hand)
        return f"<BEGIN_MOVE>{name}<END_MOVE>", (f"My hand is {', '.join(hand)}; I pick {name}." if think else None)

    return reply
