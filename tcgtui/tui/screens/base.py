"""What every screen does about language, written once.

A screen that shows text mixes in ``LocalizedScreen``: the class ``rtl`` is set
when it mounts and whenever the language changes, ``L`` switches the language
(through the app, which relocalizes every screen on the stack), and
``relocalize`` recomposes its key bars and redraws its text; a screen with more
to redraw overrides ``localize``.
"""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

from tcgtui.tui.keys import keys
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar


R = TypeVar("R")


class _Localizing(Localized):
    """The shared part of ``LocalizedScreen`` and ``LocalizedModal``."""

    def on_mount(self) -> None:
        self.set_class(self.direction.rtl, "rtl")  # type: ignore[attr-defined]

    async def relocalize(self) -> None:
        """The language changed: flip the layout and redraw every text."""
        self.set_class(self.direction.rtl, "rtl")  # type: ignore[attr-defined]
        for bar in list(self.query(KeyBar)):  # type: ignore[attr-defined]
            await bar.recompose()
        await self.localize()

    async def localize(self) -> None:
        """Redraw text that does not follow the language by itself (default: every widget)."""
        widget: Widget
        for widget in self.query("*"):  # type: ignore[attr-defined]
            widget.refresh(layout=True)

    async def action_language(self) -> None:
        await self.host.toggle_language()


class LocalizedScreen(_Localizing, Screen[R]):
    BINDINGS = [Binding(keys("l"), "language", show=False)]


class LocalizedModal(_Localizing, ModalScreen[R]):
    BINDINGS = [Binding(keys("l"), "language", show=False)]
