"""The deck quiz in the replay viewer: the deck, the six options with the one chosen, and a wrong answer."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tcgtui.engine.core import Game
from tcgtui.locales import Catalog
from tcgtui.replay.boards import Board
from tcgtui.replay.steps import Replay


def board(state: Any, game: Game, cat: Catalog, last: Any, lang: str) -> Board:
    q = state.question
    picture = [Text(", ".join(f"{count}×{name}" for name, count in q.deck), style="dim")]
    for letter, option in zip("ABCDEF", q.options):
        style = "bold reverse" if letter == state.chosen else ""
        picture.append(Text(f"{letter}  {option.name}", style=style))
    facts = [cat.t("replay.board.deck", answer=q.answer)] if state.chosen else []
    return Board(picture, facts)


def mark(replay: Replay) -> None:
    for step in replay.steps[1:]:
        for e in step.events:
            if e.kind == "reveal" and not e.data.get("right"):
                step.moment = ("replay.moment.wrong_answer", {"answer": str(e.data.get("answer", ""))})
