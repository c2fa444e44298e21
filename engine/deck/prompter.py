"""What a language model reads for one question, and how its answer is read (ManaBench's rule).

One message: the card game's rules (when the question comes from one of our packs), the
deck with one card missing, every option's full text, and the answer format.  The letter
is found, in this order, in the last ``ANSWER: X`` (X from A to F, brackets allowed), else
in a reply that is one letter and nothing else, else in the last ``\\boxed{X}``; otherwise
the reply is wrong.  Which of these matched is recorded as the parse path.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

from tcgtui.engine.deck.questions import LETTERS
from tcgtui.engine.prompting import Message, Parsed

if TYPE_CHECKING:
    from tcgtui.engine.deck.game import DeckGame

ANSWER_RE = re.compile(r"ANSWER:\s*\[?\s*([A-F])\s*\]?")
BOXED_RE = re.compile(r"\\boxed\{\s*([A-F])\s*\}")
PATHS = ("answer", "letter", "boxed", "none")
KEYS = (
    "intro",
    "rules_head",
    "decks_rule",
    "task",
    "deck_line",
    "options_head",
    "option",
    "option_cost",
    "format",
    "reason.format",
)


def extract(reply: str, answer: re.Pattern = ANSWER_RE, last: bool = True) -> tuple[str | None, str]:
    """(letter or None, the path that found it); of several ``ANSWER:`` lines (or boxes) the last,
    or with ``last=False`` the first."""
    pick = -1 if last else 0
    found = answer.findall(reply)
    if found:
        return found[pick], "answer"
    bare = reply.strip()
    if len(bare) == 1 and bare in LETTERS:
        return bare, "letter"
    boxed = BOXED_RE.findall(reply)
    if boxed:
        return boxed[pick], "boxed"
    return None, "none"


class DeckPrompter:
    keeps_history = False

    def __init__(self, game: DeckGame, catalog: Any, seat: int) -> None:
        self.game, self.catalog, self.seat = game, catalog, seat
        used = "\n".join(repr(catalog.raw(f"deck.prompts.{k}")) for k in KEYS)
        self.version = f"deck-v1-{catalog.code}-{hashlib.sha1(used.encode('utf-8')).hexdigest()[:8]}"

    def _t(self, key: str, **params: Any) -> str:
        return self.catalog.t(f"deck.prompts.{key}", **params)

    def system(self) -> Message | None:
        return None

    def rules(self, question: Any) -> list[str]:
        """The card game's rules, when the question names one of the packs loaded with the set."""
        name = (question.sim or {}).get("pack")
        pack = self.game.qset.packs.get(name) if isinstance(name, str) else None
        if pack is None:
            return []
        # only a question drawn from a card pack states the card game's rules
        from tcgtui.engine.tcg.describe import rules_sentences

        sentences = [
            self._t("decks_rule", size=pack.rules.deck_size or len(pack.cards), copies=pack.rules.max_copies)
            if key == "setup.decks"
            else text
            for key, text in rules_sentences(self.catalog, pack)
        ]  # decks are lists here
        return [self._t("rules_head"), " ".join(sentences)]

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        q = obs.question
        size = sum(c for _, c in q.deck) + 1
        parts = [
            self._t("intro"),
            *self.rules(q),
            self._t("task", size=size),
            "\n".join(self._t("deck_line", count=c, name=n) for n, c in q.deck),
            self._t("options_head"),
        ]
        lines = []
        for letter, o in zip(LETTERS, q.options):
            cost = self._t("option_cost", cost=o.cost) if o.cost else ""
            lines.append(self._t("option", letter=letter, name=o.name, type=o.type or "-", cost=cost, text=o.text))
        parts += ["\n".join(lines), self._t("format")]
        return {"role": "user", "content": "\n\n".join(parts)}

    def extract(self, reply: str) -> tuple[str | None, str]:
        return extract(reply)

    def parse(self, answer: str, obs: Any) -> Parsed:
        letter, path = self.extract(str(answer))
        if letter is None:
            return Parsed(None, path, "format", str(answer).strip()[-200:])
        return Parsed(letter, path, None, letter)

    def reason(self, parsed: Parsed) -> str:
        return self._t("reason.format")

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        message = self.turn(obs, [])
        message["content"] += "\n\n" + reason
        return message
