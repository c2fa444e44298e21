"""Toasts read in the reader's direction: in Arabic each line of a notification is shaped and
reordered after wrapping to the toast's width (Textual would wrap the reordered text and its lines
would read bottom to top), and a toast is plain text, never markup."""

from __future__ import annotations

import pytest
from textual.widgets._toast import Toast

from tcgtui import locales
from tcgtui.opponents.human import HUMAN
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.bidi_text import Direction, Para

pytestmark = pytest.mark.anyio


async def shown(app: ArenaApp, pilot) -> str:
    for _ in range(20):
        await pilot.pause(0.05)
        toasts = list(app.screen.query(Toast))
        if toasts:
            return str(toasts[-1]._notification.message)
    return list(app._notifications)[-1].message


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_an_arabic_toast_is_wrapped_then_reordered(size) -> None:
    app = ArenaApp(Settings(home=True, lang="ar", seed=1, pause=0.0, seats=(HUMAN, "mc:100")))
    message = locales.load("ar").t("humans.saved_unfinished", game="1234abcd", moves=7) * 2
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.notify(message)
        text = await shown(app, pilot)
    width = min(60, size[0] // 2) - 4
    assert text.split("\n") == Para(message, Direction(True, "app")).lines(width)
    assert len(text.split("\n")) > 1 and text != message
    assert list(app._notifications)[-1].said == message          # what was said, in reading order


async def test_a_toast_is_never_markup() -> None:
    app = ArenaApp(Settings(home=True, lang="en", seed=1, pause=0.0, seats=(HUMAN, "mc:100")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.notify("model said [bold]hi[/bold] [link=x]y")
        assert await shown(app, pilot) == "model said [bold]hi[/bold] [link=x]y"
        assert app._exception is None
