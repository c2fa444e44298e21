"""Eleusis in the replay viewer: the mainline with its rejected cards, the hand, and the wrong guesses."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tcgtui.engine.core import Game
from tcgtui.locales import Catalog
from tcgtui.replay.boards import Board
from tcgtui.replay.steps import Replay


def board(state: Any, game: Game, cat: Catalog, last: Any, lang: str) -> Board:
    main = Text()
    for i, (card, rejected) in enumerate(state.board):
        if i:
            main.append("  ")
        main.append(card.symbol() if card is not None else "?", style="bold")
        if rejected:
            main.append("[" + " ".join(c.symbol() for c in rejected) + "]", style="red")
    hand = Text(" ".join(c.symbol() for c in state.hand), style="dim")
    facts = [cat.t("replay.board.eleusis", turn=state.turns, hand=len(state.hand), deck=len(state.deck))]
    return Board([main, Text(""), hand], facts)


def mark(replay: Replay) -> None:
    for step in replay.steps[1:]:
        for e in step.events:
            if e.kind == "guess" and not e.data.get("correct"):
                step.moment = ("replay.moment.wrong_guess", {"rule": str(e.data.get("code") or e.data.get("rule") or "")})
