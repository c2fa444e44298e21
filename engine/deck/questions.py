"""Deck-completion questions (ManaBench's shape): a deck with one card missing, six options.

A question file is JSON Lines, one question per line; reading it is the caller's job
(``tcgtui/deck_questions.py``).  ``parse_question`` checks one parsed line and says in one
line what is wrong.  A question made from our own cards carries ``sim`` (the pack, the card
ids, the field of opponent decks) and the measured ``win_rates``, so anyone can re-check it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

LETTERS = "ABCDEF"
LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
SIM_PRIVATE = ("removed", "p_values", "seed")  # a made question's answer, and what measured it
FIELDS = {"id", "deck", "options", "answer", "source", "language", "win_rates", "games", "sim", "format"}
CARD_FIELDS = {"name", "text", "type", "cost", "stats", "loyalty"}  # an option's; a deck entry adds its count
PUBLISHED = {"id", "deck", "golden", "alternatives", "format"}  # ManaBench's own shape (tcgtui deck import)


class QuestionError(ValueError):
    """One line of a question file that is not a question, and why."""


@dataclass(frozen=True)
class Option:
    name: str
    text: str
    type: str = ""
    cost: str = ""  # as printed where the game has costs; empty otherwise
    stats: str = ""  # power/toughness where the game prints them
    loyalty: str = ""  # a planeswalker's loyalty (ManaBench's cards)


@dataclass(frozen=True)
class Question:
    id: str
    deck: tuple[tuple[str, int], ...]  # card name and count
    options: tuple[Option, ...]  # A to F
    answer: str  # the letter; empty in what a player sees
    source: str
    language: str
    win_rates: tuple[float, ...] | None = None  # measured per option (questions made by simulation)
    games: int = 0  # games behind each win rate
    sim: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    format: str = ""  # the deck's constructed format (ManaBench: modern...)
    deck_cards: tuple[Option, ...] = ()  # the deck's cards with their text, in deck order, if given

    @property
    def answer_index(self) -> int:
        return LETTERS.index(self.answer)

    @property
    def margin(self) -> float | None:
        """How far the answer's win rate is above the best other option's."""
        if not self.win_rates:
            return None
        best = self.win_rates[self.answer_index]
        return best - max(r for i, r in enumerate(self.win_rates) if i != self.answer_index)

    def public(self) -> Question:
        """What a player may see: no answer, no win rates, and of the simulation's setup only what
        poses the question (the card removed is the answer; the verdict's p-values and seed give the
        measured win rates away)."""
        sim = None if self.sim is None else {k: v for k, v in self.sim.items() if k not in SIM_PRIVATE}
        return replace(self, answer="", win_rates=None, games=0, sim=sim)

    def to_json(self) -> dict[str, Any]:
        deck = [{"name": n, "count": c} for n, c in self.deck]
        for entry, card in zip(deck, self.deck_cards):
            entry.update(_card_json(card, with_name=False))
        out: dict[str, Any] = {
            "id": self.id,
            "deck": deck,
            "options": [_card_json(o) for o in self.options],
            "answer": self.answer,
            "source": self.source,
            "language": self.language,
        }
        if self.format:
            out["format"] = self.format
        if self.win_rates is not None:
            out["win_rates"] = list(self.win_rates)
            out["games"] = self.games
        if self.sim is not None:
            out["sim"] = self.sim
        return out


def _card_json(card: Option, with_name: bool = True) -> dict[str, Any]:
    out = {"name": card.name} if with_name else {}
    out.update({"text": card.text, "type": card.type, "cost": card.cost})
    for key in ("stats", "loyalty"):
        if getattr(card, key):
            out[key] = getattr(card, key)
    return out


def _card(o: Any, where: str, text_needed: bool = True) -> Option:
    """A card's name, text and optional type, cost and stats (an option, or a deck entry's text)."""
    cost = o.get("cost")
    if cost is not None and (isinstance(cost, bool) or not isinstance(cost, (int, str))):
        raise QuestionError(f"{where}.cost: expected text or a number, got {_show(cost)}")
    return Option(
        _text(o["name"], f"{where}.name"),
        _text(o.get("text", ""), f"{where}.text", empty=not text_needed),
        _text(o.get("type") or "", f"{where}.type", empty=True),
        "" if cost is None else str(cost),
        _text(o.get("stats") or "", f"{where}.stats", empty=True),
        _text(o.get("loyalty") or "", f"{where}.loyalty", empty=True),
    )


def _text(value: Any, where: str, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise QuestionError(f"{where}: expected {'text' if empty else 'non-empty text'}, got {_show(value)}")
    return value


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_question(obj: Any) -> Question:
    """A checked question from one parsed JSON line; QuestionError names the field at fault."""
    if not isinstance(obj, dict):
        raise QuestionError(f"expected a JSON object, got {_show(obj)}")
    if set(obj) == PUBLISHED:
        raise QuestionError(
            "this is ManaBench's own question shape (deck, golden, alternatives, format); "
            "convert it with: tcgtui deck import FILE --cards CARD_DATABASE --out SET.jsonl"
        )
    unknown = sorted(set(obj) - FIELDS)
    if unknown:
        raise QuestionError(f"{unknown[0]}: unknown field; expected {', '.join(sorted(FIELDS))}")
    for key in ("id", "deck", "options", "answer", "source", "language"):
        if key not in obj:
            raise QuestionError(f"{key}: missing")
    qid = _text(obj["id"], "id")
    deck = obj["deck"]
    if not isinstance(deck, list) or not deck:
        raise QuestionError(f"deck: expected a non-empty list of {{name, count}}, got {_show(deck)}")
    cards, texts = [], []
    for i, entry in enumerate(deck):
        if not isinstance(entry, dict) or not {"name", "count"} <= set(entry) or set(entry) - CARD_FIELDS - {"count"}:
            raise QuestionError(
                f'deck[{i}]: expected {{"name": ..., "count": ...}} (text, type, cost and stats '
                f"optional), got {_show(entry)}"
            )
        count = entry["count"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise QuestionError(f"deck[{i}].count: expected a whole number of at least 1, got {_show(count)}")
        cards.append((_text(entry["name"], f"deck[{i}].name"), count))
        texts.append(_card(entry, f"deck[{i}]", text_needed=False))
    has_text = [bool(c.text) for c in texts]
    if any(has_text) and not all(has_text):
        raise QuestionError(f"deck[{has_text.index(False)}].text: missing; give every deck card its text or none")
    raw_options = obj["options"]
    if not isinstance(raw_options, list) or len(raw_options) != len(LETTERS):
        raise QuestionError(f"options: expected a list of {len(LETTERS)} options, got {_show(raw_options)}")
    options = []
    for i, o in enumerate(raw_options):
        where = f"options[{i}]"
        if not isinstance(o, dict) or not {"name", "text"} <= set(o) or set(o) - CARD_FIELDS:
            raise QuestionError(f"{where}: expected name and text (type, cost and stats optional), got {_show(o)}")
        options.append(_card(o, where))
    names = [o.name.casefold() for o in options]
    if len(set(names)) != len(names):
        raise QuestionError("options: two options have the same name")
    answer = obj["answer"]
    if not isinstance(answer, str) or answer not in LETTERS:
        raise QuestionError(f"answer: expected one letter of {LETTERS}, got {_show(answer)}")
    language = _text(obj["language"], "language")
    if not LANG_RE.match(language):
        raise QuestionError(f"language: expected a language code such as en or ar, got {_show(language)}")
    rates = obj.get("win_rates")
    if rates is not None:
        if (
            not isinstance(rates, list)
            or len(rates) != len(LETTERS)
            or any(isinstance(r, bool) or not isinstance(r, (int, float)) or not 0 <= r <= 1 for r in rates)
        ):
            raise QuestionError(f"win_rates: expected {len(LETTERS)} numbers from 0 to 1, got {_show(rates)}")
        rates = tuple(float(r) for r in rates)
    games = obj.get("games", 0)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise QuestionError(f"games: expected a whole number of at least 0, got {_show(games)}")
    sim = obj.get("sim")
    if sim is not None and not isinstance(sim, dict):
        raise QuestionError(f"sim: expected an object, got {_show(sim)}")
    fmt = _text(obj.get("format", ""), "format", empty=True)
    return Question(
        qid,
        tuple(cards),
        tuple(options),
        answer,
        _text(obj["source"], "source"),
        language,
        rates,
        games,
        sim,
        fmt,
        tuple(texts) if all(has_text) else (),
    )


def set_hash(questions: tuple[Question, ...]) -> str:
    """SHA-256 of a question set's content (records name a set by it)."""
    blob = json.dumps([q.to_json() for q in questions], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class QuestionSet:
    """Questions as loaded (the caller read the file), with the set's name and hash."""

    id: str
    questions: tuple[Question, ...]
    hash: str
    packs: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)  # pack id -> Pack (sim)
