"""The Textual app behind ``tcgtui play`` and ``tcgtui watch``.

It holds what every screen needs (the pack, the language and its direction,
the players) and moves between screens: the board, the rules, the game-over
summary and the quit question.  Which game comes next, and where its moves
and result are kept, is a ``Table``'s business: the plain one deals from the
seed on and keeps nothing; ``tcgtui.tables`` has the ones over the store.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path
from functools import partial
from typing import Any, Callable, Protocol

from textual.app import App
from textual.binding import Binding
from textual.message import Message

from tcgtui import locales
from tcgtui.engine.core import Match
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.opponents.base import Agent
from tcgtui.opponents.human import HUMAN, HumanAgent
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.spec import parse_spec
from tcgtui.engine.tcg.fast.search import warm_up
from tcgtui.errors import UserError
from tcgtui.opponents.base import OptionError
from tcgtui.match import DecisionRecord, MatchResult
from tcgtui.tui.bidi_text import Direction
from tcgtui.tui.screens.board import BoardScreen
from tcgtui.tui.screens.dialogs import GameOverScreen, HandleScreen, QuitScreen
from tcgtui.tui.screens.rules import RulesScreen
from tcgtui.tui.session import GameSession, SeatInfo


class StreamChunk(Message):
    """A piece of a language model's reasoning or answer, as it arrives."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__()
        self.kind, self.text = kind, text


Note = tuple[str, dict[str, Any]]          # a locale key and its parameters


@dataclass
class Deal:
    """One game to put on the board: who sits where, from which seed, and where it is kept."""

    seed: int
    seats: tuple[str, str]
    resume: Match | None = None                                   # a game under way, rebuilt from the store
    earlier: list[DecisionRecord] = field(default_factory=list)   # its moves so far (for the summary)
    on_move: Callable[[DecisionRecord], None] | None = None      # called after every move
    on_result: Callable[[MatchResult], None] | None = None       # called once, when the game ends
    note: Note | None = None                                      # shown on the top bar (a campaign's level)
    after: Callable[[], Note] | None = None                       # shown on the game-over screen


class Table(Protocol):
    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        """The next game (the first when ``previous`` is None); None when there is none."""


@dataclass
class PlainTable:
    """Deals from a seed on (a rematch is the next seed) and keeps nothing."""

    seed: int
    seats: tuple[str, str]

    def deal(self, previous: Deal | None, lang: str) -> Deal | None:
        return Deal(self.seed if previous is None else previous.seed + 1, self.seats)


@dataclass
class Settings:
    pack: Pack
    seats: tuple[str, str]                 # agent specs; "human" is the person at the keyboard
    lang: str = "en"
    rtl_mode: str = "app"
    seed: int = 0
    handle: str = ""
    pause: float = 1.0                     # seconds each opponent move stays on screen
    agent_options: dict[str, Any] = field(default_factory=dict)   # endpoint settings for llm:
    # Given the person's handle, where games come from and go; None: PlainTable(seed, seats).
    table: Callable[[str], Table] | None = None
    ask_handle: bool = False               # no handle yet: ask for one (and keep it) before the first game


class TcgApp(App[None]):
    CSS_PATH = [Path(__file__).parent / "app.tcss", Path(__file__).parent / "board.tcss"]
    ENABLE_COMMAND_PALETTE = False
    TITLE = "tcgtui"
    BINDINGS = [Binding("ctrl+c", "ask_quit", show=False, priority=True)]   # Textual's hint is English-only
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.pack = settings.pack
        self.lang = settings.lang
        self.catalog = locales.load(settings.lang)
        self.failure: BaseException | None = None
        self.refusal: OptionError | None = None      # bad input found once the screen was up; the command reports it
        self.results: list[MatchResult] = []
        self.board: BoardScreen | None = None
        self.table: Table | None = None
        self.deal: Deal | None = None

    # --- language --------------------------------------------------------------------

    @property
    def direction(self) -> Direction:
        return Direction(self.catalog.rtl, self.settings.rtl_mode)

    async def toggle_language(self) -> None:
        codes = locales.available()
        self.lang = codes[(codes.index(self.lang) + 1) % len(codes)] if self.lang in codes else codes[0]
        self.catalog = locales.load(self.lang)
        for screen in self.screen_stack:
            relocalize = getattr(screen, "relocalize", None)
            if relocalize is not None:
                await relocalize()

    # --- games -----------------------------------------------------------------------

    def on_mount(self) -> None:
        # Everything loaded so far (Textual, numpy, numba, the pack) lives as long as the
        # app: keep it out of the cyclic collector's full passes, which otherwise stall
        # the screen for 40 ms and more (measured by tcgtui perf tui_frames).
        gc.freeze()
        if any(s != HUMAN and parse_spec(s).kind in ("mc", "mcts") for s in self.settings.seats):
            # Compiling the search loops takes ~20 s once per install: do it while the person reads.
            self.run_worker(partial(warm_up, self.pack), thread=True, group="warm-up", exit_on_error=False)
        if self.settings.ask_handle:
            self.push_screen(HandleScreen(), self._open_table)
        else:
            self._open_table(self.settings.handle)

    def _open_table(self, handle: str | None) -> None:
        if handle is None:
            self.exit()
            return
        self.settings.handle = handle
        make = self.settings.table
        try:
            self.table = make(handle) if make is not None else PlainTable(self.settings.seed, self.settings.seats)
        except (UserError, OptionError) as exc:
            self.refusal = exc
            self.exit(return_code=2)
            return
        self.next_game()

    def _agent(self, spec: str, seat: int) -> Agent:
        if spec == HUMAN:
            return HumanAgent(self.settings.handle)
        options = dict(self.settings.agent_options)
        if parse_spec(spec).kind == "llm":
            options["on_stream"] = self._stream_hook()
        return make_agent(spec, **options)

    def _stream_hook(self) -> Callable[[str, str], None]:
        """Model output may arrive on any thread; ``post_message`` is thread-safe and never blocks."""
        def hook(kind: str, text: str) -> None:
            self.post_message(StreamChunk(kind, text))
        return hook

    def on_stream_chunk(self, message: StreamChunk) -> None:
        if self.board is not None:
            self.board.feed_stream(message.kind, message.text)

    def new_session(self, deal: Deal) -> GameSession:
        seats = tuple(SeatInfo(self._agent(spec, i), self.settings.handle if spec == HUMAN else spec)
                      for i, spec in enumerate(deal.seats))
        return GameSession(TcgGame(self.pack), deal.seed, seats, lang=self.lang,  # type: ignore[arg-type]
                           pause=self.settings.pause, resume=deal.resume, earlier=deal.earlier,
                           on_move=deal.on_move)

    def next_game(self) -> None:
        """Put the table's next game on the board; leave when there is none."""
        assert self.table is not None
        deal = self.table.deal(self.deal, self.lang)
        if deal is None:
            self.exit()
            return
        self.deal = deal
        streams = any(parse_spec(s).kind == "llm" for s in deal.seats if s != HUMAN)
        board = BoardScreen(self.new_session(deal), streams=streams, note=deal.note)
        if self.board is None:
            self.push_screen(board)
        else:
            self.switch_screen(board)
        self.board = board

    def game_finished(self, board: BoardScreen, result: MatchResult | None) -> None:
        deal = self.deal
        if result is not None:
            self.results.append(result)
            if deal is not None and deal.on_result is not None:
                deal.on_result(result)
        note = deal.after() if deal is not None and deal.after is not None else None

        def after(choice: str | None) -> None:
            if choice == "rematch":
                self.next_game()
            elif choice == "quit":
                self.exit()
        self.push_screen(GameOverScreen(board, result, note), after)

    # --- dialogs ---------------------------------------------------------------------

    def show_rules(self) -> None:
        if not isinstance(self.screen, RulesScreen):
            self.push_screen(RulesScreen())

    def action_ask_quit(self) -> None:
        if not isinstance(self.screen, QuitScreen):
            self.confirm_quit()

    def confirm_quit(self) -> None:
        def after(yes: bool | None) -> None:
            if yes:
                self.exit()
        board = self.board
        saved = (self.deal is not None and self.deal.on_move is not None and board is not None
                 and not board.session.spectating and board.session.result is None)
        self.push_screen(QuitScreen(saved), after)
