"""The puzzle duel's screen: write a puzzle, solve the opponent's, watch models do both.

Proposing, the person writes ``mystery(x)`` in a code editor (Python, always left to
right; Tab indents, F2 goes to the field below) and its secret sample in the field below;
Ctrl+S pre-checks the sample in the
sandbox and sends the puzzle only if the sample works.  Solving, the puzzle is shown
read-only and the answer goes in the field (Enter or Ctrl+S sends it; the referee
checks it).  With a time to solve (``--param solve_time=SECONDS``) a countdown runs from
the moment the puzzle is shown; at 0 the answer written so far is sent, or, with nothing
written, ``TimeUp`` (a failure).  The side panel holds the scoreboard and the history
(the opponent's explanations are never in an observation), above the log the game's
narrator writes.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from rich.console import Group
from rich.text import Text
from textual import work
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, TextArea

from tcgtui.console_text import clean
from tcgtui.engine.core import Event
from tcgtui.engine.duel import Answer, DuelNarrator, Proposal
from tcgtui.engine.duel.moves import TimeUp, parse_answer, parse_proposal
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.tui.bidi_text import Line, Piece
from tcgtui.tui.games.base import SPECTATOR, BoardPanel, GameScreen
from tcgtui.tui.session import GameSession
from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.widgets.code import CodeEditor
from tcgtui.tui.widgets.log import BattleLog
from tcgtui.tui.widgets.stream import StreamPanel
from tcgtui.tui.widgets.text import Caption

TEMPLATE = "def mystery(x):\n    return x == 0\n"
# The editor and the field take letters while focused: the footer then offers the keys that work
# while typing (F1, Ctrl+Q; Esc frees the letters), and ?, L and Q once Esc has left them.
PLAY_KEYS = [("F2", "duel.ui.keys.field", "switch_field"), ("Ctrl+S", "duel.ui.keys.send", "send"),
             ("Esc", "duel.ui.keys.leave", "leave_field"), ("?", "ui.keys.rules", "rules"),
             ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]
TYPING_KEYS = [*PLAY_KEYS[:3], ("F1", "ui.keys.rules", "rules"), ("Ctrl+Q", "ui.keys.quit", "quit_game")]
WATCH_KEYS = [("Space", "ui.keys.pause", "pause"), ("N", "ui.keys.step", "step"),
              ("+/-", "ui.keys.speed", "speed(1)"), ("?", "ui.keys.rules", "rules"),
              ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]
OUTCOME_STYLE = {"success": "cyan", "failure": "green", "failure-ex": "green", "puzzle-wrong": "red",
                 "puzzle-wrong-ex": "red"}


class DuelPanel(BoardPanel):
    """The scoreboard (round, each side's score and penalties) and the history of rounds."""

    def render(self) -> RenderResult:
        s, tr, d = self.board_screen, self.tr, self.direction
        o = s.obs
        if o is None:
            return Text("")
        lines: list[Any] = [Line([Piece(tr("duel.ui.panel.round", round=o.turn, rounds=o.rounds), "bold")], d)]
        for seat in (0, 1):
            score = o.wins[seat] - o.penalties[seat]
            lines.append(Line([Piece("  ", shrink=False), Piece(s.label_for(seat)), Piece(" ", shrink=False),
                               Piece(tr("duel.ui.panel.score", score=score, penalties=o.penalties[seat]), "bold")],
                              d))      # shrinkable: only those pieces are shaped and reordered
        if o.history:
            lines.append(Line([Piece(tr("duel.ui.panel.history"), "bold")], d))
        for r in o.history:
            line = tr("duel.ui.panel.line", proposer=s.label_for(r.proposer),
                      outcome=tr(f"duel.prompts.outcome.{r.outcome}"))
            lines.append(Line([Piece(f"{r.number:>2} ", "dim", shrink=False),
                               Piece(line, OUTCOME_STYLE.get(r.outcome, ""))], d))
        return Group(*lines)


class DuelScreen(GameScreen):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = [Binding("ctrl+s", "send", show=False, priority=True),
                Binding("f2", "switch_field", show=False, priority=True),
                Binding("f1", "rules", show=False, priority=True),
                Binding("ctrl+q", "quit_game", show=False, priority=True),
                Binding("escape", "leave_field", show=False, priority=True)]
    PANE_TITLES = {"#code": "duel.ui.code.waiting", "#value": "duel.ui.value.sample", "#panel": "duel.ui.panel.title",
                   "#log": "duel.ui.log.title", "#stream": "ui.stream.title"}
    clock: Callable[[], float] = staticmethod(time.monotonic)     # the countdown's time source (tests fix it)

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__(session, streams=streams, note=note)
        self.obs: Any = None
        self.checking = False
        self.deadline: float | None = None          # the clock's time at which the solver's time runs out
        self._narrators: dict[tuple[str, int | None], Any] = {}

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        yield KeyBar(WATCH_KEYS if self.session.spectating else PLAY_KEYS, id="keys")
        with Horizontal(id="main"):
            with Vertical(id="work"):
                yield CodeEditor.code_editor(TEMPLATE, language="python", read_only=True, id="code", classes="pane")
                yield Input(id="value", disabled=True, classes="pane")
                yield Caption("duel.ui.status.clock", id="clock", seconds=0)
                yield Caption("duel.ui.status.idle", id="status", wrap=True)
            with Vertical(id="side"):
                yield DuelPanel(self, id="panel", classes="pane")
                yield BattleLog(self.narrate, id="log")
                if self.streams:
                    yield StreamPanel(id="stream")

    async def on_mount(self) -> None:
        self.obs = self.session.observation(self.session.viewer)
        self.query_one(TopBar).show(players=(self.label_for(self.session.viewer),
                                             self.label_for(1 - self.session.viewer)),
                                    seed=self.session.seed, watch=self._watch_state(), note=self.note,
                                    your_move_key="duel.ui.top.your_move", phase="play")
        self.query_one("#clock", Caption).display = False
        self.set_interval(0.25, self.tick)
        self.redraw()
        self.run_game()

    # --- hooks -----------------------------------------------------------------------

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        viewer = None if seat == SPECTATOR else seat
        key = (catalog.code, viewer)
        if key not in self._narrators:      # the log names the players as the panel does
            names = (self.label_for(0), self.label_for(1))
            self._narrators[key] = DuelNarrator(self.session.game, catalog, -1 if viewer is None else viewer, names)
        lines = self._narrators[key].all([event])
        return " ".join(lines) if lines else None

    def choosing(self) -> bool:
        return self.session.human_waiting() is not None

    def redraw(self) -> None:
        self.obs = self.session.observation(self.session.viewer)
        self.query_one(DuelPanel).refresh(layout=True)
        self.query_one(TopBar).show(turn=self.obs.turn, limit=self.obs.rounds, watch=self._watch_state())

    async def show_events(self, events: Sequence[Event], by: int | None, final: bool) -> None:
        with self.app.batch_update():
            await self.query_one(BattleLog).add(events, self.log_seat)
            if final:
                self._show_puzzle(events)
                self.redraw()

    def _show_puzzle(self, events: Sequence[Event]) -> None:
        """While others play, the editor shows the last puzzle proposed (its code is public)."""
        if self.choosing():
            return
        for e in reversed(list(events)):
            if e.kind == "proposed":
                self._set_editor(e.data["code"], read_only=True, title="duel.ui.code.proposed")
                return

    def focus_field(self) -> None:
        """The keys to where the person writes now: the editor to propose, the answer field to solve."""
        o = self.session.observation(self.session.viewer)
        (self.query_one("#code", TextArea) if o.phase == "propose" else self.query_one("#value", Input)).focus()

    def on_screen_resume(self) -> None:
        """Back from the rules (or any dialog) during the person's turn: the editor or the field has the
        keys again, even when Esc had freed them to open the rules (issue 26)."""
        if self.choosing() and not self.checking:
            self.call_after_refresh(self.focus_field)

    def ask_human(self, seat: int) -> None:
        self.query_one(TopBar).show(your_move=True, thinking=None)
        o = self.session.observation(seat)
        field = self.query_one("#value", Input)
        field.disabled, field.value = False, ""
        if o.phase == "propose":
            self._set_editor(TEMPLATE, read_only=False, title="duel.ui.code.propose")
            self.set_pane_title("#value", "duel.ui.value.sample")
        else:
            self._set_editor(o.code, read_only=True, title="duel.ui.code.solve")
            self.set_pane_title("#value", "duel.ui.value.answer")
        self.focus_field()
        if o.phase == "propose":
            self.query_one("#status", Caption).set("duel.ui.status.propose")
        else:
            if self.session.game.solve_time > 0 and self.deadline is None:
                self.deadline = self.clock() + self.session.game.solve_time
                self.tick()
            self.query_one("#status", Caption).set("duel.ui.status.solve")
        self.redraw()

    def _set_editor(self, code: str, *, read_only: bool, title: str) -> None:
        """Show ``code``; a puzzle from outside (a model's) loses escape sequences and bidi overrides."""
        editor = self.query_one("#code", TextArea)
        editor.read_only = read_only
        editor.soft_wrap = read_only       # a puzzle to read is wrapped whole; code being written is not
        editor.load_text(clean(code, newlines=True) if read_only else code)
        self.set_pane_title("#code", title)

    def tick(self) -> None:
        """The countdown: the seconds left, and at 0 the answer written so far (or ``TimeUp``) sent."""
        if self.deadline is None:
            return
        left = self.deadline - self.clock()
        clock = next(iter(self.query("#clock").results(Caption)), None)
        if clock is None:             # the screen is closing: its widgets are gone, the timer not yet
            return
        if left > 0:
            clock.display = True
            clock.set("duel.ui.status.clock", seconds=math.ceil(left))
            return
        self.deadline = None
        clock.display = False
        if not self.choosing():
            return
        value = self.query_one("#value", Input).value.strip()
        answer = Answer(value).text()
        self._send(answer if parse_answer(answer) is not None else TimeUp().text())
        self.query_one("#status", Caption).set("duel.ui.status.time_up")
        self.notify(self.tr("duel.ui.status.time_up"), timeout=4)

    async def game_ended(self, result: MatchResult | None) -> None:
        self.deadline = None
        self.query_one("#clock", Caption).display = False
        self.query_one("#value", Input).disabled = True
        self.query_one("#code", TextArea).read_only = True
        self.redraw()
        self.query_one(TopBar).show(phase="over", thinking=None, your_move=False)


    def summary_columns(self) -> list[tuple[str, int, list[str]]]:
        o = self.session.observation(self.session.viewer)
        return [("duel.ui.over.penalties", 4, [str(o.penalties[0]), str(o.penalties[1])])]

    # --- sending ---------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_send()

    def action_send(self) -> None:
        if not self.choosing() or self.checking:
            if not self.session.spectating and self.session.result is None:
                self.notify(self.tr("ui.notify.wait"), timeout=2)
            return
        o = self.session.observation(self.session.viewer)
        value = self.query_one("#value", Input).value.strip()
        if o.phase == "propose":
            move = Proposal(self.query_one("#code", TextArea).text, value).text()
            if parse_proposal(move) is None:
                self.query_one("#status", Caption).set("duel.ui.status.incomplete")
                return
            self.precheck(move)
            return
        move = Answer(value).text()
        if parse_answer(move) is None:
            self.query_one("#status", Caption).set("duel.ui.status.no_value")
            return
        self._send(move)

    @work(exclusive=True, group="precheck")
    async def precheck(self, move: str) -> None:
        """The sample is run in the sandbox before the puzzle goes: a person fixes a wrong sample
        instead of taking a penalty for a typo."""
        # start-up time: the sandbox only when a person's code is checked
        from tcgtui.sandbox import DockerMissing, Limits, Sandbox, SandboxUnavailable
        game = self.session.game
        proposal = parse_proposal(move)
        assert proposal is not None
        self.checking = True
        self.query_one("#status", Caption).set("duel.ui.status.checking")
        try:
            verdict = await Sandbox(game.sandbox, Limits(timeout=game.check_timeout)).check(proposal.code,
                                                                                            proposal.solution)
        except (SandboxUnavailable, DockerMissing) as exc:      # a line on the screen, never a traceback
            self.query_one("#status", Caption).set("duel.ui.status.no_sandbox", why=clean(str(exc))[:300])
            return
        finally:
            self.checking = False
        if verdict.result != "true":
            key = {"error": "sample_errors", "timeout": "sample_timeout"}.get(verdict.result, "sample_fails")
            self.query_one("#status", Caption).set(f"duel.ui.status.{key}", result=verdict.result,
                                                   detail=clean(verdict.detail)[:200] or verdict.result)
            return
        self._send(move)

    def _send(self, move: str) -> None:
        if self.session.choose(move):
            self.deadline = None
            self.query_one("#clock", Caption).display = False
            self.query_one("#value", Input).disabled = True
            self.query_one("#code", TextArea).read_only = True
            self.query_one("#status", Caption).set("duel.ui.status.sent")
            self.query_one(TopBar).show(your_move=False)
            self.redraw()

    def on_descendant_focus(self) -> None:
        self.call_later(self.footer_for_focus)

    def on_descendant_blur(self) -> None:
        self.call_later(self.footer_for_focus)

    async def footer_for_focus(self) -> None:
        """Typing in the editor or the field, the footer offers only keys that work while typing
        (the letters go into the text), else ?, L and Q."""
        if not self.session.spectating and self.session.result is None and self.is_attached:
            typing = isinstance(self.focused, (TextArea, Input))
            await self.show_keys(TYPING_KEYS if typing else PLAY_KEYS)

    def action_leave_field(self) -> None:
        """Esc: out of the editor or the field, so that letters are keys again (? L Q)."""
        self.set_focus(None)
        self.notify(self.tr("duel.ui.status.keys_free"), timeout=3)

    def action_switch_field(self) -> None:
        """F2: between the editor and the value field (Tab indents code in the editor)."""
        editor, field = self.query_one("#code", TextArea), self.query_one("#value", Input)
        if field.has_focus and not editor.read_only:
            editor.focus()
        elif not field.disabled:
            field.focus()
