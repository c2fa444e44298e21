"""What the report keeps apart: runs that differ in anything that changes a result.

A row of every table is a player; games of one player that differ in prompt
style, protocol, pack, deck (or, on request, language or run) are not pooled:
the player's name carries the values that differ, e.g. ``llm:m [style=image]``.
``--by`` chooses the keys; the protocol is always one of them (a seed's protocol
and the arena's are different measurements).  A model's settings need no key:
the registry's settings hash is part of the stored player name itself.
Languages are a column of the win-rate, score and decision tables and of each
game's own tables that compare them, so ``lang`` joins the names only when asked.
"""

from __future__ import annotations

from typing import Callable, Sequence

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.report.data import StoredGame

DEFAULT_PROTOCOL = "tcgtui"


def _style(g: StoredGame, default: str) -> str:
    return str(g.params.get("prompt_style") or default)


def _deck(g: StoredGame, default: str) -> str:
    p = g.params
    parts = [str(p[k]) for k in ("deck", "opp_deck", "questions") if p.get(k)]
    return "/".join(parts) or "-"


READERS: dict[str, Callable[[StoredGame, str], str]] = {
    "style": _style,
    "protocol": lambda g, _: str(g.params.get("protocol") or DEFAULT_PROTOCOL),
    "lang": lambda g, _: g.lang,
    "pack": lambda g, _: g.pack or "-",
    "deck": _deck,
    "run": lambda g, _: g.run or "-",
}
KEYS = tuple(READERS)
DEFAULT = ("style", "protocol", "pack", "deck")
ALWAYS = ("protocol",)


def parse_by(text: str | None) -> tuple[str, ...]:
    """``--by style,lang``: the keys in order, the protocol added; an unknown key is one line."""
    if text is None:
        return DEFAULT
    keys = [k.strip() for k in text.split(",") if k.strip()]
    for k in keys:
        if k not in READERS:
            raise UserError(locales.load().t("cmd_report.errors.by", key=k, keys=", ".join(KEYS)))
    return tuple(dict.fromkeys([*keys, *ALWAYS]))


def apply(games: Sequence[StoredGame], keys: Sequence[str], default_style: str = "") -> tuple[list[str], dict[str, str]]:
    """Rename each game's players after the keys whose values differ among ``games``; return those
    keys and each new name's player.  Games that agree on every key keep their names."""
    cache: dict[tuple, tuple[str, ...]] = {}
    values = []
    for g in games:
        ident = (id(g.params), g.lang, g.pack, g.run)
        found = cache.get(ident)
        if found is None:
            found = cache[ident] = tuple(READERS[k](g, default_style) for k in keys)
        values.append(found)
    varied = [i for i, k in enumerate(keys) if len({v[i] for v in values}) > 1]
    base: dict[str, str] = {}
    if not varied:
        return [], base
    suffixes: dict[tuple[str, ...], str] = {}
    for g, v in zip(games, values):
        suffix = suffixes.get(v)
        if suffix is None:
            suffix = suffixes[v] = " [" + ", ".join(f"{keys[i]}={v[i]}" for i in varied) + "]"
        g.agent = g.agent + suffix
        base[g.agent] = g.agent[:-len(suffix)]
        if g.seats:
            g.seats = tuple(s + suffix for s in g.seats)
    return [keys[i] for i in varied], base
