"""The card game's board moved to ``tcgtui.tui.games.tcg``; this name stays for old imports."""

from tcgtui.tui.games.tcg import PLAY_KEYS, WATCH_KEYS, BoardScreen

__all__ = ["BoardScreen", "PLAY_KEYS", "WATCH_KEYS"]
