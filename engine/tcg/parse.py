"""Reading a card out of a model's answer: tags first, then (soft) the last name.

The LLM player has already set the reasoning apart (``opponents.llm.reasoning``);
only the answer comes here.  Names are matched after normalising both sides, so
``FROST-MAGE``, ``frost_mage`` and the Arabic name spelled with or without hamza
on the alef all find the same card.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from tcgtui.engine.prompting import Parsed
from tcgtui.engine.tcg.cards import Pack

TAGS, LAST_NAME, NONE = "tags", "last_name", "none"
STRICT, SOFT = "strict", "soft"
PARSE_MODES = (STRICT, SOFT)

_MOVE = re.compile(r"<\s*BEGIN_MOVE\s*>(.*?)<\s*/?\s*END_MOVE\s*>", re.IGNORECASE | re.DOTALL)

# Arabic letters folded together (as code points: no Arabic literals in code):
# alef with hamza above/below, alef with madda, alef wasla -> alef; taa marbuta -> haa;
# alef maqsura -> yaa; tatweel dropped; Arabic-Indic and Eastern Arabic-Indic digits -> ASCII.
_FOLD = {
    0x0623: 0x0627,
    0x0625: 0x0627,
    0x0622: 0x0627,
    0x0671: 0x0627,
    0x0629: 0x0647,
    0x0649: 0x064A,
    0x0640: None,
    **{0x0660 + i: 0x30 + i for i in range(10)},
    **{0x06F0 + i: 0x30 + i for i in range(10)},
}
_MARKS = re.compile(r"[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed]")  # harakat, Quranic marks
# One-letter Arabic prefixes that may stick to a name in running text: waw, faa, baa, lam, kaf.
_PROCLITICS = "".join(map(chr, (0x0648, 0x0641, 0x0628, 0x0644, 0x0643)))


def normalize(text: str) -> str:
    """Fold case, compatibility forms, Arabic spelling variants and punctuation into single spaces."""
    text = unicodedata.normalize("NFKC", text)
    text = _MARKS.sub("", text).translate(_FOLD).casefold()
    out = [ch if ch.isalnum() else " " for ch in text]
    return " ".join("".join(out).split())


@dataclass(frozen=True)
class CardParsed(Parsed):
    """A ``Parsed`` whose move is a card id; ``error`` is one of no_tags, no_name, unknown,
    ambiguous, empty (or not_in_hand, set by the prompter against the observation)."""

    @property
    def card(self) -> str | None:
        return self.move


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
            r"(?:(?<=\s)|^)[" + _PROCLITICS + r"]?(" + "|".join(re.escape(a) for a in alts) + r")(?=\s|$)"
        )

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

    def in_tag(self, text: str) -> CardParsed:
        """A tag's content: the exact name, else the one card it names among other words."""
        card = self.exact(text)
        if card is not None:
            return CardParsed(card, TAGS, text=text.strip())
        named = {c for _, c in self.mentions(text)}
        if len(named) == 1:
            return CardParsed(named.pop(), TAGS, text=text.strip())
        return CardParsed(None, TAGS, "ambiguous" if named else "unknown", text.strip())


def parse_answer(answer: str, matcher: CardMatcher, mode: str) -> CardParsed:
    """Read the move from an answer already free of reasoning.

    The last tagged move counts (a model may quote the format before using it).
    ``soft`` falls back to the last card name mentioned anywhere in the answer.
    """
    if not answer.strip():
        return CardParsed(None, NONE, "empty")
    tagged = _MOVE.findall(answer)
    if tagged:
        return matcher.in_tag(tagged[-1])
    if mode == SOFT:
        mentions = matcher.mentions(answer)
        if mentions:
            return CardParsed(mentions[-1][1], LAST_NAME)
        return CardParsed(None, NONE, "no_name")
    return CardParsed(None, NONE, "no_tags")
