"""Each game's app-side code (files, stores, ladders: the I/O its rules package may not do),
one package per game, ``tcgtui.games.<game id>``, named by nothing outside it but the game's
own screen, locale folder and tests.

A generic module reaches a game's part in a role (``baseline``: what an export may write of
its games; ``figures``: the report figures it draws itself) through
``tcgtui.app_side.app_side(game_id, role)``, found by name as screens are, so adding a game
edits no list here or there.
"""
