"""Deck lists: which cards of a pack a player shuffles, and how many copies of each.

Without a list a player's deck is the whole pack, one copy each (the game as it
always was, so every seed and record stays the same).  A list is card ids with
counts; its size and the copies allowed per card are the pack's settings
(``deck_size``, ``max_copies``).  Both lists are part of a game's setup, open to
both players as the pack is, so search re-deals from them.  Parsing a file is
the caller's job: ``build_deck`` takes the parsed table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.tcg.cards import Pack


class DeckError(ValueError):
    """A deck list that does not fit its pack, with the file and the reason in one line."""

    def __init__(self, file: str, message: str) -> None:
        super().__init__(f"{file}: {message}")


@dataclass(frozen=True)
class Deck:
    """Copies per card, in pack order (``counts[i]`` copies of ``pack.cards[i]``)."""

    counts: tuple[int, ...]

    @property
    def size(self) -> int:
        return sum(self.counts)

    def cards(self) -> list[int]:
        """The deck as pack indices, copies side by side, in pack order (before the shuffle)."""
        return [i for i, c in enumerate(self.counts) for _ in range(c)]

    def to_json(self, pack: Pack) -> dict[str, int]:
        return {pack.cards[i].id: c for i, c in enumerate(self.counts) if c}


def whole_pack(pack: Pack) -> Deck:
    """The default deck: every card of the pack once."""
    return Deck((1,) * len(pack.cards))


def deck_limits(pack: Pack) -> tuple[int, int]:
    """(deck size, copies allowed per card) of the pack's deck lists."""
    return pack.rules.deck_size or len(pack.cards), pack.rules.max_copies


def build_deck(pack: Pack, raw: Any, file: str = "deck") -> Deck:
    """A checked deck from a parsed list ``{"cards": {card_id: count}}``; DeckError otherwise."""
    if not isinstance(raw, dict) or set(raw) - {"cards", "name"}:
        raise DeckError(file, "expected a [cards] table of card ids and counts (and an optional name)")
    cards = raw.get("cards")
    if not isinstance(cards, dict) or not cards:
        raise DeckError(file, "expected a [cards] table of card ids and counts")
    size, copies = deck_limits(pack)
    counts = [0] * len(pack.cards)
    for card_id, count in cards.items():
        i = pack.index.get(card_id)  # type: ignore[attr-defined]
        if i is None:
            raise DeckError(file, f"card {card_id!r} is not in pack {pack.id!r}")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= copies:
            raise DeckError(file, f"card {card_id!r}: expected a count from 1 to {copies}, got {count!r}")
        counts[i] = count
    deck = Deck(tuple(counts))
    if deck.size != size:
        raise DeckError(file, f"the deck holds {deck.size} cards; pack {pack.id!r} expects {size}")
    return deck


def from_ids(pack: Pack, ids: list[str], file: str = "deck") -> Deck:
    """A deck from a list of card ids (a copy per mention), checked like a file."""
    return build_deck(pack, {"cards": dict(Counter(ids))}, file)
