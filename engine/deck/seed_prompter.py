"""Deck completion under ``--protocol seed``: ManaBench's prompt layout and answer reading.

ManaBench's code and prompt are unpublished; its write-up gives the layout (a role,
the task with the deck's format, every deck card and every choice with count, name,
type line, cost, power/toughness or loyalty and rules text, choices labelled A to F,
only the letter asked for) and how a reply is read: an ``ANSWER: X`` (the word in any
case), else a reply that is one letter, else a ``\\boxed{X}``.  The wording is tcgtui's
(``deck.prompts.seed`` in the locales); which ``ANSWER:`` counts when a reply has
several is not said there: the first is read.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

from tcgtui.engine.deck.prompter import DeckPrompter
from tcgtui.engine.deck.prompter import extract as deck_extract
from tcgtui.engine.deck.questions import LETTERS, Option
from tcgtui.engine.prompting import Message

if TYPE_CHECKING:
    from tcgtui.engine.deck.game import DeckGame

ANSWER_RE = re.compile(r"(?i:answer):\s*\[?\s*([A-F])\s*\]?")
KEYS = (
    "intro",
    "task",
    "deck_head",
    "card",
    "copies",
    "type",
    "cost",
    "stats",
    "loyalty",
    "text",
    "options_head",
    "option",
    "format",
    "reason.format",
)


def extract(reply: str) -> tuple[str | None, str]:
    """(letter or None, the path that found it), as ManaBench's write-up says it reads a reply."""
    return deck_extract(reply, ANSWER_RE, last=False)


class SeedDeckPrompter(DeckPrompter):
    """tcgtui's deck prompter with ManaBench's layout and reading of a reply."""

    def __init__(self, game: DeckGame, catalog: Any, seat: int) -> None:
        super().__init__(game, catalog, seat)
        used = "\n".join(repr(catalog.raw(f"deck.prompts.seed.{k}")) for k in KEYS)
        self.version = f"deck-seed-{catalog.code}-{hashlib.sha1(used.encode('utf-8')).hexdigest()[:8]}"

    def _t(self, key: str, **params: Any) -> str:
        return self.catalog.t(f"deck.prompts.seed.{key}", **params)

    def extract(self, reply: str) -> tuple[str | None, str]:
        return extract(reply)

    def card(self, c: Option) -> str:
        parts = {
            key: self._t(key, **{key: getattr(c, key)}) if getattr(c, key) else ""
            for key in ("type", "cost", "stats", "loyalty", "text")
        }
        return self._t("card", name=c.name, **parts)

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        q = obs.question
        texts = q.deck_cards or tuple(Option(name, "") for name, _ in q.deck)
        deck = [self._t("copies", count=count) + self.card(c) for (_, count), c in zip(q.deck, texts)]
        options = [self._t("option", letter=letter, card=self.card(o)) for letter, o in zip(LETTERS, q.options)]
        parts = [
            self._t("intro"),
            self._t("task", format=q.format or "-"),
            self._t("deck_head", size=sum(c for _, c in q.deck)),
            "\n".join(deck),
            self._t("options_head"),
            "\n".join(options),
            self._t("format"),
        ]
        return {"role": "user", "content": "\n\n".join(parts)}
