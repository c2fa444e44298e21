"""Each game's position drawn as text for the replay viewer, for a game whose screen module gives no
board of its own for replays (``tcgtui.tui.games.replay_board``): a picture and a few facts,
drawn by the game's app side (``AppSide.replay``: its ``board``).

The picture (a grid, a mainline, a puzzle's code) is drawn left to right in
every language; the facts are localized sentences the viewer lays out in the
language's direction.  Everything is read from the rebuilt engine state, so
the replay shows what the rules held, hidden cards included: the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from tcgtui.app_side import app_for
from tcgtui.locales import Catalog


@dataclass
class Board:
    picture: list[Text] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)


def draw(replay: Any, index: int, cat: Catalog, lang: str) -> Board:
    """The position after ``index`` moves: the game's own picture (its app side's replay ``board``),
    else the facts its spec gives (``GameSpec.replay_facts``: a plug-in's game)."""
    own = app_for(replay.row.game).replay
    board = own.load().board if own is not None else None
    if board is not None:
        return board(replay.steps[index].state, replay.game, cat, None, lang)
    facts = replay.spec.replay_facts
    return Board([], list(facts(replay.steps[index].state, cat)) if facts is not None else [])
