"""What the quiz's screen shows of a question: its cards in the reader's language where the
pack has them, and the deck grouped by card type with counts.

A question made by ``tcgtui deck make`` names its cards by id (``sim``), so a person reading
Arabic sees the pack's Arabic names and texts even in a set written in English; a question
from elsewhere (ManaBench's shape) is shown as written, its deck in one group.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tcgtui.engine.deck.questions import Option, Question
from tcgtui.engine.tcg.cards import CHAMPION, SPELL, TRICK

TYPE_ORDER = (CHAMPION, SPELL, TRICK)
NO_TYPE = ""  # the group of a deck whose card types are not known


@dataclass(frozen=True)
class Group:
    type: str  # a card type of the pack, or NO_TYPE
    cards: tuple[tuple[str, int], ...]
    texts: tuple[str, ...] = ()  # each card's stats and rules text, where the pack is known

    @property
    def count(self) -> int:
        return sum(c for _, c in self.cards)


def _pack_cards(question: Question, pack: Any) -> tuple[list[Any], list[Any]] | None:
    """The pack's cards of the deck and of the options, or None when the question does not name them."""
    sim = question.sim or {}
    if pack is None or not isinstance(sim.get("deck"), dict) or not isinstance(sim.get("options"), list):
        return None
    by_id = {c.id: c for c in pack.cards}
    ids = [*sim["deck"], *sim["options"]]
    if any(i not in by_id for i in ids) or len(sim["options"]) != len(question.options):
        return None
    return [by_id[i] for i in sim["deck"]], [by_id[i] for i in sim["options"]]


def in_language(question: Question, pack: Any, catalog: Any) -> Question:
    """The question with its pack's names, types and texts in ``catalog``'s language."""
    # start-up time: make (numpy) only when a question is shown
    from tcgtui.engine.deck.make import full_text

    cards = _pack_cards(question, pack)
    if cards is None:
        return question
    lang, counts = catalog.code, question.sim["deck"]  # type: ignore[index]
    index = {c.id: i for i, c in enumerate(pack.cards)}
    deck = tuple((c.name(lang), int(counts[c.id])) for c in cards[0])
    options = tuple(
        Option(c.name(lang), full_text(pack, index[c.id], catalog), catalog.t(f"cards.type.{c.type}"), o.cost)
        for c, o in zip(cards[1], question.options)
    )
    return replace(question, deck=deck, options=options, language=lang)


def deck_groups(question: Question, pack: Any, catalog: Any) -> list[Group]:
    """The deck by card type (champions, spells, tricks), each with its cards, their counts and,
    from a pack, their rules text: a person judges an option against what the deck's cards do."""
    cards = _pack_cards(question, pack)
    if cards is None:
        return [Group(NO_TYPE, question.deck)]
    # start-up time: make (numpy) only when a question is shown
    from tcgtui.engine.deck.make import full_text

    shown = in_language(question, pack, catalog).deck
    kinds = [c.type for c in cards[0]]
    index = {c.id: i for i, c in enumerate(pack.cards)}
    texts = [full_text(pack, index[c.id], catalog) for c in cards[0]]
    return [
        Group(
            t,
            tuple(entry for entry, k in zip(shown, kinds) if k == t),
            tuple(text for text, k in zip(texts, kinds) if k == t),
        )
        for t in TYPE_ORDER
        if t in kinds
    ]
