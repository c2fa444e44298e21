"""The card game's board in the replay viewer: the widgets it is played on, at a stored position.

The game is over, so both hands are shown: as cards where the terminal is tall, else by name;
the person's seat, if one played, is at the bottom as it was when they played.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical

from tcgtui.engine.tcg.describe import shown_lp
from tcgtui.opponents.human import HUMAN
from tcgtui.tui.games import replay_board
from tcgtui.tui.games.tcg.cards import BOARD, HAND, CardRow, Slot
from tcgtui.tui.games.tcg.player import HiddenCards, PlayerBar, PlayerState
from tcgtui.tui.widgets import Localized


@replay_board("tcg")
class ReplayTable(Localized, Vertical):
    """Both players' bars, hands (by name) and champions, the bottom seat's nearest the reader."""

    SCOPED_CSS = False          # its rules name the screen around it (tall or not)
    DEFAULT_CSS = """
    ReplayTable { height: auto; }
    ReplayTable PlayerBar, ReplayTable HiddenCards { height: 1; }
    ReplayTable CardRow { height: 5; }
    ReplayTable CardRow.-empty { height: 1; }
    ReplayTable #replay-top-hidden, ReplayTable #replay-top-row { margin-bottom: 1; }
    ReplayTable .hand-row { display: none; }
    Screen.-tall ReplayTable .hand-row { display: block; }
    ReplayTable #replay-top-hand { margin-bottom: 1; }
    ReplayTable #replay-bottom-hand { margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        yield PlayerBar(id="replay-top-bar")
        yield HiddenCards(id="replay-top-hidden")
        yield CardRow(empty_key="tcg.ui.board.empty_hand", id="replay-top-hand", classes="hand-row")
        yield CardRow(empty_key="tcg.ui.board.no_champions", id="replay-top-row", classes="champions")
        yield CardRow(empty_key="tcg.ui.board.no_champions", id="replay-bottom-row", classes="champions")
        yield CardRow(empty_key="tcg.ui.board.empty_hand", id="replay-bottom-hand", classes="hand-row")
        yield HiddenCards(id="replay-bottom-hidden")
        yield PlayerBar(id="replay-bottom-bar")

    async def show_position(self, replay: Any, index: int) -> None:
        state = replay.steps[index].state
        seats = replay.row.seats
        bottom = 1 if len(seats) > 1 and seats[1].startswith(HUMAN) and not seats[0].startswith(HUMAN) else 0
        views = {seat: state.observation(seat) for seat in (0, 1)}
        names = self.screen.player_name                  # the replay screen's one way to name a seat

        def bar(seat: int) -> PlayerState:
            own = views[seat]
            return PlayerState(names(seat), shown_lp(own.lp[seat]), replay.game.pack.rules.starting_lp,
                               own.deck_sizes[seat], len(own.hand), len(own.my_tricks),
                               to_move=not state.is_terminal() and own.current_player == seat)

        def champions(seat: int) -> list[Slot]:
            own = views[seat]
            return [Slot(v.card, BOARD, champion=v, turn=own.turn, owner_to_move=own.current_player == seat)
                    for v in own.boards[seat]]

        tall = self.screen.has_class("-tall")          # room for the hands as cards, not a line of names
        for seat, where in ((1 - bottom, "top"), (bottom, "bottom")):
            hand = list(views[seat].hand)
            self.query_one(f"#replay-{where}-bar", PlayerBar).show(bar(seat))
            self.query_one(f"#replay-{where}-hidden", HiddenCards).show(len(hand) if tall else hand,
                                                                        list(views[seat].my_tricks))
            await self.query_one(f"#replay-{where}-row", CardRow).show(champions(seat))
            await self.query_one(f"#replay-{where}-hand", CardRow).show([Slot(c, HAND, index=i) for i, c in enumerate(hand)])
