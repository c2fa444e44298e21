"""The card game in the replay viewer: lethal not taken or not answered (the board is the one played
on: ``tcgtui.tui.games.tcg.replay.ReplayTable``)."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import INVALID
from tcgtui.replay.steps import Replay

board = None        # the position is drawn by the screen's widget (``tcgtui.tui.games.replay_board``)


def _wins_now(state: Any, seat: int) -> list[str]:
    """The cards ``seat`` (to move) could play that end the game in its favour at once."""
    out = []
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        if after.outcome is not None and after.outcome.winner == seat:
            out.append(move)
    return out


def mark(replay: Replay) -> None:
    """Lethal not taken: a card would have won now and another was played.  Lethal not answered:
    after the card played the opponent could win at once, and some other card would have stopped it."""
    for before, step in zip(replay.steps, replay.steps[1:]):
        state, seat = before.state, step.seat
        if seat < 0 or step.move.startswith(INVALID) or state.is_terminal():
            continue
        lethal = _wins_now(state, seat)
        if lethal and step.move not in lethal:
            step.moment = ("replay.moment.lethal_missed", {"cards": tuple(lethal)})     # named by the viewer
            continue
        if step.state.is_terminal() or step.state.current_player == seat or _wins_now(step.state, 1 - seat) == []:
            continue
        safe = []
        for move in state.legal_moves():
            after = state.clone()
            after.apply(move)
            if after.outcome is None and after.current_player != seat and not _wins_now(after, 1 - seat):
                safe.append(move)
        if safe:
            step.moment = ("replay.moment.lethal_unanswered", {"cards": tuple(safe)})
