"""Which game a command plays: ``--game ID`` and its parameters, checked once.

Shared by play, watch, bench, report, baseline and analyze.  ``--pack`` is the
card games' parameter ``pack`` and ``--position``/``--to-move`` the grid
games' ``position``/``to_move``, kept as flags of their own because users
type them most; any parameter can also be set with ``--param NAME=VALUE``.
A parameter of kind ``pack`` is loaded here (the engine does no I/O).
"""

from __future__ import annotations

import argparse
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.protocols import PROTOCOLS
from tcgtui.engine.registry import GameSpec, ParamError, UnknownGame
from tcgtui.errors import UserError
from tcgtui.referee import ready

SHORTCUTS = {"pack": "pack", "deck": "deck", "opp_deck": "opp_deck", "position": "position", "to_move": "to_move",
             "protocol": "protocol", "upstream": "upstream"}


def add_game_arguments(p: argparse.ArgumentParser, text: locales.Catalog, *, pack: bool = True,
                       position: bool = True) -> None:
    p.add_argument("--game", default=registry.DEFAULT, metavar="ID", help=text.t("arena.game"))
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help=text.t("arena.param"))
    if pack:
        p.add_argument("--pack", default=None, metavar="DIR", help=text.t("arena.pack"))
        add_deck_arguments(p, text)
    if position:
        p.add_argument("--position", default=None, metavar="ROWS", help=text.t("arena.position"))
        p.add_argument("--to-move", dest="to_move", default=None, metavar="X|O", help=text.t("arena.to_move"))
    add_protocol_arguments(p, text)
    for flag, (name, help_key) in game_shortcuts().items():
        p.add_argument(f"--{flag.replace('_', '-')}", dest=flag, default=None, metavar=name.upper(),
                       help=text.t(help_key))


def add_protocol_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    """--protocol and --upstream: the games' parameters ``protocol`` and ``upstream`` (engine/protocols.py)."""
    p.add_argument("--protocol", default=None, choices=PROTOCOLS, help=text.t("arena.protocol"))
    p.add_argument("--upstream", default=None, metavar="DIR", help=text.t("arena.upstream"))


def game_shortcuts() -> dict[str, tuple[str, str]]:
    """Flags games add for a parameter (``extras["shortcuts"]``: flag -> (parameter, help key))."""
    out: dict[str, tuple[str, str]] = {}
    for spec in registry.games():
        for flag, target in dict(spec.extras.get("shortcuts") or {}).items():
            out.setdefault(flag, tuple(target))
    return out


def add_deck_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    """--deck and --opp-deck: the deck lists of a game whose parameters take them (the card game)."""
    p.add_argument("--deck", default=None, metavar="FILE", help=text.t("arena.deck"))
    p.add_argument("--opp-deck", dest="opp_deck", default=None, metavar="FILE", help=text.t("arena.opp_deck"))


def game_spec(game_id: str) -> GameSpec:
    try:
        return registry.get(game_id)
    except UnknownGame as exc:
        raise UserError(f"--game: {exc.args[0]}") from None


def given_params(args: argparse.Namespace, spec: GameSpec) -> dict[str, Any]:
    """The parameters the command line sets, parsed and checked against the game."""
    text = locales.load()
    out: dict[str, Any] = {}
    shortcuts = {**SHORTCUTS, **{flag: target[0] for flag, target in game_shortcuts().items()}}
    for flag, name in shortcuts.items():
        value = getattr(args, flag, None)
        if value is None:
            continue
        if not any(p.name == name for p in spec.info.params):
            raise UserError(text.t("arena.no_such_flag", flag="--" + flag.replace("_", "-"), game=spec.id))
        out[name] = value
    for item in getattr(args, "param", None) or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UserError(text.t("arena.bad_param", value=item))
        try:
            out[name.strip()] = spec.info.param(name.strip()).parse(value)
        except ParamError as exc:
            raise UserError(f"--param: {exc}") from None
    try:
        resolved = spec.info.resolve(out)
    except ParamError as exc:
        raise UserError(f"--param: {exc}") from None
    return resolved


def load_resources(spec: GameSpec, params: dict[str, Any]) -> dict[str, Any]:
    """Parameters naming a file or a pack become what they hold, read here (the engine does no I/O):
    kind ``pack`` a loaded pack, ``jsonl`` ``{"path", "rows"}`` of a JSON Lines file, ``deck`` a deck
    list, ``questions`` a question set, ``upstream`` the user's checkout of a seed's repository.  An empty value means none; a value already loaded is kept."""
    out = dict(params)
    loaders = None
    for p in spec.info.params:
        if p.kind and isinstance(out.get(p.name), str):
            loaders = loaders or _file_loaders()
            flag = param_flag(p.name)
            out[p.name] = loaders[p.kind](flag, out[p.name]) if out[p.name] else None
    return out


def param_flag(name: str) -> str:
    """The flag that sets a parameter, as a message names it: its shortcut, else ``--param NAME``."""
    flags = {**{target: flag for flag, target in SHORTCUTS.items()},
             **{target[0]: flag for flag, target in game_shortcuts().items()}}
    return "--" + flags[name].replace("_", "-") if name in flags else f"--param {name}"


def _file_loaders() -> dict[str, Any]:
    # start-up time: packs, question sets and checkouts are read only when a game names one
    from tcgtui.packs import load_pack, read_deck
    from tcgtui.questions import load_set
    from tcgtui.upstream import load as load_upstream
    return {"upstream": load_upstream, "pack": lambda flag, name: load_pack(name), "deck": read_deck, "questions": load_set,
            "jsonl": lambda flag, path: {"path": path, "rows": read_jsonl(path, flag)}}


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
    spec = variant(game_spec(getattr(args, "game", None) or registry.DEFAULT), args)
    game = build_game(spec, given_params(args, spec))
    ready(spec, game)
    return spec, game


def variants(spec: GameSpec) -> list[tuple[GameSpec, str]]:
    """The variants of a game, each with the parameter that selects it (``extras["variant_of"]``:
    (the game's id, parameter)): ``--game duel --bank FILE`` plays the puzzle bank."""
    out = []
    for other in registry.games():
        parent, param = tuple(other.extras.get("variant_of") or ("", ""))
        if parent == spec.id:
            out.append((other, param))
    return out


def variant_flag(param: str) -> str:
    """How a user sets a variant's parameter: its shortcut flag, else ``--param NAME=VALUE``."""
    for flag, target in game_shortcuts().items():
        if target[0] == param:
            return f"--{flag.replace('_', '-')} {param.upper()}"
    return f"--param {param}=VALUE"


def variant(spec: GameSpec, args: argparse.Namespace) -> GameSpec:
    """The game the command line names: ``spec``, or its variant whose parameter is given."""
    for other, param in variants(spec):
        flags = [flag for flag, target in game_shortcuts().items() if target[0] == param]
        named = [item.partition("=")[0].strip() for item in getattr(args, "param", None) or []]
        if param in named or any(getattr(args, flag, None) is not None for flag in flags):
            return other
    return spec


def game_name(spec: GameSpec, text: locales.Catalog) -> str:
    """A game's name in a language (``<locale folder>.games.<id>.name``)."""
    return text.t(f"{spec.info.locale_folder}.games.{spec.id}.name")


def game_description(spec: GameSpec, text: locales.Catalog) -> str:
    return text.t(f"{spec.info.locale_folder}.games.{spec.id}.description")
