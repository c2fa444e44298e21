"""Localized text widgets: a caption by catalogue key, wrapped prose, one-line labels."""

from __future__ import annotations

from textual.app import RenderResult
from textual.widget import Widget

from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.widgets import Localized


class Caption(Localized, Widget):
    """Text from the catalogue, looked up at render time so it follows the language."""

    def __init__(self, key: str, *, wrap: bool = False, style: str = "", justify: str | None = None,
                 id: str | None = None, classes: str | None = None, **params: object) -> None:
        super().__init__(id=id, classes=classes)
        self.key, self.wrap, self.style, self.params = key, wrap, style, params
        self.justify = justify

    def set(self, key: str, **params: object) -> None:
        self.key, self.params = key, params
        self.refresh(layout=True)

    def render(self) -> RenderResult:
        text = self.tr(self.key, **self.params)
        if self.wrap:
            return Para(text, self.direction, self.style, self.justify)
        return Line([Piece(text, self.style)], self.direction, justify=self.justify)
