"""Validate a card pack from parsed data and give it a content hash.

Reading files is the caller's job (the engine does no I/O); this module turns
the parsed manifest and per-language text into a ``Pack`` or raises one
``PackError`` that names the file, the card and the field at fault.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from tcgtui.engine.core import SetupError
from tcgtui.engine.tcg import cards as C

ID_RE = re.compile(r"^[a-z][a-z0-9_]{0,47}$")
PACK_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
RULE_RANGES = {
    "starting_lp": (1, 100),
    "opening_hand": (0, 10),
    "turn_limit": (2, 500),
    "deck_size": (1, 500),
    "max_copies": (1, 20),
}


class PackError(SetupError):
    """A pack that cannot be played, with where and why in one line."""

    def __init__(self, file: str, message: str, card: str | None = None, field: str | None = None) -> None:
        self.file, self.card, self.field, self.message = file, card, field, message
        where = [file]
        if card is not None:
            where.append(f"card {card!r}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}")


def content_hash(manifest: dict[str, Any], texts: dict[str, dict[str, Any]]) -> str:
    """SHA-256 of the pack's data, independent of file layout, spacing and comments."""
    blob = json.dumps({"manifest": manifest, "texts": texts}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Checker:
    def __init__(self, file: str, card: str | None = None) -> None:
        self.file, self.card = file, card

    def fail(self, field: str | None, message: str) -> PackError:
        return PackError(self.file, message, self.card, field)

    def table(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a table, got {_show(value)}")
        return value

    def integer(self, value: Any, field: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(field, f"expected a whole number from {lo} to {hi}, got {_show(value)}")
        return value

    def choice(self, value: Any, field: str, options: tuple[str, ...]) -> str:
        if value not in options:
            raise self.fail(field, f"unknown value {_show(value)}; expected one of {', '.join(options)}")
        return value

    def text(self, value: Any, field: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, f"expected non-empty text, got {_show(value)}")
        return value

    def only(self, table: dict[str, Any], allowed: set[str], prefix: str = "") -> None:
        for key in table:
            if key not in allowed:
                raise self.fail(prefix + key, f"unknown field; expected one of {', '.join(sorted(allowed))}")

    def need(self, table: dict[str, Any], key: str, prefix: str = "") -> Any:
        if key not in table:
            raise self.fail(prefix + key, "missing")
        return table[key]


def _effect(chk: _Checker, raw: Any, field: str, when: str | None, is_champion: bool, first: bool) -> C.Effect:
    t = chk.table(raw, field)
    do = chk.choice(chk.need(t, "do", field + "."), field + ".do", C.EFFECTS)
    allowed, required = C.EFFECT_FIELDS[do]
    chk.only(t, {"do", "if_done", *allowed}, field + ".")
    for key in required:
        chk.need(t, key, field + ".")
    kw: dict[str, Any] = {"do": do}
    if "amount" in t:
        lo, hi = C.AMOUNT_RANGE[do]
        kw["amount"] = chk.integer(t["amount"], field + ".amount", lo, hi)
        if kw["amount"] == 0:
            raise chk.fail(field + ".amount", "expected a non-zero number, got 0")
    if "to" in t:
        kw["to"] = chk.choice(t["to"], field + ".to", C.PLAYERS)
    if "stat" in t:
        kw["stat"] = chk.choice(t["stat"], field + ".stat", C.STATS)
    if "until" in t:
        kw["until"] = chk.choice(t["until"], field + ".until", C.DURATIONS)
    if "if_done" in t:
        if not isinstance(t["if_done"], bool):
            raise chk.fail(field + ".if_done", f"expected true or false, got {_show(t['if_done'])}")
        if first and t["if_done"]:
            raise chk.fail(field + ".if_done", "the first effect has no previous effect to depend on")
        kw["if_done"] = t["if_done"]
    if "target" in t:
        target = chk.choice(t["target"], field + ".target", C.TARGETS)
        if target == C.THIS and not is_champion:
            raise chk.fail(field + ".target", "'this' names a champion; only a champion's ability can use it")
        if target == C.ATTACKER and when not in C.ATTACK_TRIGGERS:
            raise chk.fail(field + ".target", f"'attacker' needs a trigger of {', '.join(C.ATTACK_TRIGGERS)}")
        if target == C.BLOCKERS and when != C.THIS_BLOCKED:
            raise chk.fail(field + ".target", f"'blockers' needs the trigger {C.THIS_BLOCKED}")
        kw["target"] = target
    if do == C.REPEAT_SPELL and when != C.YOU_CAST_SPELL:
        raise chk.fail(field + ".do", f"repeat_spell needs the trigger {C.YOU_CAST_SPELL}")
    if do == C.BLOCK_WITH and when != C.ENEMY_ATTACKS:
        raise chk.fail(field + ".do", f"block_with needs the trigger {C.ENEMY_ATTACKS}")
    if do == C.CANCEL_ATTACK and when not in C.ATTACK_TRIGGERS:
        raise chk.fail(field + ".do", f"cancel_attack needs a trigger of {', '.join(C.ATTACK_TRIGGERS)}")
    return C.Effect(**kw)


def _effects(chk: _Checker, raw: Any, field: str, when: str | None, is_champion: bool) -> tuple[C.Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise chk.fail(field, f"expected a non-empty list of effects, got {_show(raw)}")
    return tuple(_effect(chk, e, f"{field}[{i}]", when, is_champion, i == 0) for i, e in enumerate(raw))


def _ability(chk: _Checker, t: dict[str, Any], prefix: str, is_champion: bool) -> C.Ability:
    when = chk.choice(chk.need(t, "when", prefix), prefix + "when", C.TRIGGERS)
    if not is_champion and when in C.CHAMPION_ONLY_TRIGGERS:
        raise chk.fail(prefix + "when", f"{when!r} is for champions only")
    n = 0
    if when in C.TRIGGERS_WITH_N:
        n = chk.integer(chk.need(t, "n", prefix), prefix + "n", 1, 100)
    elif "n" in t:
        raise chk.fail(prefix + "n", f"the trigger {when!r} takes no number")
    effects = _effects(chk, chk.need(t, "effects", prefix), prefix + "effects", when, is_champion)
    return C.Ability(when, effects, n)


def _card(file: str, raw: Any, position: int) -> C.Card:
    chk = _Checker(file)
    if isinstance(raw, dict) and isinstance(raw.get("id"), str):
        chk.card = raw["id"]
    t = chk.table(raw, f"card[{position}]")
    card_id = chk.need(t, "id")
    if not isinstance(card_id, str) or not ID_RE.match(card_id):
        raise chk.fail("id", f"expected lower-case letters, digits and _ starting with a letter, got {_show(card_id)}")
    kind = chk.choice(chk.need(t, "type"), "type", C.CARD_TYPES)
    if kind == C.CHAMPION:
        chk.only(t, {"id", "type", "power", "guard", "keywords", "abilities"})
        power = chk.integer(chk.need(t, "power"), "power", 0, 20)
        guard = chk.integer(chk.need(t, "guard"), "guard", 0, 20)
        raw_kw = t.get("keywords", [])
        if not isinstance(raw_kw, list):
            raise chk.fail("keywords", f"expected a list, got {_show(raw_kw)}")
        keywords = frozenset(chk.choice(k, "keywords", C.KEYWORDS) for k in raw_kw)
        raw_ab = t.get("abilities", [])
        if not isinstance(raw_ab, list):
            raise chk.fail("abilities", f"expected a list of tables, got {_show(raw_ab)}")
        abilities = []
        for i, a in enumerate(raw_ab):
            prefix = f"abilities[{i}]."
            at = chk.table(a, prefix[:-1])
            chk.only(at, {"when", "n", "effects"}, prefix)
            abilities.append(_ability(chk, at, prefix, True))
        return C.Card(card_id, kind, {}, power, guard, keywords, tuple(abilities))
    if kind == C.SPELL:
        chk.only(t, {"id", "type", "effects"})
        return C.Card(card_id, kind, {}, effects=_effects(chk, chk.need(t, "effects"), "effects", None, False))
    chk.only(t, {"id", "type", "when", "n", "effects"})
    return C.Card(card_id, kind, {}, trigger=_ability(chk, t, "", False))


def build_pack(
    manifest: Any,
    texts: dict[str, Any],
    *,
    manifest_file: str = "pack.toml",
    text_files: dict[str, str] | None = None,
    source: str = "",
) -> C.Pack:
    """Check everything a game will rely on; the first problem raises PackError."""
    text_files = text_files or {lang: f"text/{lang}.toml" for lang in texts}
    chk = _Checker(manifest_file)
    m = chk.table(manifest, "(file)")
    chk.only(m, {"pack", "card"})
    head = chk.table(chk.need(m, "pack"), "pack")
    chk.only(head, {"id", "version", *RULE_RANGES}, "pack.")
    pack_id = chk.need(head, "id", "pack.")
    if not isinstance(pack_id, str) or not PACK_ID_RE.match(pack_id):
        raise chk.fail("pack.id", f"expected lower-case letters, digits, '.', '_' or '-', got {_show(pack_id)}")
    version = chk.integer(head.get("version", 1), "pack.version", 1, 10**6)
    rules = C.Rules(**{k: chk.integer(head[k], f"pack.{k}", *RULE_RANGES[k]) for k in RULE_RANGES if k in head})
    raw_cards = chk.need(m, "card")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise chk.fail("card", "expected at least one [[card]] table")
    parsed: list[C.Card] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_cards):
        card = _card(manifest_file, raw, i)
        if card.id in seen:
            raise PackError(manifest_file, "duplicate card id", card.id, "id")
        seen.add(card.id)
        parsed.append(card)
    if not texts:
        raise PackError(manifest_file, "the pack has no language files; expected at least one")
    names: dict[str, dict[str, str]] = {c.id: {} for c in parsed}
    titles: dict[str, str] = {}
    for lang in sorted(texts):
        file = text_files.get(lang, lang)
        if not LANG_RE.match(lang):
            raise PackError(file, f"{lang!r} is not a language code (expected e.g. en, ar, pt-BR)")
        tchk = _Checker(file)
        doc = tchk.table(texts[lang], "(file)")
        tchk.only(doc, {"pack", "card"})
        titles[lang] = tchk.text(tchk.table(tchk.need(doc, "pack"), "pack").get("name"), "pack.name")
        entries = tchk.table(tchk.need(doc, "card"), "card")
        for card_id in entries:
            if card_id not in names:
                raise PackError(file, "no such card in the manifest", card_id)
        for card in parsed:
            if card.id not in entries:
                raise PackError(file, f"missing translation for language {lang!r}", card.id, "name")
            tchk.card = card.id
            entry = tchk.table(entries[card.id], "name")
            tchk.only(entry, {"name"})
            names[card.id][lang] = tchk.text(entry.get("name"), "name").strip()
        tchk.card = None
        seen_names: dict[str, str] = {}
        for card in parsed:
            key = names[card.id][lang].casefold()
            if key in seen_names:
                raise PackError(file, f"the same name as card {seen_names[key]!r}", card.id, "name")
            seen_names[key] = card.id
    cards = tuple(
        C.Card(c.id, c.type, names[c.id], c.power, c.guard, c.keywords, c.abilities, c.effects, c.trigger)
        for c in parsed
    )
    return C.Pack(pack_id, version, cards, rules, tuple(sorted(texts)), titles, content_hash(m, texts), source)
