"""Game after game in one app session, the TUI keeps nothing of the games it left
(issue 12 §3: 50,000 objects and 6 MB were kept per game, and every move got slower)."""

from __future__ import annotations

import gc
import weakref

import pytest
from textual.strip import Strip

from tests.tui.helpers import make_app, play_moves, settle

pytestmark = pytest.mark.anyio


def _strips() -> int:
    gc.unfreeze()          # the app freezes what survives a pass; count those too
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Strip))


async def test_a_rematch_releases_the_board_it_left_and_its_rendered_lines() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        first = weakref.ref(app.board)
        strips = []
        for _ in range(4):
            await play_moves(pilot, app)
            await pilot.press("r")
            await pilot.pause()
            await pilot.pause()
            strips.append(_strips())
        assert app.board is not first()
        assert first() is None, "the first game's board is still held after three rematches"
        # Rendered lines of boards that are gone are not kept: the count does not climb with every game.
        assert strips[-1] < strips[0] * 1.5, strips


async def test_a_board_is_frozen_only_with_code_that_loaded_while_it_was_on_screen() -> None:
    """Code that loads (a game's compiled search) is frozen out of the collector's passes with
    the board then on screen (``tcgtui.tui.memory``); boards after it are never frozen, so a
    rematch frees them without unfreezing (and walking) everything the app has loaded."""
    from tcgtui.tui import memory
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_moves(pilot, app, moves=1)
        memory.keep_loaded()                     # what the app does when the search has loaded
        frozen = gc.get_freeze_count()
        boards = [weakref.ref(app.board)]
        for _ in range(3):
            await play_moves(pilot, app)
            await pilot.press("r")
            await settle(pilot, app)
            boards.append(weakref.ref(app.board))
            assert gc.get_freeze_count() <= frozen, "a game's objects were frozen"
        gc.collect()
        assert all(b() is None for b in boards[1:-1]), "a board after the load is held after its rematch"
