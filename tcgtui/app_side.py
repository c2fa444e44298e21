"""A game's app-side module in a role, found by name under ``tcgtui.games.<game>`` (a plug-in
game's: ``<its package>.<role>``; ``tcgtui/games/__init__.py`` says what a role is).  Apart from
that package so that generic modules reach a game's part without importing ``tcgtui.games`` itself
(the games' modules build on those generic modules)."""


from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from tcgtui.engine import registry


def app_side(game_id: str, role: str) -> ModuleType | None:
    """``tcgtui.games.<game, else its family>.<role>`` (a plug-in's ``<package>.<role>``), imported;
    None where the game has none."""
    try:
        info = registry.get(game_id).info
    except registry.UnknownGame:
        return None
    origin = registry.origin(game_id)
    places = [origin] if origin is not None else [f"tcgtui.games.{f}" for f in dict.fromkeys((info.id, info.locale_folder))]
    for place in places:
        name = f"{place}.{role}"
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:           # the game has no package here
            continue
        if found is not None:
            return importlib.import_module(name)
    return None
