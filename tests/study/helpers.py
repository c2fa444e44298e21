"""A small study, its app and a person's keys: shared by the study tests."""

from __future__ import annotations

from pathlib import Path

from tcgtui.store import Store
from tcgtui.study.joining import Joining
from tcgtui.study.roster import new_token
from tcgtui.study.spec import load_study
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.driving import settle

STUDY = '''
id = "ttt"
title = {{ en = "Noughts and crosses", ar = "إكس-أو" }}
consent = {{ en = "We record your moves under a pseudonym.", ar = "نسجل نقلاتك تحت اسم مستعار." }}
done = {{ en = "All done, thank you.", ar = "انتهيت، شكرا لك." }}
languages = ["en", "ar"]
games_per_rung = {per_rung}
practice = {practice}
[deals]
kind = "fresh"
[[games]]
game = "tictactoe"
ladder = {ladder}
'''


def write_study(tmp_path: Path, per_rung: int = 1, practice: int = 1, ladder: str = '["random", "mc:1"]',
                name: str = "study.toml") -> Path:
    path = tmp_path / name
    path.write_text(STUDY.format(per_rung=per_rung, practice=practice, ladder=ladder), encoding="utf-8")
    return path


def study_app(store: Store, path: Path, token: str | None = None, lang: str = "en") -> tuple[ArenaApp, Joining]:
    joining = Joining(store, load_study(path), token or new_token())
    return ArenaApp(Settings(home=True, lang=lang, pause=0.0, study=joining)), joining


async def play_tictactoe(pilot, app: ArenaApp) -> None:
    """Play free cells by the keys a person uses (walk the cursor, Enter) until the game ends."""
    board = app.board
    await settle(pilot, app)
    for _ in range(9):
        if board.session.result is not None:
            break
        obs = board.session.observation(board.session.viewer)
        r, c = next((r, c) for r in range(3) for c in range(3) if obs.board[r][c] == ".")
        while board.cursor != (r, c):
            dr = (r > board.cursor[0]) - (r < board.cursor[0])
            await pilot.press("down" if dr > 0 else "up" if dr < 0 else "right" if c > board.cursor[1] else "left")
        await pilot.press("enter")
        await settle(pilot, app)
