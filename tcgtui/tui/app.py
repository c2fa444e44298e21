"""The Textual app behind ``tcgtui``, ``tcgtui play`` and ``tcgtui watch``: an arena of games.

It holds what every screen needs (the game and its parameters, the language
and its direction, the players) and moves between screens: the home screen,
the game's own board (``tcgtui.tui.games``, found by the game's id), the rules,
the game-over summary and the quit question.  Which game comes next, and where
its moves and result are kept, is a ``Dealer``'s business (``tcgtui.deals``):
the plain one deals from the seed on and keeps nothing, the others keep them in the store.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from rich.text import Text
from textual.app import App
from textual.await_remove import AwaitRemove
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.message import Message
from textual.notifications import Notification, Notify

from tcgtui import config, locales
from tcgtui.arena import load_resources
from tcgtui.console_text import clean
from tcgtui.crash import report_crash
from tcgtui.engine import registry
from tcgtui.engine.core import Game
from tcgtui.errors import OptionError, UserError
from tcgtui.match import MatchResult
from tcgtui.opponents.base import Agent
from tcgtui.opponents.human import HUMAN, HumanAgent
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.search import INTERIM_BUDGET_S
from tcgtui.play_config import Settings
from tcgtui.opponents.spec import parse_spec
from tcgtui.tui.bidi_text import Direction, Para
from tcgtui.deals import Deal, Dealer, Note, PlainDealer
from tcgtui.tui.games import replay_board_for, screen_for
from tcgtui.tui import memory
from tcgtui.tui.games.base import NOTICE_S, SEARCH_KINDS, GameScreen
from tcgtui.tui.screens.dialogs import GameOverScreen, HandleScreen, QuitScreen
from tcgtui.tui.screens.rules import RulesScreen
from tcgtui.tui.session import GameSession, SeatInfo

__all__ = ["ArenaApp", "Deal", "Dealer", "HUMAN", "Note", "PlainDealer", "Settings", "StreamChunk"]


@dataclass
class Said(Notification):
    """A toast: ``message`` as drawn (reordered right to left), ``said`` as written, in reading order."""

    said: str = ""


class StreamChunk(Message):
    """A piece of a language model's reasoning or answer, as it arrives."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__()
        self.kind, self.text = kind, text


SWITCH_S = 0.0002
TOAST_CELLS, TOAST_FRAME = 60, 4     # Textual's toast: 60 cells wide (at most half the screen), less padding and border


class ArenaApp(App[None]):
    CSS_PATH = [Path(__file__).parent / "app.tcss"]
    ENABLE_COMMAND_PALETTE = False
    TITLE = "tcgtui"
    BINDINGS = [Binding("ctrl+c", "ask_quit", show=False, priority=True)]   # Textual's hint is English-only
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.lang = settings.lang
        self.catalog = locales.load(settings.lang)
        self.failure: BaseException | None = None
        self.refusal: OptionError | None = None      # bad input found once the screen was up; the command reports it
        self.results: list[MatchResult] = []
        self.board: GameScreen | None = None
        self.dealer: Dealer | None = None
        self.deal: Deal | None = None
        self.game: Game | None = None
        self.screen_class: type[GameScreen] | None = None
        self.search_ready = threading.Event()        # the game's compiled search is loaded (GameScreen.warm_up)
        self.pending_warm_up: Callable[[], object] | None = None   # started once the first board is drawn
        self.compiling: Any = None                   # a compile_cache.ChildCompile while a new install compiles
        self.playing = False                         # a game (or its setup) started from home is on screen
        self.game_over: GameOverScreen | None = None  # the last game's result, kept while its board is up

    # --- language --------------------------------------------------------------------

    @property
    def direction(self) -> Direction:
        return Direction(self.catalog.rtl, self.settings.rtl_mode)

    def set_language(self, code: str, keep: bool = False) -> None:
        """Speak ``code`` from now on; ``keep``: a person chose it, and the next start speaks it too
        (the settings file's ``lang``; not a study's participant, whose language is the study's)."""
        self.settings = replace(self.settings, lang=code)
        self.lang = code
        self.catalog = locales.load(code)
        if keep and self.settings.study is None:
            config.save_language(code)

    async def toggle_language(self) -> None:
        codes = list(self.settings.study.study.languages) if self.settings.study is not None else locales.available()
        self.set_language(codes[(codes.index(self.lang) + 1) % len(codes)] if self.lang in codes else codes[0],
                          keep=True)
        if self.compiling is not None and not self.search_ready.is_set():     # the notice in the new language
            self.clear_notifications()
            self.notify(self.catalog.t("ui.notify.compiling"), timeout=NOTICE_S)
        for screen in self.screen_stack:
            relocalize = getattr(screen, "relocalize", None)
            if relocalize is not None:
                await relocalize()

    def notify(self, message: str, *, title: str = "", severity: Any = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Every toast as plain text (a message may carry text from outside) in the reader's direction:
        right to left it is shaped, wrapped to the toast's width, then each line reordered (Textual
        would wrap the reordered text, and its lines would read bottom to top).  Thread-safe, as Textual's."""
        said = str(message)
        shown = said
        if self.direction.reorder:
            width = max(10, min(TOAST_CELLS, self.size.width // 2) - TOAST_FRAME)
            shown = "\n".join(Para(said, self.direction).lines(width))
        self.post_message(Notify(Said(shown, title, severity, self.NOTIFICATION_TIMEOUT if timeout is None else timeout,
                                      markup=False, said=said)))

    # --- games -----------------------------------------------------------------------

    def on_mount(self) -> None:
        memory.keep_loaded()    # Textual, numpy, the engine, the pack: out of the collector's passes
        # A search thread keeps the GIL for the switch interval each time the screen's loop asks for it
        # back, and a key goes round the loop many times: at the default 5 ms keys waited 70-293 ms
        # against mcts:1000, at 1 ms up to 134 ms with 44 ms of the loop's own work, at 0.2 ms 41-113 ms,
        # the loop's own work (tcgtui perf --only key_waits).  A search alone is never interrupted.
        sys.setswitchinterval(SWITCH_S)
        if self.settings.replay is not None:
            # start-up time: a screen's module loads when it is first shown
            from tcgtui.tui.screens.replay import ReplayScreen
            replay = self.settings.replay
            self.push_screen(ReplayScreen(replay, replay_board_for(replay.row.game)))
            return
        if self.settings.study is not None:
            # start-up time: a screen's module loads when it is first shown
            from tcgtui.tui.screens.study import StudyScreen
            self.push_screen(StudyScreen(self.settings.study))
            return
        if self.settings.home:
            # start-up time: a screen's module loads when it is first shown
            from tcgtui.tui.screens.home import HomeScreen
            self.push_screen(HomeScreen())
            return
        self.start()

    def _handle_exception(self, error: Exception) -> None:
        """Bad input (an ``OptionError``) ends the app with the command's one line and status 2.  A bug:
        the person gets one line, and the traceback (frames only: never locals, which hold the
        environment and keys) goes to a file.  Pilot still sees the bug."""
        if isinstance(error, OptionError):         # bad input met once the screen was up: the command's line
            self.refusal = error
            self.exit(return_code=2)
            return
        if self._exit and isinstance(getattr(error, "error", error), NoMatches):
            return      # the person left while a screen was being taken down: a widget it looked for is gone
        self._return_code = 1
        if self._exception is None:
            self._exception = error
            self._exception_event.set()
        self._exit_renderables.append(Text(report_crash(error, self.catalog)))
        self._close_messages_no_wait()

    def start(self) -> None:
        """Build the game from the settings and open its dealer (asking the handle first if need be)."""
        self.playing = True
        try:
            self.screen_class = screen_for(self.settings.game_id)
            dialog = self.screen_class.setup_dialog(self.settings) if self.settings.setup else None
            if dialog is not None:
                self.push_screen(dialog, self._set_up)
                return
            if self.settings.game is not None:        # built by the command, resources loaded there
                self.game = self.settings.game
            else:
                spec = registry.get(self.settings.game_id)
                self.settings = replace(self.settings,
                                        params=load_resources(spec, spec.info.resolve(self.settings.params)))
                self.game = spec.game(self.settings.params)
        except (LookupError, ValueError) as exc:
            self.refuse(UserError(str(exc)))
            return
        self.screen_class.warm_up(self, self.game, self.settings.seats)
        if self.settings.ask_handle:
            self.push_screen(HandleScreen(), self._open_dealer)
        else:
            self._open_dealer(self.settings.handle)

    def _set_up(self, params: dict[str, Any] | None) -> None:
        """The setup dialog's answer: parameters for the game (None: the person left)."""
        if params is None:
            self.leave()
            return
        # the game is built with the dialog's answer
        self.settings = replace(self.settings, params={**self.settings.params, **params}, setup=False, game=None)
        self.start()

    def _open_dealer(self, handle: str | None) -> None:
        if handle is None:
            self.leave()
            return
        self.settings = replace(self.settings, handle=handle, ask_handle=False)
        make = self.settings.dealer_for
        try:
            self.dealer = make(self.settings) if make is not None else PlainDealer(self.settings.seed,
                                                                                   self.settings.seats)
        except (UserError, OptionError) as exc:
            self.refuse(exc)
            return
        self.next_game()

    def refuse(self, error: Exception) -> None:
        """Bad input found once the screen is up: from home, one line there; else the command's line, status 2."""
        if self.settings.home and self.playing:
            self.back_home()
            self.notify(str(error), severity="error", timeout=8)
            return
        self.refusal = error  # type: ignore[assignment]
        self.exit(return_code=2)

    def leave(self) -> None:
        """The person is done with this game: back to home if it was started there, else the end.
        A player still thinking takes seconds to stop (an Eleusis scientist: 3-5 s): a notice says
        so, painted before the wait begins, so the screen does not look frozen."""
        board = self.board
        seat = board.session.thinking if board is not None and board.session.result is None else None
        if board is not None and seat is not None and not board.session.seats[seat].human:
            self.notify(self.catalog.t("ui.notify.stopping", who=board.label_for(seat)), timeout=10)
            self.call_after_refresh(self._leave_now)
        else:
            self._leave_now()

    def _leave_now(self) -> None:
        if self.settings.home and self.playing:
            self.back_home()
        else:
            self.exit()

    def back_home(self) -> None:
        """Close the game's screens and show home (or a study's screen) again, saying what was kept
        of the game left."""
        self.playing = False
        note = self.left_note()
        while len(self.screen_stack) > 1 and not getattr(self.screen, "HOME", False):
            self.pop_screen()
        self.close_game_over()
        self.board, self.deal, self.dealer, self.game, self.screen_class = None, None, None, None, None
        if getattr(self.screen, "HOME", False):
            self.screen.reread()  # type: ignore[attr-defined]
        if note:
            self.notify(note, timeout=6)

    def left_note(self) -> str:
        """What was kept of the game being left (its id to continue), or ""."""
        deal, board = self.deal, self.board
        if deal is None or deal.kept is None or board is None or board.session.result is not None:
            return ""
        kept = deal.kept()
        if kept is None:
            return self.catalog.t("humans.nothing_saved")
        key = "study.kept" if self.settings.study is not None else "hub.kept"      # a study's screen carries it on
        return clean(self.catalog.t(key, game=kept[0][:8], moves=kept[1]))

    def _handle(self, seats: tuple[str, ...], seat: int) -> str:
        """The handle of the person at ``seat``: the settings' one, not a second person's (hot-seat)."""
        return self.settings.handle if seats.count(HUMAN) == 1 or seat == self.settings.person else ""

    def _agent(self, spec: str, seat: int, seats: tuple[str, ...]) -> Agent:
        """The player ``spec`` names at ``seat`` of ``seats`` (a person among them waits for its answers)."""
        if spec == HUMAN:
            return HumanAgent(self._handle(seats, seat), time_limit=self.settings.move_seconds,
                              seed=self.deal.seed if self.deal is not None else 0)
        options = dict(self.settings.agent_options)
        options["game"] = self.game
        kind = parse_spec(spec).kind
        if kind == "llm":
            options["on_stream"] = self._stream_hook()
        if kind in SEARCH_KINDS:
            options["compiled"] = self.search_ready     # until then it searches on the interim path,
            options["interim_budget"] = INTERIM_BUDGET_S  # answering within its budget
        elif HUMAN in seats and (ref := self.game.spec.reference(kind)) is not None:
            options["interim_budget"] = INTERIM_BUDGET_S  # a deep reference search answers within it too
            if ref.fast:
                options["compiled"] = self.search_ready  # and one on the compiled path has a stand-in meanwhile
        return make_agent(spec, **options)

    def on_unmount(self) -> None:
        if self.compiling is not None:
            self.compiling.stop()

    def search_prepared(self, compiled: bool) -> None:
        """The warm-up worker is done (or gave up: then the search compiles as it plays)."""
        self.search_ready.set()
        memory.keep_loaded()    # the search's compiled code lives as long as the app
        if compiled:
            self.clear_notifications()
            self.notify(self.catalog.t("ui.notify.compiled"), timeout=3)

    def _stream_hook(self) -> Callable[[str, str], None]:
        """Model output may arrive on any thread; ``post_message`` is thread-safe and never blocks."""
        def hook(kind: str, text: str) -> None:
            self.post_message(StreamChunk(kind, text))
        return hook

    def on_stream_chunk(self, message: StreamChunk) -> None:
        if self.board is not None:
            self.board.feed_stream(message.kind, message.text)

    def new_session(self, deal: Deal) -> GameSession:
        seats = tuple(SeatInfo(self._agent(spec, i, deal.seats),
                               self._handle(deal.seats, i) if spec == HUMAN else spec)
                      for i, spec in enumerate(deal.seats))
        return GameSession(self.game, deal.seed, seats, lang=self.lang,
                           pause=self.settings.pause, resume=deal.resume, earlier=deal.earlier,
                           on_move=deal.on_move, on_settled=deal.on_settled)

    def next_game(self) -> None:
        """Put the dealer's next game on the board; leave when there is none."""
        assert self.dealer is not None and self.screen_class is not None
        deal = self.dealer.deal(self.deal, self.lang)
        if deal is None:
            self.leave()
            return
        self.deal = deal
        streams = any(parse_spec(s).kind == "llm" for s in deal.seats if s != HUMAN)
        try:
            session = self.new_session(deal)
        except OptionError as exc:            # llm:MODEL with no endpoint, say
            self.deal = None
            self.refuse(exc)
            return
        board = self.screen_class(session, streams=streams, note=deal.note)
        if self.board is None:
            self.push_screen(board)
        else:
            memory.board_replaced(self.switch_screen(board), self.close_game_over())
        self.board = board
        if board.curtained:           # two people, hidden cards: the first player's seat shows once they look
            board.curtain(session.shown)

    def game_finished(self, board: GameScreen, result: MatchResult | None) -> None:
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
                self.leave()
        # Installed, so closing it to look at the board removes nothing: a removal lays out the whole
        # screen under it again, on top of the repaint it gets anyway, and doubled the loop's work for
        # that key (Escape at 120x40: 29-58 ms of CPU removed, 14-33 ms kept).  It goes with the board.
        self.game_over = GameOverScreen(board, result, note, deal.onward if deal is not None else "ui.keys.rematch")
        self.install_screen(self.game_over, f"game-over-{id(self.game_over)}")
        self.push_screen(self.game_over, after)

    def close_game_over(self) -> AwaitRemove | None:
        """The last game's result goes with its board (returns its removal, None if there was none).
        It is never on the screen stack here: a board is replaced or left only from itself or from
        the dialog, which has been closed by then."""
        dialog, self.game_over = self.game_over, None
        if dialog is None:
            return None
        self.uninstall_screen(dialog)
        return dialog.remove()

    # --- dialogs ---------------------------------------------------------------------

    def show_rules(self) -> None:
        if not isinstance(self.screen, RulesScreen):
            self.push_screen(RulesScreen(self.board.rules if self.board is not None else None))

    def action_ask_quit(self) -> None:
        if not isinstance(self.screen, QuitScreen):
            self.confirm_quit()

    def confirm_quit(self) -> None:
        """Q: "Leave this game?" while a game is under way; once it is over nothing is lost, and Q
        leaves at once from the board as from the game-over dialog (docs/keys.md)."""
        def after(yes: bool | None) -> None:
            if yes:
                self.leave()
        board = self.board
        if board is not None and (board.session.result is not None or board.failure is not None):
            self.leave()
            return
        deal = self.deal
        kept = deal.kept() if deal is not None and deal.kept is not None else None   # None at move 0: nothing stored
        under_way = board is not None and not board.session.spectating and board.session.result is None
        saved = kept[0] if kept is not None and under_way else ""
        home = self.settings.home and self.playing
        self.push_screen(QuitScreen(saved, home=home, study=home and self.settings.study is not None), after)
