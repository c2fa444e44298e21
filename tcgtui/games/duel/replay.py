"""The puzzle duel in the replay viewer: the round's puzzle and score, and the failed checks."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tcgtui.engine.core import Game
from tcgtui.locales import Catalog
from tcgtui.replay.boards import Board
from tcgtui.replay.steps import Replay


def board(state: Any, game: Game, cat: Catalog, last: Any, lang: str) -> Board:
    facts = [cat.t("replay.board.duel", wins1=state.wins[0], wins2=state.wins[1], pen1=state.penalties[0],
                   pen2=state.penalties[1])]
    cur = state.current
    picture: list[Text] = []
    if cur is not None:
        facts.append(cat.t("replay.board.round", round=cur.number, proposer=cur.proposer + 1))
        picture = [Text(line) for line in (cur.code or "").rstrip().splitlines()]
        if cur.value is not None:
            picture.append(Text(f"x = {cur.value}", style="bold"))
    return Board(picture, facts)


def mark(replay: Replay) -> None:
    for step in replay.steps[1:]:
        for e in step.events:
            if e.kind == "checked" and e.data.get("result") != "true":
                key = "replay.moment.sample_failed" if e.data.get("purpose") == "sample" else "replay.moment.answer_failed"
                step.moment = (key, {"result": str(e.data.get("result", ""))})
