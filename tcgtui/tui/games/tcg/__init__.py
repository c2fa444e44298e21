"""The card game's screen and the widgets only it draws (cards, hands, champion panes, the battle log's sentences).

Importing the package registers its screen (``screen.BoardScreen``), as a screen module does.
"""

from tcgtui.tui.games.tcg.screen import PLAY_KEYS, WATCH_KEYS, BoardScreen

__all__ = ["BoardScreen", "PLAY_KEYS", "WATCH_KEYS"]
