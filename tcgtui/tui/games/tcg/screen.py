"""The card game's board (TCG-Bench): one screen for playing and for watching.

The game runs in a worker (``run_match`` through ``GameSession``); this screen
is the session's view.  It reads only the observation of the seat it shows at
the bottom, so a person never sees what their seat may not.  A spectator sees
both hands.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Sequence

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical

from tcgtui.engine.core import Event
from tcgtui.engine.tcg import Pack
from tcgtui.engine.tcg.describe import card_text, rules_sentences, shown_lp
from tcgtui.engine.tcg.observation import TcgObservation
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.tui.bidi_text import Direction, Line, Para, Piece
from tcgtui.tui.games.base import Column, GameScreen
from tcgtui.tui.keys import DIGITS, TypedNumber
from tcgtui.tui.games.tcg.narration import narrate
from tcgtui.tui.screens.rules import rules_lines
from tcgtui.tui.session import DECIDE, START, GameSession
from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.games.tcg.cards import BOARD, HAND, TRICK, CardRow, Picked, Slot
from tcgtui.tui.games.tcg.detail import DetailPane
from tcgtui.tui.widgets.log import BattleLog
from tcgtui.tui.games.tcg.player import HiddenCards, PlayerBar, PlayerState
from tcgtui.tui.widgets.stream import StreamPanel
from tcgtui.tui.widgets.text import Caption

PLAY_KEYS = [("←→ 1-9", "ui.keys.select", "move(1)"), ("⏎", "ui.keys.play", "play"),
             ("?", "ui.keys.rules", "rules"), ("L", "ui.keys.language", "language"),
             ("Q", "ui.keys.quit", "quit_game")]
WATCH_KEYS = [("Space", "ui.keys.pause", "pause"), ("N", "ui.keys.step", "step"),
              ("+/-", "ui.keys.speed", "speed(1)"), ("?", "ui.keys.rules", "rules"),
              ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]

# Where an event falls in a turn; the top bar shows the phase of the latest one shown.
PHASE_OF = {START: "draw", DECIDE: "main", "turn": "draw", "draw": "draw", "no_cards": "draw", "deck_empty": "draw",
            "summon": "main", "cast": "main", "set_trick": "main",
            "attack": "combat", "block": "combat", "attack_stopped": "combat",
            "end_turn": "end", "game_over": "over"}


def split_stages(events: Sequence[Event]) -> list[list[Event]]:
    """A move's events cut where combat and the end of the turn begin, so an
    opponent's move can be narrated in steps a person can follow."""
    stages: list[list[Event]] = [[]]
    started: set[str] = set()
    for e in events:
        if e.kind in ("attack", "end_turn") and e.kind not in started:
            started.add(e.kind)
            if stages[-1]:
                stages.append([])
        stages[-1].append(e)
    return [s for s in stages if s]


class BoardScreen(GameScreen):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    PANE_TITLES = {"#detail": "tcg.ui.detail.title", "#log": "ui.log.title", "#stream": "ui.stream.title"}
    BINDINGS = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        *[Binding(d, f"pick({d})", show=False) for d in DIGITS],
        Binding("enter", "play", show=False),
    ]

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__(session, streams=streams, note=note)
        session.stager, session.phase_of = split_stages, PHASE_OF
        self.selected = 0
        self.typed = TypedNumber()
        self.hand: tuple[str, ...] = ()

    @property
    def pack(self) -> Pack:
        return self.session.game.pack  # type: ignore[attr-defined,no-any-return]

    # --- hooks -----------------------------------------------------------------------

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        return narrate(event, seat, catalog, self.pack)

    def rules(self, catalog: Catalog, direction: Direction) -> list[RenderableType]:
        """The rules with this pack's numbers, then every card of the pack with its text."""
        game = self.session.game                   # the game's own rules text (--protocol seed has its own)
        return rules_lines(game.spec.rules_text(game, catalog),
                           catalog, direction) + self.cards(catalog, direction)

    def cards(self, catalog: Catalog, d: Direction) -> list[RenderableType]:
        lang, pack, tr = catalog.code, self.pack, catalog.t
        out: list[RenderableType] = [Line([Piece("")], d),
                                     Line([Piece(tr("tcg.ui.rules.cards", pack=pack.names.get(lang) or pack.id),
                                                 "bold reverse")], d)]
        for card in pack.cards:
            pieces = [Piece(card.name(lang), "bold"), Piece(" · ", shrink=False),
                      Piece(tr(f"cards.type.{card.type}"), "italic")]
            if card.type == "champion":
                pieces += [Piece(" · ", shrink=False), Piece(tr("cards.stat.power")),
                           Piece(" ", shrink=False), Piece(str(card.power), "bold", shrink=False),
                           Piece(" · ", shrink=False), Piece(tr("cards.stat.guard")),
                           Piece(" ", shrink=False), Piece(str(card.guard), "bold", shrink=False)]
            out += [Line([Piece("")], d), Line(pieces, d), Para(card_text(card, catalog), d)]
        return out

    def summary_columns(self) -> list[Column]:
        state = self.session.match.state
        return [("tcg.ui.over.lp", 4, [str(shown_lp(state.lp[seat])) for seat in range(len(self.session.seats))])]

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top", phases="tcg.ui.phase", phase="draw", your_move_key="tcg.ui.top.your_move")
        yield KeyBar(WATCH_KEYS if self.session.spectating else PLAY_KEYS, id="keys")
        with Horizontal(id="main"):
            with Vertical(id="side"):
                yield DetailPane(id="detail")
                yield BattleLog(self.narrate, id="log")
                if self.streams:
                    yield StreamPanel(id="stream")
            with Vertical(id="board"):
                yield PlayerBar(id="top-bar")
                yield HiddenCards(id="top-hidden")
                yield CardRow(empty_key="tcg.ui.board.no_champions", id="top-row", classes="champions")
                yield CardRow(empty_key="tcg.ui.board.no_champions", id="bottom-row", classes="champions")
                with Horizontal(id="tricks"):
                    yield Caption("tcg.ui.player.tricks", classes="label")
                    yield CardRow(chips=True, empty_key="ui.player.none", id="trick-row")
                yield PlayerBar(id="bottom-bar")
                yield CardRow(empty_key="tcg.ui.board.empty_hand", id="hand")

    async def on_mount(self) -> None:
        top = self.query_one(TopBar)
        top.show(players=(self.label_for(self.session.viewer), self.label_for(1 - self.session.viewer)),
                 seed=self.session.seed, watch=self._watch_state(), note=self.note)
        self.query_one(DetailPane).show(None)
        self.run_game()

    # --- the end ---------------------------------------------------------------------

    async def game_ended(self, result: MatchResult | None) -> None:
        await self.redraw()
        self.query_one(TopBar).show(phase="over", thinking=None, your_move=False,
                                    watch=None)   # nothing plays any more: no "Playing 0.25s"

    # --- SessionView -----------------------------------------------------------------

    async def show_events(self, events: Sequence[Event], by: int | None, final: bool) -> None:
        with self.app.batch_update():      # one repaint for the log and bars, not one per widget
            await self.query_one(BattleLog).add(events, self.log_seat)
            self.query_one(TopBar).show(phase=self.session.phase, turn=self.session.match.state.turn)
            if by is not None and by != self.session.viewer:
                self._show_play(events, by)
        if final:
            await self.redraw(spread=True)

    def _show_play(self, events: Sequence[Event], by: int) -> None:
        for e in events:
            if e.player != by or e.kind not in ("summon", "cast", "set_trick"):
                continue
            seen = e if self.session.spectating else e.for_seat(self.session.viewer)
            card = seen.data.get("card")
            detail = self.query_one(DetailPane)
            if card is None:
                detail.show(None, "tcg.ui.detail.set_hidden", who=self.label_for(by))
            else:
                detail.show(Slot(card, TRICK if e.kind == "set_trick" else HAND),
                            "tcg.ui.detail.played", who=self.label_for(by))
            return

    def show_thinking(self, seat: int | None) -> None:
        self.query_one(TopBar).show(thinking=None if seat is None else self.label_for(seat),
                                    your_move=False)
        if seat is not None and self.streams:
            self.query_one(StreamPanel).clear()

    def ask_human(self, seat: int) -> None:
        self.query_one(TopBar).show(your_move=True, thinking=None, phase="main")
        self._show_selected()
        self.collect_garbage_soon()

    # --- drawing ---------------------------------------------------------------------

    def _player_state(self, obs: TcgObservation, seat: int) -> PlayerState:
        mine = seat == obs.seat
        return PlayerState(self.label_for(seat), shown_lp(obs.lp[seat]), self.pack.rules.starting_lp,
                           obs.deck_sizes[seat], len(obs.hand) if mine else obs.opp_hand_size,
                           len(obs.my_tricks) if mine else obs.opp_trick_count,
                           to_move=obs.current_player == seat)

    async def redraw(self, spread: bool = False) -> None:
        """Show the viewer's observation.  ``spread``: after a move, the board and the hand
        each get a frame of their own, after the log's, so that no frame paints a whole move
        (each is a few milliseconds of a 60 Hz screen, and a key is handled between them)."""
        if spread:
            await self.wait_for_refresh()
        s = self.session
        me = s.viewer
        other = 1 - me
        obs = s.observation(me)
        self.hand = obs.hand
        self.selected = max(0, min(self.selected, len(obs.hand) - 1))

        def champions(seat: int) -> list[Slot]:
            return [Slot(v.card, BOARD, champion=v, turn=obs.turn,
                         owner_to_move=obs.current_player == seat) for v in obs.boards[seat]]

        with self.app.batch_update():
            self.query_one("#top-bar", PlayerBar).show(self._player_state(obs, other))
            self.query_one("#bottom-bar", PlayerBar).show(self._player_state(obs, me))
            hidden = self.query_one(HiddenCards)
            if s.spectating:
                theirs = s.observation(other)
                hidden.show(list(theirs.hand), list(theirs.my_tricks))
            else:
                hidden.show(obs.opp_hand_size, obs.opp_trick_count)
            await self.query_one("#top-row", CardRow).show(champions(other))
            await self.query_one("#bottom-row", CardRow).show(champions(me))
        if spread:
            await self.wait_for_refresh()
        with self.app.batch_update():
            await self.query_one("#trick-row", CardRow).show([Slot(c, TRICK) for c in obs.my_tricks])
            await self.query_one("#hand", CardRow).show(
                [Slot(c, HAND, index=i) for i, c in enumerate(obs.hand)],
                self.selected)
            self.query_one(TopBar).show(turn=obs.turn, limit=obs.turn_limit, watch=self._watch_state())

    def _choosing(self) -> bool:
        return self.session.human_waiting() is not None

    def _show_selected(self) -> None:
        if not self.hand:
            return
        self.query_one(DetailPane).show(Slot(self.hand[self.selected], HAND, index=self.selected))

    async def _select(self, index: int) -> None:
        if not self.hand:
            return
        self.selected = index % len(self.hand)
        row = self.query_one("#hand", CardRow)
        await row.show(row.slots, self.selected)
        self._show_selected()

    async def reseat(self) -> None:
        """Another person's seat on screen: nothing of the last one's hand stays in the detail pane."""
        self.selected = 0
        self.query_one(DetailPane).show(None)
        await super().reseat()

    async def localize(self) -> None:
        """The language changed (the layout is flipped already): redraw every text."""
        top = self.query_one(TopBar)
        top.show(players=(self.label_for(self.session.viewer), self.label_for(1 - self.session.viewer)))
        await self.redraw()
        for widget in self.query("*"):
            widget.refresh(layout=True)

    # --- actions ---------------------------------------------------------------------

    async def action_move(self, delta: int) -> None:
        if self.direction.rtl:
            delta = -delta
        self.typed.reset()
        await self._select(self.selected + delta)

    async def action_pick(self, digit: int) -> None:
        """Digits select a card of the hand (1 then 2 typed quickly: the twelfth); Enter plays it."""
        number = self.typed.type(digit, len(self.hand), time.monotonic())
        if number is not None:
            await self._select(number - 1)

    async def action_play(self) -> None:
        self.typed.reset()          # the next digit starts a new number
        if not self.hand or not self._choosing():
            if not self.session.spectating and self.session.result is None:
                self.notify(self.tr("ui.notify.wait"), timeout=2)
            return
        card = self.hand[self.selected]
        if self.session.choose(card):
            self.query_one(TopBar).show(your_move=False)

    async def on_picked(self, message: Picked) -> None:
        slot = message.slot
        if slot.zone == HAND and slot.index >= 0:
            if slot.index == self.selected and self._choosing():
                await self.action_play()
            else:
                await self._select(slot.index)
            return
        self.query_one(DetailPane).show(slot)

