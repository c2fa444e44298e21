"""Each game's app-side code (files, stores, ladders: the I/O its rules package may not do),
one package per game, ``tcgtui.games.<game id>``, named by nothing outside it but the game's
own screen, locale folder and tests.

Each package declares its games' app side once, in its ``__init__``:
``register_app(game_id, AppSide(...))`` (``tcgtui/app_side.py``: the roles, each a module with a
typed shape, and the screen).  A generic module reaches a game's part through ``app_for(game_id)``,
so adding a game edits no list here or there.
"""

from __future__ import annotations

import importlib.util
import pkgutil


def own_modules(folder: str) -> list[tuple[str, str]]:
    """Every game package's modules in its ``folder`` (``commands``, ``perf``) as (name, module path), game by
    game, found without importing them: a game adds a command or a benchmark by adding a file."""
    out = []
    for game in pkgutil.iter_modules(__path__):
        spec = importlib.util.find_spec(f"{__name__}.{game.name}.{folder}") if game.ispkg else None
        for mod in pkgutil.iter_modules(spec.submodule_search_locations or []) if spec else ():
            out.append((mod.name, f"{__name__}.{game.name}.{folder}.{mod.name}"))
    return out
