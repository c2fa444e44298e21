"""The selected card in full: name, type, stats in their own cells, and its text."""

from __future__ import annotations

from rich.console import Group, RenderableType
from textual.app import RenderResult
from textual.widget import Widget

from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.describe import card_text
from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.widgets import Localized
from tcgtui.tui.games.tcg.cards import Slot, card_pack, champion_status, stat_style


class DetailPane(Localized, Widget):
    """Shows one card; a caption says why (your selection, or the opponent's last play)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.slot: Slot | None = None
        self.caption: tuple[str, dict[str, object]] | None = None

    def show(self, slot: Slot | None, caption: str | None = None, **params: object) -> None:
        shown = (caption, params) if caption else None
        if (slot, shown) == (self.slot, self.caption):
            return                  # the same card and caption: no layout after a move
        height = self._text_height()
        self.slot, self.caption = slot, shown
        self.refresh()
        if self._text_height() != height:
            self.refresh(layout=True)   # its height follows its text; the same height is a repaint

    def _text_height(self) -> int | None:
        """Lines the pane's text takes at its width (None before it is laid out)."""
        width = self.content_size.width
        if not self.is_mounted or not width:
            return None
        return self.get_content_height(self.parent.size if self.parent else self.size, self.app.size, width)

    def _stats(self, card: C.Card) -> Line:
        ch = self.slot.champion if self.slot else None
        power, guard = (ch.power, ch.guard) if ch else (card.power, card.guard)
        pieces = [Piece(self.tr(f"cards.type.{card.type}"), "italic")]
        if card.type == C.CHAMPION:
            pieces += [Piece(" · ", shrink=False), Piece(self.tr("cards.stat.power")), Piece(" ", shrink=False),
                       Piece(str(power), stat_style(power, card.power), shrink=False),
                       Piece(" · ", shrink=False), Piece(self.tr("cards.stat.guard")), Piece(" ", shrink=False),
                       Piece(str(guard), stat_style(guard, card.guard), shrink=False)]
        return Line(pieces, self.direction)

    def render(self) -> RenderResult:
        d = self.direction
        rows: list[RenderableType] = []
        if self.caption:
            key, params = self.caption
            rows.append(Line([Piece(self.tr(key, **params), "italic dim")], d))
        if self.slot is None:
            rows.append(Para(self.tr("tcg.ui.detail.hint"), d, "dim"))
            return Group(*rows)
        card = card_pack(self).card(self.slot.card)
        rows += [Line([Piece(card.name(self.catalog.code), "bold")], d), self._stats(card)]
        if self.slot.champion is not None:
            key, style = champion_status(self.slot, card)
            rows.append(Line([Piece(self.tr(key), style)], d))
        rows.append(Para(card_text(card, self.catalog), d))
        return Group(*rows)
