"""The grid games in the replay viewer: the missed wins and blocks (the board is the one played on:
``tcgtui.tui.games.grid.ReplayGridBoard``)."""

from __future__ import annotations

from tcgtui.engine.core import INVALID
from tcgtui.replay.steps import Replay

board = None        # the position is drawn by the screen's widget (``tcgtui.tui.games.replay_board``)


def _cells(cells: list[tuple[int, int]], gravity: bool) -> str:
    return ", ".join(str(c + 1) if gravity else f"{r + 1},{c + 1}" for r, c in cells)


def mark(replay: Replay) -> None:
    # start-up time: only a grid game's replay needs its analysis
    from tcgtui.engine.grid.analysis import blocks, immediate_wins
    for before, step in zip(replay.steps, replay.steps[1:]):
        state = before.state
        if step.move.startswith(INVALID) or state.is_terminal():
            continue
        cell = state.target(replay.game.move_from_text(step.move))
        gravity = state.config.gravity
        wins = immediate_wins(state, step.seat)
        threats = [] if wins else blocks(state)
        if wins and cell not in wins:
            step.moment = ("replay.moment.missed_win", {"cells": _cells(wins, gravity)})
        elif threats and cell not in threats:
            step.moment = ("replay.moment.missed_block", {"cells": _cells(threats, gravity)})
