"""The grid games' app side: how the replay viewer shows them (``replay``)."""

from tcgtui.app_side import AppSide, Role, register_app

_SIDE = AppSide(replay=Role("tcgtui.games.grid.replay"), figures=Role("tcgtui.games.grid.figures"),
                screen="tcgtui.tui.games.grid:GridScreen")
for _game in ("tictactoe", "connect4", "gomoku"):
    register_app(_game, _SIDE)
