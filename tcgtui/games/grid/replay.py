"""The grid games in the replay viewer: the board with the last stone marked, and the missed wins and blocks."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tcgtui.engine.core import INVALID, Game
from tcgtui.locales import Catalog
from tcgtui.replay.boards import Board
from tcgtui.replay.steps import Replay

STONES = ("X", "O")

STONE_STYLES = ("bold cyan", "bold magenta")


def _cells(cells: list[tuple[int, int]], gravity: bool) -> str:
    return ", ".join(str(c + 1) if gravity else f"{r + 1},{c + 1}" for r, c in cells)


def board(state: Any, game: Game, cat: Catalog, last: tuple[int, int] | None, lang: str) -> Board:
    cfg = state.config
    head = "   " + "".join(f"{c + 1:>3}" for c in range(cfg.cols))
    rows = [Text(head, style="dim")]
    for r in range(cfg.rows):
        line = Text(f"{r + 1:>3}", style="dim")
        for c in range(cfg.cols):
            v = state.board[r * cfg.cols + c]
            glyph = "·" if v == 0 else STONES[v - 1]
            style = "" if v == 0 else STONE_STYLES[v - 1]
            line.append("  ")
            line.append(glyph, style=style + (" reverse" if (r, c) == last else ""))
        rows.append(line)
    facts = [cat.t("replay.board.to_move", seat=state.current_player + 1)] if not state.is_terminal() else []
    return Board(rows, facts)


def draw(replay: Replay, index: int, cat: Catalog, lang: str) -> Board:
    """The position after ``index`` moves, the stone just placed marked."""
    step = replay.steps[index]
    last = None
    if index and not step.move.startswith(INVALID):
        last = replay.steps[index - 1].state.target(replay.game.move_from_text(step.move))
    return board(step.state, replay.game, cat, last, lang)


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
