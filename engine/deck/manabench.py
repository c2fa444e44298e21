"""ManaBench's questions, as published, made into tcgtui's question shape (``tcgtui deck import``).

A published question names the 59 cards of a deck (repeats for copies), the
``golden`` card that completed it, five ``alternatives`` and the constructed
``format``.  Every card gets its rules text from a card database the user gives
(an MTGJSON AtomicCards export: type line, mana cost, power/toughness, loyalty,
Oracle text), as ManaBench's prompt shows every card in full.  The six options are
shuffled once per question, from the question's id and the import's seed, and the
shuffle is kept in the file, so a run is reproducible and two imports agree.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from tcgtui.engine.deck.questions import LETTERS, Option, Question, QuestionError, _show

SOURCE = "manabench"
Lookup = Callable[[str], "list[dict[str, Any]] | None"]


def card(name: str, faces: list[dict[str, Any]]) -> Option:
    """One card with its printed facts; a card of several faces joins them with `` // ``."""

    def join(key: str) -> str:
        return " // ".join(v for v in (str(f.get(key) or "") for f in faces) if v)

    stats = " // ".join(f"{f['power']}/{f['toughness']}" for f in faces if "power" in f and "toughness" in f)
    return Option(name, join("text"), join("type"), join("manaCost"), stats, join("loyalty"))


def index(data: dict[str, list[dict[str, Any]]]) -> Lookup:
    """Find a card by its full name or, for a card of several faces, by one face's name."""
    by_face: dict[str, str] = {}
    for full, faces in data.items():
        for face in faces if isinstance(faces, list) else []:
            if isinstance(face, dict) and face.get("faceName"):
                by_face.setdefault(str(face["faceName"]).casefold(), full)
    folded = {k.casefold(): k for k in data}

    def lookup(name: str) -> list[dict[str, Any]] | None:
        key = folded.get(name.casefold()) or by_face.get(name.casefold())
        return data.get(key) if key else None

    return lookup


def _names(obj: dict[str, Any], key: str, count: int | None = None) -> list[str]:
    value = obj.get(key)
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, str) and v.strip() for v in value)
        or (count is not None and len(value) != count)
    ):
        want = f"a list of {count} card names" if count else "a non-empty list of card names"
        raise QuestionError(f"{key}: expected {want}, got {_show(value)}")
    return [v.strip() for v in value]


def _shuffle_seed(qid: str, seed: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"tcgtui/manabench/{seed}/{qid}".encode(), digest_size=8).digest(), "big")


def import_question(obj: Any, lookup: Lookup, seed: int = 0) -> Question:
    """A tcgtui question from one published ManaBench question; QuestionError names the field at fault."""
    if not isinstance(obj, dict):
        raise QuestionError(f"expected a JSON object, got {_show(obj)}")
    missing = [k for k in ("id", "deck", "golden", "alternatives", "format") if k not in obj]
    if missing:
        raise QuestionError(f"{missing[0]}: missing (ManaBench's shape: id, deck, golden, alternatives, format)")
    qid, fmt, golden = obj["id"], obj["format"], obj["golden"]
    for key, value in (("id", qid), ("format", fmt), ("golden", golden)):
        if not isinstance(value, str) or not value.strip():
            raise QuestionError(f"{key}: expected non-empty text, got {_show(value)}")
    deck_names = _names(obj, "deck")
    alternatives = _names(obj, "alternatives", 5)
    choices = [golden.strip(), *alternatives]
    if len({c.casefold() for c in choices}) != len(choices):
        raise QuestionError("alternatives: expected five names different from each other and from golden")
    counts: dict[str, int] = {}
    for name in deck_names:
        counts[name] = counts.get(name, 0) + 1

    def found(name: str, where: str) -> Option:
        faces = lookup(name)
        if not faces:
            raise QuestionError(f"{where}: {name!r} is not in the card database")
        return card(name, faces)

    deck_cards = tuple(found(name, f"deck ({name})") for name in counts)
    options = [found(name, key) for name, key in zip(choices, ["golden", *[f"alternatives[{i}]" for i in range(5)]])]
    order = list(range(len(options)))
    random.Random(_shuffle_seed(qid, seed)).shuffle(order)
    shuffled = tuple(options[i] for i in order)
    answer = LETTERS[order.index(0)]
    return Question(
        qid.strip(),
        tuple(counts.items()),
        shuffled,
        answer,
        SOURCE,
        "en",
        format=fmt.strip().lower(),
        deck_cards=deck_cards,
    )
