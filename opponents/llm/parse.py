"""Reading a move out of a model's reply: reasoning apart, then tags, then (soft) the last name.

A reply may think out loud (``<think>`` blocks) and even write a move inside
its thoughts; only the answer outside counts.  Names are matched after
normalising both sides, so ``FROST-MAGE``, ``frost_mage`` and the Arabic name
spelled with or without hamza on the alef all find the same card.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from tcgtui.engine.tcg.cards import Pack

TAGS, LAST_NAME, NONE = "tags", "last_name", "none"
STRICT, SOFT = "strict", "soft"
PARSE_MODES = (STRICT, SOFT)

_THINK_OPEN = re.compile(r"<\s*(think|thinking|reasoning)\s*>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"<\s*/\s*(think|thinking|reasoning)\s*>", re.IGNORECASE)
_MOVE = re.compile(r"<\s*BEGIN_MOVE\s*>(.*?)<\s*/?\s*END_MOVE\s*>", re.IGNORECASE | re.DOTALL)

# Arabic letters folded together (as code points: no Arabic literals in code):
# alef with hamza above/below, alef with madda, alef wasla -> alef; taa marbuta -> haa;
# alef maqsura -> yaa; tatweel dropped; Arabic-Indic and Eastern Arabic-Indic digits -> ASCII.
_FOLD = {0x0623: 0x0627, 0x0625: 0x0627, 0x0622: 0x0627, 0x0671: 0x0627, 0x0629: 0x0647,
         0x0649: 0x064A, 0x0640: None,
         **{0x0660 + i: 0x30 + i for i in range(10)}, **{0x06F0 + i: 0x30 + i for i in range(10)}}
_MARKS = re.compile(r"[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed]")  # harakat, Quranic marks
# One-letter Arabic prefixes that may stick to a name in running text: waw, faa, baa, lam, kaf.
_PROCLITICS = "".join(map(chr, (0x0648, 0x0641, 0x0628, 0x0644, 0x0643)))


def normalize(text: str) -> str:
    """Fold case, compatibility forms, Arabic spelling variants and punctuation into single spaces."""
    text = unicodedata.normalize("NFKC", text)
    text = _MARKS.sub("", text).translate(_FOLD).casefold()
    out = [ch if ch.isalnum() else " " for ch in text]
    return " ".join("".join(out).split())


def split_reasoning(text: str) -> tuple[str, str]:
    """``(answer, reasoning)``: ``<think>`` blocks out of the answer, kept apart.

    An unclosed block runs to the end (the reply was cut while thinking); a
    closing tag with no opening one means everything before it was thought
    (templates that put the opening tag in the prompt).
    """
    thoughts: list[str] = []
    close = _THINK_CLOSE.search(text)
    opened = _THINK_OPEN.search(text)
    if close and (opened is None or close.start() < opened.start()):
        thoughts.append(text[:close.start()])
        text = text[close.end():]
    answer: list[str] = []
    pos = 0
    while True:
        opened = _THINK_OPEN.search(text, pos)
        if opened is None:
            answer.append(text[pos:])
            break
        answer.append(text[pos:opened.start()])
        close = _THINK_CLOSE.search(text, opened.end())
        if close is None:
            thoughts.append(text[opened.end():])
            break
        thoughts.append(text[opened.end():close.start()])
        pos = close.end()
    return "".join(answer).strip(), "\n".join(t.strip() for t in thoughts if t.strip())


@dataclass(frozen=True)
class Parsed:
    """What a reply named: a card id (or None), which path found it, and why not if none."""

    card: str | None
    path: str
    error: str | None = None       # no_tags | no_name | unknown | ambiguous | empty
    text: str = ""                 # the text that was read as the move, for the reason shown


class CardMatcher:
    """Finds card names of one pack in text, in every language the pack has, and by id."""

    def __init__(self, pack: Pack) -> None:
        names: dict[str, str] = {}
        for card in pack.cards:
            for variant in (card.id, *card.names.values()):
                key = normalize(variant)
                if key:
                    names.setdefault(key, card.id)
        self.names = names
        # Longest names first, so "Direct Strike" wins over a card named "Strike".
        alts = sorted(names, key=len, reverse=True)
        self._pattern = re.compile(
            r"(?:(?<=\s)|^)[" + _PROCLITICS + r"]?(" + "|".join(re.escape(a) for a in alts) + r")(?=\s|$)")

    def exact(self, text: str) -> str | None:
        return self.names.get(normalize(text))

    def mentions(self, text: str) -> list[tuple[int, str]]:
        """Every card named in ``text``: (position in the normalised text, card id), in order."""
        norm = normalize(text)
        found: list[tuple[int, str]] = []
        pos = 0
        while True:
            m = self._pattern.search(norm, pos)
            if m is None:
                return found
            found.append((m.start(1), self.names[m.group(1)]))
            pos = m.end(1)

    def in_tag(self, text: str) -> Parsed:
        """A tag's content: the exact name, else the one card it names among other words."""
        card = self.exact(text)
        if card is not None:
            return Parsed(card, TAGS, text=text.strip())
        named = {c for _, c in self.mentions(text)}
        if len(named) == 1:
            return Parsed(named.pop(), TAGS, text=text.strip())
        return Parsed(None, TAGS, "ambiguous" if named else "unknown", text.strip())


def parse_answer(answer: str, matcher: CardMatcher, mode: str) -> Parsed:
    """Read the move from an answer already free of reasoning.

    The last tagged move counts (a model may quote the format before using it).
    ``soft`` falls back to the last card name mentioned anywhere in the answer.
    """
    if not answer.strip():
        return Parsed(None, NONE, "empty")
    tagged = _MOVE.findall(answer)
    if tagged:
        return matcher.in_tag(tagged[-1])
    if mode == SOFT:
        mentions = matcher.mentions(answer)
        if mentions:
            return Parsed(mentions[-1][1], LAST_NAME)
        return Parsed(None, NONE, "no_name")
    return Parsed(None, NONE, "no_tags")
