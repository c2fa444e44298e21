"""Pictures of the grid games' screens and the home screen, in English and Arabic.

Seeded games against ``random``, no pause; each grid scene plays two moves of
the person (so the last move, an opponent's reply and the log show).  Review
changed SVGs in tests/grid/__snapshots__ before accepting them.
"""

from __future__ import annotations

import pytest

from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tests.tui.helpers import settle

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "ar"]
KEYS = {"tictactoe": ("enter", "up", "enter"), "connect4": ("4", "enter", "3", "enter"), "gomoku": ("enter", "up", "left", "enter")}


def scene(game: str):  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        app = pilot.app
        await settle(pilot, app)
        for key in KEYS[game]:
            if app.board.session.result is not None:
                break
            await pilot.press(key)
            await settle(pilot, app)
    return run


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(KEYS))
def test_grid_screen(snap_compare, game: str, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = ArenaApp(Settings((HUMAN, "random"), game_id=game, lang=lang, seed=7, pause=0.0))
    assert snap_compare(app, terminal_size=size, run_before=scene(game))


@pytest.mark.parametrize("lang", LANGS)
def test_home_screen(snap_compare, lang: str) -> None:  # type: ignore[no-untyped-def]
    app = ArenaApp(Settings(home=True, lang=lang, seed=7, pause=0.0))
    assert snap_compare(app, terminal_size=(80, 24))
