"""What the report keeps apart: runs that differ in anything that changes a result.

A row of every table is a player; games of one player that differ in prompt
style, protocol, the keys a game's setup adds (``ReportHooks.group_keys``: the card game's
pack and deck lists), any of the game's parameters (or, on request,
language or run) are not pooled: the player's name carries the values that
differ, e.g. ``llm:m [style=image]`` or ``llm:m [move_cap=20]``.  ``--by`` chooses
the keys; the protocol, the game's parameters and whether a time budget cut some
of a game's decisions short (``budget_cut``) are always among them (a short game
and a full-length one, a seed's protocol and the arena's, a search cut at one
second and a whole one, are different measurements).  A parameter's value is
read from the game's stored setup, a value missing there being the parameter's
default: every parameter added so far was added with the behaviour before it as
its default, so an old game and one given that default explicitly are the same key.  A file's parameter is keyed by its
content (``Param.digest``); parameters set game by game within a run are no key
(``Param.keyed``): a game records how such a value was chosen as a keyed parameter of its own
(Eleusis's ``rule_from``: a bench game stored before it has it read from its run, ``data.load_games``;
any other holds none and is its own key, ``-``).  A model's settings need no key: the registry's settings hash is
part of the stored player name itself.  Languages are a column of the win-rate,
score and decision tables and of each game's own tables that compare them, so
``lang`` joins the names only when asked.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any, Callable, Sequence

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.registry import Param
from tcgtui.errors import UserError
from tcgtui.report.data import StoredGame
from tcgtui.store.db import BUDGET_CUT, UNTIL

DEFAULT_PROTOCOL = "tcgtui"


def _style(g: StoredGame, default: str) -> str:
    return str(g.params.get("prompt_style") or default)


def _digest(content: Any) -> str:
    """A file's content as a short key: its digest as stored, or one of its JSON."""
    text = content if isinstance(content, str) else hashlib.sha256(
        json.dumps(content, sort_keys=True).encode()).hexdigest()
    return text[:12]


# Keys every game has, before and after the ones games declare (``ReportHooks.group_keys``).
FIRST: dict[str, Callable[[StoredGame, str], str]] = {
    "style": _style,
    "protocol": lambda g, _: str(g.params.get("protocol") or DEFAULT_PROTOCOL),
    "lang": lambda g, _: g.lang,
}
LAST: dict[str, Callable[[StoredGame, str], str]] = {
    "run": lambda g, _: g.run or "-",
    # decisions a time budget cut short (the TUI's games while the fast path compiles): never pooled
    # with whole ones, at the game's level (its result) or a decision's (its time, its strength)
    BUDGET_CUT: lambda g, _: "yes" if g.params.get(BUDGET_CUT) else "no",
    # a sequential run's games (bench --until, its width): their intervals are anytime-valid, and a
    # run that stopped on what it saw is never pooled with one of fixed size
    UNTIL: lambda g, _: str(g.params.get(UNTIL) or "-"),
}
ALWAYS = ("protocol", BUDGET_CUT, UNTIL)


@cache
def readers() -> dict[str, Callable[[StoredGame, str], str]]:
    """Every ``--by`` key and its reader: the common ones, and each registered game's own in registry order."""
    own = {k: f for spec in registry.games() for k, f in spec.report.group_keys.items()}
    return {**FIRST, **own, **LAST}


def default_keys() -> tuple[str, ...]:
    return ("style", "protocol", *(k for spec in registry.games() for k in spec.report.default_keys))


def parse_by(text: str | None) -> tuple[str, ...]:
    """``--by style,lang``: the keys in order, ALWAYS's added; an unknown key is one line."""
    if text is None:
        return tuple(dict.fromkeys([*default_keys(), *ALWAYS]))
    keys = [k.strip() for k in text.split(",") if k.strip()]
    for k in keys:
        if k not in readers():
            raise UserError(locales.load().t("cmd_report.errors.by", key=k, keys=", ".join(readers())))
    return tuple(dict.fromkeys([*keys, *ALWAYS]))


def keyed_params(params: Sequence[Param]) -> tuple[Param, ...]:
    """The parameters reports keep results apart by."""
    return tuple(p for p in params if p.keyed)


def param_value(p: Param, setup: dict[str, Any]) -> str:
    """A parameter's value in a game's stored setup (its default when the setup has none), as a
    key: a file's parameter by its content's digest, ``name@digest``."""
    value = setup.get(p.name, p.default)
    if value is not None and not isinstance(value, p.type) and not isinstance(value, (dict, list)):
        try:
            value = p.type(value)           # 5 and 5.0 of a float parameter are one key
        except (TypeError, ValueError):
            pass
    shown = "-" if value in ("", None) else p.shown(value)
    content = setup.get(p.digest) if p.digest else None
    return shown if content is None else f"{shown}@{_digest(content)}"


def all_keys(keys: Sequence[str], params: Sequence[Param]) -> list[str]:
    """The keys games are kept apart by: ``keys``, then the game's keyed parameters."""
    return list(dict.fromkeys([*keys, *(p.name for p in keyed_params(params))]))


def apply(games: Sequence[StoredGame], keys: Sequence[str], default_style: str = "",
          params: Sequence[Param] = ()) -> tuple[list[str], dict[str, str]]:
    """Rename each game's players after the keys whose values differ among ``games`` (``keys``, then
    the game's keyed ``params``; a key named like a parameter reads it its own way, the pack by the
    store's pack columns, whether ``keys`` name it or not); return those keys and each new name's
    player.  Games that agree on every key keep their names."""
    read = readers()
    by_name = {p.name: p for p in keyed_params(params) if p.name not in read}
    keys = all_keys(keys, params)
    cache: dict[tuple, tuple[str, ...]] = {}
    values = []
    for g in games:
        ident = (id(g.params), g.lang, g.pack, g.run)
        found = cache.get(ident)
        if found is None:
            found = cache[ident] = tuple(param_value(by_name[k], g.params) if k in by_name
                                         else read[k](g, default_style) for k in keys)
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


def settings_rows(games: Sequence[StoredGame], params: Sequence[Param]) -> list[dict[str, Any]]:
    """``report --settings``: every parameter the games were played with, one row per run and set of
    keyed values, each game counted once; a parameter that varies within a row (not keyed, like a
    drawn rule) shows how many values it took."""
    keyed = keyed_params(params)
    rows: dict[tuple, dict[str, Any]] = {}
    for g in games:
        if g.mirror:
            continue
        key = (g.run, *(param_value(p, g.params) for p in keyed))
        row = rows.get(key)
        if row is None:
            row = rows[key] = {"run": g.run or "-", "games": 0,
                               **{p.name: set() for p in params}}
        row["games"] += 1
        for p in params:
            row[p.name].add(param_value(p, g.params))
    for row in rows.values():
        for p in params:
            found = sorted(row[p.name])
            row[p.name] = found[0] if len(found) == 1 else f"{len(found)} values"
    return list(rows.values())
