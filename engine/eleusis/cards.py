"""Eleusis cards: rank 1-13 and suit H D C S, written ``AH 2H 10C JD QS KC`` (suit symbols too).

Two standard decks make the 104-card shoe; the 52 distinct cards are what the
judge tries at every step.
"""

from __future__ import annotations

from dataclasses import dataclass

SUITS = "HDCS"
SYMBOLS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}
FROM_SYMBOL = {v: k for k, v in SYMBOLS.items()} | {"\u2661": "H", "\u2662": "D", "\u2667": "C", "\u2664": "S"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_FROM_TEXT = {"A": 1, "J": 11, "Q": 12, "K": 13}


class CardError(ValueError):
    """Text that does not name a card; ``text`` is the offending word."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card as rules see it: ``rank``, ``suit``, ``color`` and ``is_face``."""

    rank: int
    suit: str

    @property
    def color(self) -> str:
        return "red" if self.suit in "HD" else "black"

    @property
    def is_face(self) -> bool:
        return self.rank >= 11

    def text(self) -> str:
        return f"{RANK_TEXT.get(self.rank, str(self.rank))}{self.suit}"

    def symbol(self) -> str:
        return f"{RANK_TEXT.get(self.rank, str(self.rank))}{SYMBOLS[self.suit]}"

    def __repr__(self) -> str:
        return self.text()


DISTINCT: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in range(1, 14))
_BY_TEXT = {c.text(): c for c in DISTINCT}


def parse_card(text: str) -> Card:
    """``10C``, ``qs``, ``K♠``, ``1H`` -> Card; CardError naming the text otherwise."""
    raw = str(text).strip()
    word = raw.upper()
    if not word:
        raise CardError(raw)
    suit = FROM_SYMBOL.get(word[-1], word[-1])
    rank_text = word[:-1].strip()
    if suit not in SUITS or not rank_text:
        raise CardError(raw)
    if rank_text in RANK_FROM_TEXT:
        rank = RANK_FROM_TEXT[rank_text]
    elif rank_text.isdigit() and rank_text.isascii() and 1 <= int(rank_text) <= 13:
        rank = int(rank_text)
    else:
        raise CardError(raw)
    return _BY_TEXT[f"{RANK_TEXT.get(rank, str(rank))}{suit}"]


def parse_cards(text: str) -> list[Card]:
    """A line of cards separated by spaces or commas (``"2H QS 10C"``)."""
    return [parse_card(w) for w in str(text).replace(",", " ").split()]


def shoe() -> list[Card]:
    """The 104 cards of two decks, in a fixed order (shuffled by the game's seed)."""
    return [c for _ in range(2) for c in DISTINCT]
