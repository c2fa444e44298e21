"""Pictures of the main screens, in English and Arabic, small and large terminals.

Deterministic: seeded deals and players, no pause, the game worker awaited,
and the only clock on screen (seconds per move) zeroed before the picture.
Review changed SVGs in tests/__snapshots__ before accepting them.
"""

from __future__ import annotations

import pytest

from tcgtui.tui.screens.dialogs import Summary
from tests.tui.helpers import make_app, play_moves, settle

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "ar"]


async def start(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)


async def mid_game(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)
    for key in ("2", "1", "3"):
        if pilot.app.board.session.result is None:
            await pilot.press(key, "enter")
            await settle(pilot, pilot.app)
    await pilot.press("right")


async def rules(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)
    await pilot.press("question_mark")
    await pilot.pause()


async def game_over(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await play_moves(pilot, app)
    for decision in app.board.session.decisions:
        decision.seconds = 0.0
    app.screen.query_one(Summary).refresh()
    await pilot.pause()


SCENES = {"start": start, "mid": mid_game, "rules": rules, "over": game_over}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scene", list(SCENES))
def test_screen(snap_compare, scene: str, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = make_app(lang=lang, seed=7)
    assert snap_compare(app, terminal_size=size, run_before=SCENES[scene])


@pytest.mark.parametrize("lang", LANGS)
def test_handle_question(snap_compare, monkeypatch, lang: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("tcgtui.tui.screens.dialogs.secrets.randbelow", lambda n: 42)
    app = make_app(lang=lang, seed=7, ask_handle=True)
    assert snap_compare(app, terminal_size=(80, 24))
