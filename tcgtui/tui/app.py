"""The Textual app behind ``tcgtui play`` and ``tcgtui watch``.

It holds what every screen needs (the pack, the language and its direction,
the players) and moves between screens: the board, the rules, the game-over
summary and the quit question.  Saving a finished game is one call to
``Settings.on_result``; the store plugs in there.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from textual.app import App
from textual.binding import Binding
from textual.message import Message

import locales
from engine.tcg import Pack, TcgGame
from opponents.base import Agent
from opponents.human import HumanAgent
from opponents.registry import make_agent
from opponents.spec import parse_spec
from tcgtui.match import MatchResult
from tcgtui.tui.bidi_text import Direction
from tcgtui.tui.screens.board import BoardScreen
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tcgtui.tui.screens.rules import RulesScreen
from tcgtui.tui.session import GameSession, SeatInfo

HUMAN = "human"


class StreamChunk(Message):
    """A piece of a language model's reasoning or answer, as it arrives."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__()
        self.kind, self.text = kind, text


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
    on_result: Callable[[MatchResult], None] | None = None       # where finished games go


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
        self.results: list[MatchResult] = []
        self.board: BoardScreen | None = None

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
        self.start_game(self.settings.seed)

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

    def new_session(self, seed: int) -> GameSession:
        seats = tuple(SeatInfo(self._agent(spec, i), self.settings.handle if spec == HUMAN else spec)
                      for i, spec in enumerate(self.settings.seats))
        return GameSession(TcgGame(self.pack), seed, seats, lang=self.lang,  # type: ignore[arg-type]
                           pause=self.settings.pause)

    def start_game(self, seed: int) -> None:
        streams = any(parse_spec(s).kind == "llm" for s in self.settings.seats if s != HUMAN)
        board = BoardScreen(self.new_session(seed), streams=streams)
        if self.board is None:
            self.push_screen(board)
        else:
            self.switch_screen(board)
        self.board = board

    def game_finished(self, board: BoardScreen, result: MatchResult | None) -> None:
        if result is not None:
            self.results.append(result)
            if self.settings.on_result is not None:
                self.settings.on_result(result)

        def after(choice: str | None) -> None:
            if choice == "rematch":
                self.start_game(board.session.seed + 1)
            elif choice == "quit":
                self.exit()
        self.push_screen(GameOverScreen(board, result), after)

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
        self.push_screen(QuitScreen(), after)
