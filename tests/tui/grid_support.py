"""The grid games for the TUI tests, registered here only while branch ``grid`` does not
register them itself (its package holds the rules; registration lands with its narrator)."""

from __future__ import annotations

from tcgtui.engine import registry
from tcgtui.engine.registry import GameInfo, GameSpec, Param

GRID_IDS = ("tictactoe", "connect4", "gomoku")


def ensure_grid() -> None:
    registry.games()
    try:
        from tcgtui.engine.grid.game import GridGame
    except ImportError:
        return
    for gid in GRID_IDS:
        if gid in registry._REGISTRY:
            continue
        registry.register(GameSpec(
            GameInfo(gid, seats=2, family="grid",
                     params=(Param("invalid_limit", int, None, low=0), Param("move_cap", int, None, low=1),
                             Param("position", str, ""), Param("to_move", str, ""))),
            make=lambda p, gid=gid: GridGame.from_params(gid, p)))
