"""The moves that decided a game, marked on a replay's steps.

Each game's test is the one its report already counts, asked of one position:
the grid games' missed wins and blocks (``engine.grid.analysis``), lethal in
the card game (a card that ends the game now, or a reply to the opponent's),
Eleusis's wrong guesses, a duel's failed checks, the deck quiz's wrong answer.
A mark is a locale key under ``replay.moment`` and its parameters (moves as a tuple of
their texts, which the viewer names in its language).
"""

from __future__ import annotations

from typing import Any, Callable

from tcgtui.engine import registry
from tcgtui.engine.core import INVALID
from tcgtui.replay.steps import Replay, Step

Mark = tuple[str, dict[str, Any]]


def _cells(cells: list[tuple[int, int]], gravity: bool) -> str:
    return ", ".join(str(c + 1) if gravity else f"{r + 1},{c + 1}" for r, c in cells)


def grid(replay: Replay) -> None:
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


def _wins_now(state: Any, seat: int) -> list[str]:
    """The cards ``seat`` (to move) could play that end the game in its favour at once."""
    out = []
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        if after.outcome is not None and after.outcome.winner == seat:
            out.append(move)
    return out


def tcg(replay: Replay) -> None:
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


def eleusis(replay: Replay) -> None:
    for step in replay.steps[1:]:
        for e in step.events:
            if e.kind == "guess" and not e.data.get("correct"):
                step.moment = ("replay.moment.wrong_guess", {"rule": str(e.data.get("code") or e.data.get("rule") or "")})


def duel(replay: Replay) -> None:
    for step in replay.steps[1:]:
        for e in step.events:
            if e.kind == "checked" and e.data.get("result") != "true":
                key = "replay.moment.sample_failed" if e.data.get("purpose") == "sample" else "replay.moment.answer_failed"
                step.moment = (key, {"result": str(e.data.get("result", ""))})


def deck(replay: Replay) -> None:
    for step in replay.steps[1:]:
        for e in step.events:
            if e.kind == "reveal" and not e.data.get("right"):
                step.moment = ("replay.moment.wrong_answer", {"answer": str(e.data.get("answer", ""))})


MARKERS: dict[str, Callable[[Replay], None]] = {"grid": grid, "tcg": tcg, "eleusis": eleusis, "duel": duel,
                                                 "deck": deck}


def family(game_id: str) -> str:
    return registry.get(game_id).info.family or game_id


def mark(replay: Replay) -> None:
    marker = MARKERS.get(family(replay.row.game))
    if marker is not None:
        marker(replay)


def marked(steps: list[Step]) -> list[int]:
    """The indices of the steps that carry a mark."""
    return [s.index for s in steps if s.moment is not None]
