"""Game rules, card packs, states and moves: no UI and no I/O."""

from tcgtui.engine.core import Event, Game, GameRecord, GameState, IllegalMove, Match, Outcome, replay

__all__ = ["Event", "Game", "GameRecord", "GameState", "IllegalMove", "Match", "Outcome", "replay"]
