"""The card game's screen and the widgets only it draws (cards, hands, champion panes, the battle log's sentences).

Importing the package registers its screen (``screen.BoardScreen``), as a screen module does, and
its replay's table (``replay.ReplayTable``).
"""

from tcgtui.tui.games.tcg.replay import ReplayTable
from tcgtui.tui.games.tcg.screen import PHASE_OF, PLAY_KEYS, WATCH_KEYS, BoardScreen, split_stages

__all__ = ["BoardScreen", "ReplayTable", "PHASE_OF", "PLAY_KEYS", "WATCH_KEYS", "split_stages"]
