"""Each game's app-side code (files, stores, ladders: the I/O its rules package may not do),
one package per game, ``tcgtui.games.<game id>``, named by nothing outside it but the game's
own screen, locale folder and tests."""
