"""The one-line header of the home and replay screens: what the screen is, in the language's direction."""

from __future__ import annotations

from typing import Callable

from textual.app import RenderResult
from textual.widget import Widget

from tcgtui.tui.bidi_text import Line, Piece
from tcgtui.tui.widgets import Localized


class TitleBar(Localized, Widget):
    DEFAULT_CSS = """
    TitleBar { dock: top; height: 1; background: $primary; color: $text; text-style: bold; padding: 0 1; }
    """

    def __init__(self, text: Callable[[], str], id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = text                       # called at each render, so it follows the language

    def render(self) -> RenderResult:
        return Line([Piece(self.text())], self.direction)
