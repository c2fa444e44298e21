"""The one-line header of the home and replay screens: what the screen is, in the language's direction;
the titles on their panes' borders and the games' names they show."""

from __future__ import annotations

from typing import Callable

from rich.markup import escape
from textual.app import RenderResult
from textual.widget import Widget

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.tui.bidi_text import Direction, Line, Piece, display_line
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


def game_text(catalog: locales.Catalog, game_id: str, what: str) -> str:
    """A game's localized name or description, from its own locale folder (its id where it has none)."""
    key = f"{registry.get(game_id).info.locale_folder}.games.{game_id}.{what}"
    if catalog.has(key) or (catalog.fallback is not None and catalog.fallback.has(key)):
        return catalog.t(key)
    return game_id


def titled(box: Widget, text: str, direction: Direction) -> None:
    """Put ``text`` on ``box``'s border as the terminal must print it (shaped, cut, reordered)."""
    box.border_title = escape(display_line(text, max(8, (box.size.width or 40) - 4), direction))
