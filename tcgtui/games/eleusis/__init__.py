"""Eleusis's app side: the ``tcgtui eleusis`` command (rules and guesses checked outside a game)."""
