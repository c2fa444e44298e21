"""Each game's app-side code (files, stores, ladders: the I/O its rules package may not do),
one package per game, ``tcgtui.games.<game id>``, named by nothing outside it but the game's
own screen, locale folder and tests.

Each package declares its games' app side once, in its ``__init__``:
``register_app(game_id, AppSide(...))`` (``tcgtui/app_side.py``: the roles, each a module with a
typed shape, and the screen).  A generic module reaches a game's part through ``app_for(game_id)``,
so adding a game edits no list here or there.
"""
