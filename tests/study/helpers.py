"""A small study, its app and a person's keys: shared by the study tests."""

from __future__ import annotations

from pathlib import Path

from tcgtui.store import Store
from tcgtui.study.joining import Joining
from tcgtui.study.roster import new_token
from tcgtui.study.spec import load_study
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.driving import play_free_cells

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
    """Play free cells by the keys a person uses until the game ends."""
    await play_free_cells(pilot, app)
