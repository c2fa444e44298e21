"""What every game's screen shares: the game worker, the session's view calls that
are the same for every game, names of seats, and the hooks the shared screens
(rules, game over) and the app call.

A game's screen subclasses ``GameScreen``, composes its own board and registers
itself with ``tcgtui.tui.games.register``.  The shared screens never look
inside a game: they ask its screen.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any, ClassVar, Sequence

from rich.console import RenderableType
from rich.markup import escape
from textual import work
from textual.binding import Binding
from textual.widget import Widget

from tcgtui import compile_cache
from tcgtui.engine.core import Event, Game
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.opponents.human import HUMAN
from tcgtui.opponents.spec import parse_spec
from tcgtui.tui.bidi_text import Direction, display_line
from tcgtui.tui.keys import keys
from tcgtui.tui import memory
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.screens.curtain import CurtainScreen
from tcgtui.tui.screens.rules import rules_lines
from tcgtui.tui.session import GameSession
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.widgets.log import BattleLog
from tcgtui.tui.widgets.stream import StreamPanel

SPECTATOR = -1                         # the viewer who sees every seat (a watched game)
WATCH_ONLY = {"pause", "step", "speed"}   # actions of a spectator, not of a player
SEARCH_KINDS = ("mc", "mcts")          # players that search with the game's compiled code
TITLE_WIDTH = 40                       # a pane not laid out yet: cut its title here
NOTICE_S = 8                           # the compile notice: read once, then out of the log's way

# The footer once the game is over (the board stays readable behind the game-over dialog's "B").
OVER_KEYS = [("R", "ui.keys.rematch", "rematch"), ("?", "ui.keys.rules", "rules"),
             ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]


def uses_fast(spec: Any, kind: str) -> bool:
    """Whether players of ``kind`` decide on the game's compiled search: the search players, and
    a reference that declares it (``Reference.fast``: the card game's ``nmc``)."""
    ref = spec.reference(kind)
    return kind in SEARCH_KINDS or (ref is not None and ref.fast)


Column = tuple[str, int, list[str]]     # a game-over table column: title key, minimum width, a value per seat


class GameScreen(LocalizedScreen[None]):
    """The board of one game; the session's view while the game runs."""

    # Keys every game's screen has (its own moves are bound by the game's screen).
    BINDINGS: ClassVar[list[Binding]] = [
        Binding(keys("question_mark,f1"), "rules", show=False),
        Binding(keys("q"), "quit_game", show=False),
        Binding(keys("r"), "rematch", show=False),
        Binding("space", "pause", show=False),
        Binding(keys("n,full_stop"), "step", show=False),
        Binding("plus,equals_sign", "speed(1)", show=False),
        Binding("minus", "speed(-1)", show=False),
    ]

    RACES: ClassVar[bool] = False          # it shows a race's rival beside the person's own round (--race)
    # Panes named on their border (selector -> locale key), in the reader's language.
    PANE_TITLES: ClassVar[dict[str, str]] = {}
    AUTO_FOCUS = None

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None, classes: str | None = None) -> None:
        super().__init__(classes=classes if classes is not None else
                         ("watch" if session.spectating else "play"))
        self.session = session
        self.streams = streams
        self.note = note
        self.failure: BaseException | None = None
        self.busy = False       # the screen's own work on the person's move is under way (a guess judged)
        self.pane_titles = dict(self.PANE_TITLES)
        session.view = self

    # --- hooks for the app (class level: called before a screen exists) -----------

    @classmethod
    def setup_dialog(cls, settings: Any) -> Any:
        """A dialog that completes the game's parameters before it is built (``Settings.setup``):
        a modal screen that dismisses with a dict of parameters, or None to leave.  Default: none."""
        return None

    @classmethod
    def warm_up(cls, host: Any, game: Game, seats: Sequence[str]) -> None:
        """Make the game's compiled search ready in the background while the person reads the
        board, and set ``host.search_ready`` when it is; until then search players decide on the
        game's interim path (``GameSpec.interim``, else the core API), so nobody waits for it.

        With an empty numba cache (a new install) the compile runs in a child process, so
        this process keeps the GIL for the screen, and a notice says for a few seconds what
        happens, that it happens once and that the opponent plays meanwhile (on the interim
        path); the code is then loaded from the cache in a thread (about 1 s)."""
        spec = game.spec
        if spec.fast is None or not any(s != HUMAN and uses_fast(spec, parse_spec(s).kind) for s in seats):
            host.search_ready.set()
            return
        host.search_ready.clear()
        cold = not compile_cache.is_filled(game.name)
        if cold:
            host.notify(host.catalog.t("ui.notify.compiling"), timeout=NOTICE_S)

        def prepare() -> None:
            try:
                if cold:
                    host.compiling = compile_cache.ChildCompile(game.name)
                    if not host.compiling.wait():
                        return             # stopped (the app is closing) or failed: the search compiles as it plays
                spec.fast().warm_up(game)
                compile_cache.mark_filled(game.name)
            finally:
                if host.is_running:
                    host.call_from_thread(host.search_prepared, cold)
        # Loading takes the GIL for about a second: it starts once the board is drawn (on_mount).
        host.pending_warm_up = partial(host.run_worker, prepare, thread=True, group="warm-up",
                                       exit_on_error=False)

    # --- names -----------------------------------------------------------------------

    def label_for(self, seat: int) -> str:
        info = self.session.seats[seat]
        if info.human:
            return info.label or self.tr("ui.player.person" if self.session.hot_seat else "ui.player.you", n=seat + 1)
        if self.session.spectating:
            return self.tr("ui.player.numbered", n=seat + 1, label=info.label)
        return info.label

    @property
    def log_seat(self) -> int:
        """Whose view the log narrates: everything for a spectator and for two people in a public game."""
        public = self.session.hot_seat and not self.curtained
        return SPECTATOR if self.session.spectating or public else self.session.viewer

    # --- two people at one keyboard ----------------------------------------------------

    @property
    def curtained(self) -> bool:
        """Two people at one keyboard in a game with hidden information (``GameInfo.public`` false):
        the board goes behind a curtain between their turns, so neither sees the other's seat."""
        return self.session.hot_seat and not self.session.game.spec.info.public

    def curtain(self, seat: int, then: Any = None) -> None:
        """Cover the board until ``seat``'s player says they are the one looking (``then``: what
        follows).  A full screen, not a dialog: nothing of the board shows through."""
        self.app.push_screen(CurtainScreen(self, seat), then)

    def pass_to(self, seat: int) -> None:
        """``seat``'s turn with the other seat on screen (``SessionView.pass_to``)."""
        if self.curtained:
            self.curtain(seat, lambda _: self.call_later(self.show_seat, seat))
        else:
            self.call_later(self.show_seat, seat)

    async def show_seat(self, seat: int) -> None:
        """Show ``seat``'s view (its observation, its log) and, if it is to move, ask it."""
        self.session.shown = seat
        await self.reseat()
        if self.session.result is None and self.session.human_waiting() is self.session.seats[seat].agent:
            self.ask_human(seat)

    async def reseat(self) -> None:
        """Another seat is on screen: the log told again from its side, every text redrawn."""
        for log in self.query(BattleLog):
            log.seen_by(self.log_seat)
        await self.localize()

    def _watch_state(self) -> tuple[bool, float] | None:
        return (self.session.paused, self.session.pause) if self.session.spectating else None

    # --- watching: the same keys on every game's screen ------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The watching keys work (and show in the footer) only while watching."""
        if action in WATCH_ONLY:
            return self.session.spectating and self.session.result is None
        if action == "rematch":
            return self.session.result is not None or self.failure is not None
        return True

    def action_pause(self) -> None:
        self.session.set_paused(not self.session.paused)
        self._top_bar().show(watch=self._watch_state())

    def action_step(self) -> None:
        if not self.session.paused:
            self.session.set_paused(True)
        else:
            self.session.step()
        self._top_bar().show(watch=self._watch_state())

    def action_speed(self, by: int) -> None:
        self.session.faster(by)
        self._top_bar().show(watch=self._watch_state())

    def _top_bar(self) -> Any:
        return self.query_one(TopBar)

    # --- hooks for the shared screens ------------------------------------------------

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        """The log's sentence for ``event`` seen from ``seat`` (``SPECTATOR``: everything)."""
        return None

    def rules(self, catalog: Catalog, direction: Direction) -> list[RenderableType]:
        """What the rules screen shows (default: the registry's rules text)."""
        spec = self.session.game.spec
        sentences = spec.rules_text(self.session.game, catalog) if spec.rules_text is not None else []
        return rules_lines(list(sentences), catalog, direction, spec.info.locale_folder)

    def summary_columns(self) -> list[Column]:
        """Columns the game adds to the game-over table, after the players' names."""
        return []

    def summary_lines(self) -> list[tuple[str, dict[str, Any]]]:
        """Lines (locale key, parameters) the game adds under the game-over headline."""
        return []

    def summary_block(self) -> list[RenderableType]:
        """Renderables the game adds at the end of the game-over summary, drawn as given
        (Eleusis: the true rule's code, left to right in every language)."""
        return []

    # --- the game worker -------------------------------------------------------------

    @work(exclusive=True, group="game")
    async def run_game(self) -> None:
        await memory.settle_before_game(self._drawn)
        await self._drawn()             # the board on screen (again after a pass) before the first decision
        try:
            result = await self.session.run()
        except Exception as exc:   # a bug must not become a traceback over the board
            self.failure = exc
            self.host.failure = exc  # type: ignore[attr-defined]
            result = None
        await self.game_ended(result)
        deal = getattr(self.host, "deal", None)          # a study's R is its next game, not a rematch
        onward = deal.onward if deal is not None else OVER_KEYS[0][1]
        await self.show_keys([("R", onward, "rematch"), *OVER_KEYS[1:]])
        await self._drawn()     # the final position painted once, not again under the dialog's dimmed copy
        # The app's loop opens the game-over dialog, not this worker: a screen pushed here would
        # start its task in a copy of the worker's context, which holds the worker and so this
        # board, and a rematch's pass could then not free it (tests/tui/test_frame_work.py).
        self.host.call_later(self.host.game_finished, self, result)  # type: ignore[attr-defined]

    async def _drawn(self) -> None:
        """Return after the next repaint of this screen."""
        drawn = asyncio.get_running_loop().create_future()
        self.call_after_refresh(lambda: drawn.done() or drawn.set_result(None))
        await drawn

    async def game_ended(self, result: MatchResult | None) -> None:
        """Draw the final position before the game-over dialog opens."""

    # --- SessionView parts every game shares (a screen overrides what it draws otherwise) ---

    def redraw(self) -> None:
        """Draw the current observation; each game's screen draws its own."""

    def players(self) -> tuple[str, str]:
        """The top bar's "A vs B": the seat this screen shows, then the other."""
        return self.label_for(self.session.viewer), self.label_for(1 - self.session.viewer)

    async def show_events(self, events: Sequence[Event], by: int | None, final: bool) -> None:
        """New events go to the log; once a move's last event is in, the board is redrawn."""
        with self.app.batch_update():
            await self.query_one(BattleLog).add(events, self.log_seat)
            if final:
                self.redraw()

    def show_thinking(self, seat: int | None) -> None:
        self.query_one(TopBar).show(thinking=None if seat is None else self.label_for(seat), your_move=False)
        if seat is not None and self.streams:
            for panel in self.query(StreamPanel):
                panel.clear()
        self.redraw()

    def feed_stream(self, kind: str, text: str) -> None:
        """A language model's output as it arrives (screens with a stream panel show it)."""
        if self.streams:
            for panel in self.query(StreamPanel):
                panel.feed(kind, text)

    async def localize(self) -> None:
        self.query_one(TopBar).show(players=self.players())
        self.redraw()
        await super().localize()

    def on_mount(self) -> None:
        """Once this board is drawn, the game's search may start loading (see ``warm_up``)."""
        self.title_panes()
        self.call_after_refresh(self._start_warm_up)

    async def show_keys(self, hints: list[tuple[str, str, str]]) -> None:
        """The footer's hints from now on (every screen has one ``KeyBar`` with the id ``keys``)."""
        for bar in self.query("#keys").results(KeyBar):
            if bar.hints != hints:
                bar.hints = hints
                await bar.recompose()

    def set_pane_title(self, selector: str, key: str) -> None:
        """Name the pane ``selector`` by the locale key ``key`` from now on."""
        self.pane_titles[selector] = key
        self.title_panes()

    def on_resize(self) -> None:
        self.call_after_refresh(self.title_panes)    # a title is cut to its pane's new width

    def title_panes(self) -> None:
        """Each pane's name on its border, shaped and ordered like every other text."""
        for selector, key in self.pane_titles.items():
            for pane in self.query(selector):
                width = max(8, (pane.size.width or TITLE_WIDTH) - 4)
                pane.border_title = escape(display_line(self.tr(key), width, self.direction))

    async def relocalize(self) -> None:
        await super().relocalize()
        self.title_panes()

    def _start_warm_up(self) -> None:
        start, self.host.pending_warm_up = self.host.pending_warm_up, None  # type: ignore[attr-defined]
        if start is not None:
            start()

    def on_unmount(self) -> None:
        """A rematch replaced this board: what it held may go (``tcgtui.tui.memory``)."""
        memory.forget_game()

    def collect_garbage_soon(self) -> None:
        """Collect once the board a person must read is drawn, so that the collector's
        full passes do not fall in the opponent's move (``tcgtui.tui.memory``)."""
        self.call_after_refresh(memory.collect_while_reading)

    # --- actions ---------------------------------------------------------------------

    def action_rules(self) -> None:
        self.host.show_rules()

    def action_quit_game(self) -> None:
        self.host.confirm_quit()

    def action_rematch(self) -> None:
        """R once the game is over, from the board as from the game-over dialog."""
        self.host.next_game()  # type: ignore[attr-defined]


class BoardPanel(Localized, Widget):
    """A side panel that draws from its game screen's state (the screen's current observation)."""

    def __init__(self, screen: Any, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.board_screen = screen
