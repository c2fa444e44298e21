"""The curtain between two people's turns at one keyboard (``tcgtui play --vs human``).

In a game with hidden information the board goes behind this screen whenever the
turn passes to the other person: a full screen, not a dialog, so nothing of the
last player's hand shows through.  The next player presses Enter once only they
can see the screen; the board then shows their seat.  An Enter within ``GUARD_S``
of the curtain coming down is the last player's own (a double press after playing
a card), not the next one's, and lifts nothing.  ``?``, ``L`` and ``Q`` work as on
the board.
"""

from __future__ import annotations

import time
from typing import Protocol

from rich.console import Group
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget

from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.keys import keys
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.session import GameSession
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar
from tcgtui.tui.widgets.title import TitleBar, game_text



class Seated(Protocol):
    """What the curtain asks of the board behind it (a game screen): the seat's name and the game."""

    session: GameSession

    def label_for(self, seat: int) -> str: ...


class CurtainText(Localized, Widget):
    """Who plays next and what to do, named as the board names the seat (in the current language)."""

    DEFAULT_CSS = "CurtainText { height: auto; }"

    def __init__(self, board: Seated, seat: int) -> None:
        super().__init__(id="curtain-text")
        self.board, self.seat = board, seat

    def render(self) -> RenderResult:
        d, who = self.direction, self.board.label_for(self.seat)
        blank = Line([Piece("")], d)
        return Group(Para(self.tr("ui.curtain.pass", who=who), d, "bold", justify="center"), blank,
                     Para(self.tr("ui.curtain.why", n=self.seat + 1), d, "italic", justify="center"), blank,
                     Para(self.tr("ui.curtain.press", who=who), d, justify="center"))


class CurtainScreen(LocalizedScreen[None]):
    AUTO_FOCUS = None
    GUARD_S = 0.6           # seconds in which Enter is still the last player's key
    BINDINGS = [
        Binding("enter,space", "show", show=False),
        Binding(keys("question_mark,f1"), "rules", show=False),
        Binding(keys("q"), "quit_game", show=False),
    ]

    def __init__(self, board: Seated, seat: int) -> None:
        super().__init__()
        self.board, self.seat = board, seat
        self.down_at = time.monotonic()

    def compose(self) -> ComposeResult:
        game = self.board.session.game.name
        yield TitleBar(lambda: self.tr("ui.curtain.title", game=game_text(self.catalog, game, "name")),
                       id="curtain-title")
        with Vertical(id="curtain-box"):
            yield CurtainText(self.board, self.seat)
        yield KeyBar([("⏎", "ui.curtain.keys.show", "show"), ("?", "ui.keys.rules", "rules"),
                      ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")], id="keys")

    def action_show(self) -> None:
        if time.monotonic() - self.down_at >= self.GUARD_S:
            self.dismiss(None)

    def action_rules(self) -> None:
        self.host.show_rules()

    def action_quit_game(self) -> None:
        self.host.confirm_quit()
