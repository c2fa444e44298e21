"""The rules of the game on screen, in the reader's language.

The text is the game's own (the registry's ``rules_text``, or what the game's
screen adds, such as the card game's cards); this screen only lays it out:
sentences grouped into sections titled from ``cmd_rules.section.<head>`` (or the
game's ``<folder>.ui.rules.section.<head>``).  The screen knows no rule itself.
"""

from __future__ import annotations

from typing import Callable

from rich.console import Group, RenderableType
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget

from tcgtui.locales import Catalog
from tcgtui.tui.bidi_text import Direction, Line, Para, Piece
from tcgtui.tui.keys import keys
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar

RulesSource = Callable[[Catalog, Direction], list[RenderableType]]


def _known(cat: Catalog, key: str) -> bool:
    return cat.has(key) or (cat.fallback is not None and cat.fallback.has(key))


def rules_lines(sentences: list[tuple[str, str]], cat: Catalog, d: Direction,
                folder: str = "") -> list[RenderableType]:
    """A title, then each sentence as a bullet under its section's title."""
    out: list[RenderableType] = [Line([Piece(cat.t("ui.rules.title"), "bold reverse")], d)]
    if not sentences:
        return out + [Para(cat.t("ui.rules.missing"), d, "italic")]
    section = None
    for key, text in sentences:
        head = key.rpartition(".")[0]
        if head != section:
            section = head
            out.append(Line([Piece("")], d))
            for title in (f"{folder}.ui.rules.section.{head}" if folder else "", f"cmd_rules.section.{head}"):
                if title and _known(cat, title):
                    out.append(Line([Piece(cat.t(title), "bold underline")], d))
                    break
        out.append(Para("• " + text, d))   # logical start: the right edge in Arabic
    return out


class RulesText(Localized, Widget):
    def __init__(self, source: RulesSource | None = None) -> None:
        super().__init__()
        self.source = source

    def render(self) -> RenderResult:
        if self.source is None:
            return Group(*rules_lines([], self.catalog, self.direction))
        return Group(*self.source(self.catalog, self.direction))


class RulesScreen(LocalizedScreen[None]):
    AUTO_FOCUS = "#rules-scroll"
    BINDINGS = [
        Binding(keys("escape,q,question_mark,f1"), "close", show=False),
        Binding(keys("l"), "language", show=False),
    ]

    def __init__(self, source: RulesSource | None = None) -> None:
        super().__init__()
        self.source = source

    def compose(self) -> ComposeResult:
        yield KeyBar([("Esc", "ui.keys.close", "close"), ("↑↓", "ui.keys.scroll", "noop"),
                      ("L", "ui.keys.language", "language")], id="keys")
        with VerticalScroll(id="rules-scroll"):
            yield RulesText(self.source)

    async def localize(self) -> None:
        self.query_one(RulesText).refresh(layout=True)

    def action_close(self) -> None:
        self.dismiss()

    def action_noop(self) -> None:
        """The scroll hint is only a hint."""
