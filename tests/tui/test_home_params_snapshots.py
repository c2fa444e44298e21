"""Pictures of home's options at 80×24 and 120×40, in English and Arabic: Eleusis's (a number typed
in, the option in focus explained in the about box) and tic-tac-toe's (a choice moved with the arrows).
Home without a store (the pictures do not depend on the clock).  Review changed SVGs in
tests/tui/__snapshots__ first."""

from __future__ import annotations

import pytest

from textual.widgets import Input

from tcgtui.opponents.human import HUMAN
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.screens.home import ChoiceList

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "ar"]
# game: (the option focused, the keys pressed in it)
OPTIONS = {"eleusis": ("max_turns", ("backspace", "backspace", "1", "2")), "tictactoe": ("to_move", ("down", "down"))}


@pytest.mark.parametrize("game_id", list(OPTIONS))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_home_options(snap_compare, lang: str, size: tuple[int, int], game_id: str) -> None:  # type: ignore[no-untyped-def]
    app = ArenaApp(Settings(home=True, lang=lang, seed=7, pause=0.0, seats=(HUMAN, "mc:100")))
    name, keys = OPTIONS[game_id]

    async def set_option(pilot) -> None:  # type: ignore[no-untyped-def]
        games = app.screen.query_one("#games", ChoiceList)
        games.focus()
        await pilot.press(*["down"] * games.values.index(game_id))
        field = app.screen.query_one(f"#param-{game_id}-{name}")
        if isinstance(field, Input):
            field.cursor_blink = False          # a picture does not depend on when the cursor blinked
        field.focus()
        await pilot.press("end", *keys)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=set_option)
