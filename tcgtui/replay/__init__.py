"""Replaying a stored game move by move (``tcgtui replay GAME_ID`` and the home screen's "your games").

``load`` finds the game and rebuilds it from its seed, parameters and moves
through the engine; ``boards`` draws each game's position as text;
``moments`` marks the decisions that decided it.  No Textual here: the
viewer is ``tcgtui.tui.screens.replay``.
"""
