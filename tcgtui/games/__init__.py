"""Each game's app-side code (files, stores, ladders: the I/O its rules package may not do),
one package per game, ``tcgtui.games.<game id>``, named by nothing outside it but the game's
own screen, locale folder and tests.

A generic module reaches a game's part in a role (``baseline``: what an export may write of
its games) through ``app_side(game_id, role)``, found by name as screens are, so adding a game
edits no list here or there.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def app_side(game_id: str, role: str) -> ModuleType | None:
    """``tcgtui.games.<game, else its family>.<role>``, imported; None where the game has none."""
    from tcgtui.engine import registry
    try:
        info = registry.get(game_id).info
    except registry.UnknownGame:
        return None
    for folder in dict.fromkeys((info.id, info.locale_folder)):
        name = f"{__name__}.{folder}.{role}"
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:           # the game has no package here
            continue
        if found is not None:
            return importlib.import_module(name)
    return None
