"""A player's numbers: name, LP with a bar, deck size; the other side's hidden cards."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import RenderResult
from textual.widget import Widget

from tcgtui.tui.bidi_text import Line, Piece
from tcgtui.tui.widgets import Localized
from tcgtui.tui.games.tcg.cards import card_pack


@dataclass(frozen=True)
class PlayerState:
    label: str
    lp: int
    start_lp: int
    deck: int
    hand: int = 0
    tricks: int = 0
    to_move: bool = False


def lp_style(lp: int, full: int) -> str:
    share = lp / full if full else 0
    return "bold green" if share > 0.6 else "bold yellow" if share > 0.3 else "bold red"


class PlayerBar(Localized, Widget):
    """Name, LP bar and deck size on one line; the bar fills from the reading side."""

    DEFAULT_CSS = "PlayerBar { height: 1; }"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state: PlayerState | None = None

    def show(self, state: PlayerState) -> None:
        if state != self.state:
            self.state = state
            self.refresh()

    def render(self) -> RenderResult:
        s = self.state
        if s is None:
            return ""
        full = max(s.start_lp, s.lp, 1)
        width = max(5, min(20, self.size.width // 6))
        filled = round(width * max(0, s.lp) / full)
        style = lp_style(s.lp, full)
        marker = (" ◀" if self.direction.rtl else "▶ ") if s.to_move else "  "
        return Line([Piece(marker, "bold", shrink=False), Piece(s.label, "bold"), Piece("  ", shrink=False),
                     Piece(self.tr("tcg.ui.player.lp")), Piece(" ", shrink=False),
                     Piece("█" * filled, style.replace("bold ", ""), shrink=False),
                     Piece("░" * (width - filled), "dim", shrink=False), Piece(" ", shrink=False),
                     Piece(str(s.lp), style, shrink=False), Piece("  ", shrink=False),
                     Piece(self.tr("tcg.ui.player.deck")), Piece(" ", shrink=False),
                     Piece(str(s.deck), "bold", shrink=False)], self.direction)


class HiddenCards(Localized, Widget):
    """What is known of a hand and face-down tricks: backs and counts, or names for a spectator."""

    DEFAULT_CSS = "HiddenCards { height: 1; }"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hand: int | list[str] = 0
        self.tricks: int | list[str] = 0

    def show(self, hand: int | list[str], tricks: int | list[str]) -> None:
        if (hand, tricks) != (self.hand, self.tricks):
            self.hand, self.tricks = hand, tricks
            self.refresh()

    def _group(self, label_key: str, cards: int | list[str]) -> list[Piece]:
        label = Piece(self.tr(label_key), "dim")
        if isinstance(cards, int):
            return [label, Piece(" ", shrink=False), Piece("▮" * cards, "magenta", shrink=False),
                    Piece(" ", shrink=False), Piece(str(cards), "bold", shrink=False)]
        names = [card_pack(self).card(c).name(self.catalog.code) for c in cards]
        shown = self.tr("ui.player.list_sep").join(names) if names else self.tr("ui.player.none")
        return [label, Piece(" ", shrink=False), Piece(shown)]

    def render(self) -> RenderResult:
        return Line(self._group("tcg.ui.player.hand", self.hand) + [Piece("   ", shrink=False)]
                    + self._group("tcg.ui.player.tricks", self.tricks), self.direction)
