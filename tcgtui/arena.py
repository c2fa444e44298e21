"""Which game a command plays: ``--game ID`` and its parameters, checked once.

Shared by play, watch, bench, rules and analyze.  A parameter may declare a flag
of its own (``Param.flag``: the card game's ``--pack``, the grid games'
``--position``); those flags are made here from the registered games, once each,
so no command lists them.  Any parameter can also be set with ``--param NAME=VALUE``.
A parameter of a file kind (``pack``, ``deck``, ...) is loaded here (the engine does no I/O).
"""

from __future__ import annotations

import argparse
from typing import Any, Iterable

from tcgtui.flags import GAME, PARAM
from tcgtui import locales
from tcgtui.config import default_game
from tcgtui.engine import registry
from tcgtui.engine.registry import GameSpec, Param, ParamError, UnknownGame
from tcgtui.errors import UserError
from tcgtui.referee import ready


def add_game_arguments(p: argparse.ArgumentParser, text: locales.Catalog,
                       games: Iterable[GameSpec] | None = None) -> None:
    """--game, --param and the flags of the parameters of ``games`` (default: every game)."""
    GAME.add(p, text.t("arena.game"))
    PARAM.add(p, text.t("arena.param"))
    add_param_flags(p, text, games)


def add_param_flags(p: argparse.ArgumentParser, text: locales.Catalog, games: Iterable[GameSpec] | None = None) -> None:
    """A flag for each parameter that declares one (``Param.flag``), its value under the parameter's
    name; a flag without a metavar lists its choices, which argparse checks."""
    for param in flag_params(games):
        if param.metavar:
            p.add_argument(param.flag, dest=param.name, default=None, metavar=param.metavar,
                           help=text.t(param.help_key))
        else:
            p.add_argument(param.flag, dest=param.name, default=None, choices=param.choices,
                           help=text.t(param.help_key))


def flag_params(games: Iterable[GameSpec] | None = None) -> list[Param]:
    """The parameters of ``games`` (default: every game) that have a flag, once per flag; games sharing
    a flag must declare it alike."""
    out: dict[str, Param] = {}
    for spec in registry.games() if games is None else games:
        for param in spec.info.params:
            if not param.flag:
                continue
            seen = out.setdefault(param.flag, param)
            if (seen.name, seen.metavar, seen.help_key, seen.choices) != \
                    (param.name, param.metavar, param.help_key, param.choices):
                raise TypeError(f"{param.flag}: {spec.id} declares it unlike another game")
    return list(out.values())


def game_spec(game_id: str) -> GameSpec:
    try:
        return registry.get(game_id)
    except UnknownGame as exc:
        raise UserError(f"--game: {exc.args[0]}") from None


def given_params(args: argparse.Namespace, spec: GameSpec) -> dict[str, Any]:
    """The parameters the command line sets, parsed and checked against the game."""
    text = locales.load()
    out: dict[str, Any] = {}
    for flagged in flag_params():
        value = getattr(args, flagged.name, None)
        if value is None:
            continue
        if not any(p.name == flagged.name for p in spec.info.params):
            raise UserError(text.t("arena.no_such_flag", flag=flagged.flag, game=spec.id))
        out[flagged.name] = value
    for item in getattr(args, "param", None) or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UserError(text.t("arena.bad_param", value=item))
        try:
            out[name.strip()] = spec.info.param(name.strip()).parse(value)
        except ParamError as exc:
            raise UserError(f"--param: {param_error_text(exc, text)}") from None
    try:
        resolved = spec.info.resolve(out)
    except ParamError as exc:
        raise UserError(f"--param: {param_error_text(exc, text)}") from None
    return resolved


def param_error_text(exc: ParamError, text: locales.Catalog) -> str:
    """What is wrong with a parameter, in the reader's language (the engine's ParamError says it in
    English only): the unknown name with the game's parameters, or the value with what was expected."""
    p = exc.param
    if p is None:
        spec = registry.get(exc.game)
        known = ", ".join(q.name for q in spec.info.params) or "-"
        return text.t("arena.param_error.unknown", game=exc.game, name=exc.name, known=known)
    return text.t("arena.param_error.value", name=p.name, value=exc.value, expected=expected_text(p, text))


def expected_text(p: Param, text: locales.Catalog) -> str:
    """The values a parameter takes, as ``param_error_text`` says them."""
    if p.choices:
        what = text.t("arena.param_error.choices", choices=", ".join(str(c) for c in p.choices))
    else:
        kind = {int: "int", float: "number"}.get(p.type, "text")
        if kind == "text" or p.low is None:
            what = text.t(f"arena.param_error.{kind}")
        elif p.high is None:
            what = text.t(f"arena.param_error.{kind}_least", low=f"{p.low:g}")
        else:
            what = text.t(f"arena.param_error.{kind}_range", low=f"{p.low:g}", high=f"{p.high:g}")
    return what + "".join(text.t("arena.param_error.word", word=w) for w, _ in p.words)


def load_resources(spec: GameSpec, params: dict[str, Any]) -> dict[str, Any]:
    """Parameters naming a file or a pack become what they hold, read here (the engine does no I/O):
    kind ``pack`` a loaded pack, ``jsonl`` ``{"path", "rows"}`` of a JSON Lines file, ``deck`` a deck
    list, ``questions`` a question set, ``upstream`` the user's checkout of a seed's repository.  An empty value means none; a value already loaded is kept."""
    out = dict(params)
    loaders = None
    for p in spec.info.params:
        if p.kind and isinstance(out.get(p.name), str):
            loaders = loaders or file_loaders(spec.id)
            flag = param_flag(p.name)
            if not out[p.name] and p.default:          # a file the game cannot do without (a pack), given empty
                raise UserError(f"{flag}: " + locales.load().t("arena.param_error.needed", default=p.default))
            out[p.name] = loaders[p.kind](flag, out[p.name]) if out[p.name] else None
    return out


def param_flag(name: str) -> str:
    """The flag that sets a parameter, as a message names it: its own flag, else ``--param NAME``."""
    return next((p.flag for p in flag_params() if p.name == name), f"--param {name}")


def file_loaders(game_id: str) -> dict[str, Any]:
    """Parameter kind -> ``loader(flag, value)``: the kinds every game may use (a seed's checkout, a
    JSON Lines file), then the game's own (``LOADERS`` of its app side's ``resources``)."""
    # start-up time: packs, question sets and checkouts are read only when a game names one
    from tcgtui.app_side import app_for
    from tcgtui.upstream import load as load_upstream
    own = app_for(game_id).resources
    return {"upstream": load_upstream, "jsonl": lambda flag, path: {"path": path, "rows": read_jsonl(path, flag)},
            **(own.load().LOADERS if own is not None else {})}


def read_jsonl(path: str, flag: str) -> list[Any]:
    """Every value of a JSON Lines file (blank lines skipped); one line naming the file and line if bad."""
    # start-up time: only a jsonl parameter reads a file
    from tcgtui.userfiles import TooDeep, numbered_lines, parse_json, read_text
    rows = []
    for number, line in numbered_lines(read_text(flag, path)):
        try:
            rows.append(parse_json(line))
        except ValueError as exc:
            why = str(exc) if isinstance(exc, TooDeep) else "not JSON"
            raise UserError(f"{flag}: {path}, line {number}: {why}") from None
    return rows


def build_game(spec: GameSpec, params: dict[str, Any]) -> Any:
    """The game object; a position or setting the rules refuse is one line."""
    try:
        return spec.make(load_resources(spec, params))
    except ValueError as exc:
        raise UserError(f"--game {spec.id}: {exc}") from None


def game_from_args(args: argparse.Namespace) -> tuple[GameSpec, Any]:
    spec = variant(game_spec(getattr(args, "game", None) or default_game()), args)
    game = build_game(spec, given_params(args, spec))
    ready(spec, game)
    return spec, game


def variants(spec: GameSpec) -> list[tuple[GameSpec, str]]:
    """The variants of a game, each with the parameter that selects it (``GameInfo.variant_of``):
    ``--game duel --bank FILE`` plays the puzzle bank."""
    return [(other, other.info.variant_of.param) for other in registry.games()
            if other.info.variant_of is not None and other.info.variant_of.game == spec.id]


def variant_flag(param: str) -> str:
    """How a user sets a variant's parameter: its own flag, else ``--param NAME=VALUE``."""
    flagged = next((p for p in flag_params() if p.name == param), None)
    return f"{flagged.flag} {flagged.metavar or param.upper()}" if flagged else f"--param {param}=VALUE"


def variant(spec: GameSpec, args: argparse.Namespace) -> GameSpec:
    """The game the command line names: ``spec``, or its variant whose parameter is given."""
    named = [item.partition("=")[0].strip() for item in getattr(args, "param", None) or []]
    flagged = {p.name for p in flag_params()}
    for other, param in variants(spec):
        if param in named or (param in flagged and getattr(args, param, None) is not None):
            return other
    return spec


def game_name(spec: GameSpec, text: locales.Catalog) -> str:
    """A game's name in a language (``<locale folder>.games.<id>.name``)."""
    return text.t(f"{spec.info.locale_folder}.games.{spec.id}.name")


def game_description(spec: GameSpec, text: locales.Catalog) -> str:
    return text.t(f"{spec.info.locale_folder}.games.{spec.id}.description")
