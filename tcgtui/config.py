"""The user's settings file: the anonymous handle a person plays under, the default game, and
the language last chosen on a screen.

The handle is asked once and kept here so every game of one person groups
together in reports; ``--name`` overrides it.  Nothing else about the person
is stored, here or in the database.  ``game = "ID"`` names the game commands
play when ``--game`` is not given (the card game unless set).  ``lang = "ar"`` is the language
the screens speak without ``--lang``: L, or home's language list, writes it, so the next start
speaks the language the person chose last.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.errors import UserError
from tcgtui.userfiles import parse_toml, read_text, write_atomic

ENV = "TCGTUI_CONFIG"
HANDLE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")      # the whole string: fullmatch


def config_path() -> Path:
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser()
    return Path(platformdirs.user_config_dir("tcgtui")) / "config.toml"


def check_handle(handle: str, source: str = "--name") -> str:
    if not isinstance(handle, str) or not HANDLE_RE.fullmatch(handle):
        raise UserError(locales.load().t("humans.bad_handle", source=source, handle=handle))
    return handle


def read_config() -> dict:
    path = config_path()
    if not path.exists():
        return {}
    source = read_text(ENV if os.environ.get(ENV) else "", path)
    try:
        return parse_toml(source)
    except ValueError as exc:
        raise UserError(locales.load().t("humans.bad_config", path=str(path), reason=str(exc))) from None


def saved_handle() -> str | None:
    handle = read_config().get("handle")
    return check_handle(handle, str(config_path())) if isinstance(handle, str) else None


def default_game() -> str:
    """The game played without ``--game``: the settings file's ``game``, else ``registry.DEFAULT``."""
    game = read_config().get("game")
    if game is None:
        return registry.DEFAULT
    if not isinstance(game, str) or game not in {s.id for s in registry.games()}:
        raise UserError(locales.load().t("humans.bad_default_game", path=str(config_path()), game=str(game),
                                         games=", ".join(s.id for s in registry.games())))
    return game


def saved_language() -> str:
    """The language of the screens without ``--lang``: the settings file's ``lang``, else English."""
    lang = read_config().get("lang")
    if lang is None:
        return locales.DEFAULT
    if not isinstance(lang, str) or lang not in locales.available():
        raise UserError(locales.load().t("humans.bad_language", path=str(config_path()), lang=str(lang),
                                         langs=", ".join(locales.available())))
    return lang


def save_handle(handle: str) -> Path:
    """Write the handle, keeping the file's other settings."""
    return _write(handle=check_handle(handle))


def save_language(lang: str) -> Path:
    """Keep the language a person chose on a screen for the next start, with the file's other settings."""
    if lang not in locales.available():
        raise ValueError(lang)
    return _write(lang=lang)


def _write(**changed: str) -> Path:
    """The file written whole: ``changed`` over what it held, only values known to be safe to write
    as they are (a handle that checks, a game's id, a language's code); anything else is dropped."""
    held = read_config()
    safe = {"handle": isinstance(held.get("handle"), str) and HANDLE_RE.fullmatch(held["handle"]) is not None,
            "game": held.get("game") in {s.id for s in registry.games()},
            "lang": held.get("lang") in locales.available()}
    values = {key: held[key] for key, ok in safe.items() if ok} | changed
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f'{key} = "{values[key]}"\n' for key in ("handle", "game", "lang") if key in values]
    return write_atomic(ENV if os.environ.get(ENV) else "", path, lines)
