"""Small modal screens: the game-over summary (with rematch), the quit question,
and the one-time question for a person's handle.

The summary is the same for every game: the result per seat from the game's
``Outcome``, its reason, then a row per player with the columns the game's
screen adds (the card game's LP), moves and time per move."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input

from tcgtui import config, rtl
from tcgtui.errors import UserError
from tcgtui.match import ERRORED, MatchResult
from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.keys import keys
from tcgtui.tui.screens.base import LocalizedModal
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar

if TYPE_CHECKING:
    from tcgtui.tui.games.base import GameScreen


class Summary(Localized, Widget):
    """Who won and how, then a row per player: the game's columns, moves, time per move."""

    def __init__(self, board: GameScreen, result: MatchResult | None,
                 note: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__(id="summary")
        self.board, self.result, self.note = board, result, note

    def headline(self) -> tuple[str, str]:
        r, tr, s = self.result, self.tr, self.board.session
        if r is None or r.status == ERRORED or r.outcome is None:
            error = (r.error if r is not None else None) or repr(self.board.failure)
            return tr("ui.over.errored", error=error), "bold red"
        winner = r.outcome.winner
        if winner is None and r.outcome.scores is not None and len(s.seats) == 1:
            return tr("ui.over.score", score=f"{r.outcome.scores[0]:g}"), "bold green"
        if winner is None:
            return tr("ui.over.draw"), "bold yellow"
        if s.spectating or s.hot_seat:          # two people at one keyboard: "you" is both of them
            return tr("ui.over.winner", who=self.board.label_for(winner)), "bold green"
        return (tr("ui.over.win"), "bold green") if winner == s.viewer else (tr("ui.over.lose"), "bold red")

    def reason(self, reason: str) -> str:
        """The game's own sentence for how it ended, else the shared one, else the reason's name."""
        cat = self.catalog
        try:
            folder = self.board.session.game.spec.info.locale_folder
        except LookupError:
            folder = ""
        for key in (f"{folder}.ui.over.reason.{reason}", f"ui.over.reason.{reason}"):
            if cat.has(key) or (cat.fallback is not None and cat.fallback.has(key)):
                return cat.t(key)
        return reason

    def table(self) -> list[RenderableType]:
        s, d, tr = self.board.session, self.direction, self.tr
        seats = range(len(s.seats))
        labels = [self.board.label_for(i) for i in seats]
        shape = rtl.shape if d.reorder else (lambda x: x)
        name_w = max(cell_len(shape(x)) for x in labels + [tr("ui.over.player")])
        extra = self.board.summary_columns()
        r = self.result
        if r is not None and r.outcome is not None and r.outcome.scores is not None:
            extra.append(("ui.over.score_column", 5, [f"{x:g}" for x in r.outcome.scores]))
        cols = [(key, w) for key, w, _ in extra] + [("ui.over.moves", 6), ("ui.over.seconds", 8)]

        def fit(text: str, width: int, numeric: bool) -> Piece:
            pad = " " * max(0, width - cell_len(shape(text)))
            # Trailing spaces of right-to-left text show on its left, so padding
            # after the text right-aligns it in both directions.
            return Piece(pad + text if numeric or not d.rtl else text + pad, shrink=not numeric)

        def row(name: str, values: list[str], style: str = "", numeric: bool = True) -> Line:
            pad = " " * (name_w - cell_len(shape(name)))
            pieces = [Piece(name + pad, style)]
            for (key, w), v in zip(cols, values):
                cell = fit(v, max(w, cell_len(shape(tr(key)))), numeric)
                pieces += [Piece("  ", shrink=False), Piece(cell.text, style, shrink=cell.shrink)]
            return Line(pieces, d)

        rows = [row(tr("ui.over.player"), [tr(k) for k, _ in cols], "bold dim", numeric=False)]
        for seat in seats:
            moves = [x for x in s.decisions if x.seat == seat]
            mean = sum(x.seconds for x in moves) / len(moves) if moves else 0.0
            rows.append(row(labels[seat], [values[seat] for _, _, values in extra]
                            + [str(len(moves)), f"{mean:.2f}"]))
        return rows

    def render(self) -> RenderResult:
        d, tr = self.direction, self.tr
        head, style = self.headline()
        rows: list[RenderableType] = [Para(head, d, style, justify="center")]
        r = self.result
        if r is not None and r.outcome is not None:
            rows.append(Para(self.reason(r.outcome.reason), d, "italic", justify="center"))
        for key, params in self.board.summary_lines():
            rows.append(Para(tr(key, **params), d, justify="center"))
        rows.append(Line([Piece("")], d))
        if r is not None:
            rows.append(Line([Piece(tr("ui.over.turns")), Piece(" ", shrink=False),
                              Piece(str(r.turns), "bold", shrink=False), Piece("   ", shrink=False),
                              Piece(tr("ui.top.seed")), Piece(" ", shrink=False),
                              Piece(str(self.board.session.seed), "bold", shrink=False)], d))
            rows.append(Line([Piece("")], d))
        rows += self.table()
        block = self.board.summary_block()
        if block:
            rows += [Line([Piece("")], d), *block]
        if self.note is not None:
            key, params = self.note
            rows += [Line([Piece("")], d), Para(tr(key, **params), d, "bold magenta", justify="center")]
        return Group(*rows)


class GameOverScreen(LocalizedModal[str]):
    """Dismisses with "rematch", "quit", or "board" (look at the final position).

    Enter only keeps the result on screen: a person still pressing Enter to play
    when the game ends must not start another one (R does)."""

    AUTO_FOCUS = None
    BINDINGS = [
        Binding(keys("r"), "choose('rematch')", show=False),
        Binding("enter", "stay", show=False),
        Binding(keys("q"), "choose('quit')", show=False),
        Binding(keys("escape,b"), "choose('board')", show=False),
        Binding(keys("l"), "language", show=False),
    ]

    def __init__(self, board: GameScreen, result: MatchResult | None,
                 note: tuple[str, dict[str, Any]] | None = None, onward: str = "ui.keys.rematch") -> None:
        super().__init__()
        self.board, self.result, self.note = board, result, note
        self.onward = onward           # what R is called: a rematch, or a study's next game

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Summary(self.board, self.result, self.note)
            yield KeyBar([("R", self.onward, "choose('rematch')"), ("B", "ui.keys.board", "choose('board')"),
                          ("Q", "ui.keys.quit", "choose('quit')")], id="dialog-keys")

    async def localize(self) -> None:
        self.query_one(Summary).refresh(layout=True)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)

    def action_stay(self) -> None:
        """Enter: the result stays on screen."""


class Question(Localized, Widget):
    """A centred paragraph from a locale key (none: empty)."""

    def __init__(self, key: str | None, style: str = "bold", id: str | None = None) -> None:
        super().__init__(id=id)
        self.key, self.style, self.params = key, style, {}

    def render(self) -> RenderResult:
        text = self.tr(self.key, **self.params) if self.key else ""
        return Para(text, self.direction, self.style, justify="center")


class QuitScreen(LocalizedModal[bool]):
    AUTO_FOCUS = None
    BINDINGS = [
        Binding(keys("y,q"), "answer(True)", show=False),
        Binding(keys("n,escape"), "answer(False)", show=False),
    ]

    def __init__(self, saved: str = "", home: bool = False, study: bool = False) -> None:
        super().__init__()
        self.saved = saved             # the stored game's id ("": none), which tcgtui play --resume ID carries on
        self.home = home               # started from home, where it is continued (else tcgtui play --resume)
        self.study = study             # a study's game: carried on from the study's screen

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Question("ui.quit.question")
            if self.saved:
                key = "study.quit_saved" if self.study else "ui.quit.saved_home" if self.home else "ui.quit.saved"
                saved = Question(key, "italic")
                saved.params = {"game": self.saved[:8]}
                yield saved
            yield KeyBar([("Y", "ui.quit.yes", "answer(True)"), ("N", "ui.quit.no", "answer(False)")],
                         id="dialog-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class HandleScreen(LocalizedModal["str | None"]):
    """Asked once: the anonymous name a person's games are grouped under, kept in the config file."""

    AUTO_FOCUS = "#handle"
    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(self) -> None:
        super().__init__()
        self.suggestion = f"player-{secrets.randbelow(10_000):04d}"     # Enter on an empty field takes it

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Question("ui.handle.question")
            yield Question("ui.handle.why", "italic")
            yield Input(placeholder=self.suggestion, max_length=32, id="handle")
            yield Question(None, "bold red", id="handle-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        handle = event.value.strip() or self.suggestion
        try:
            config.check_handle(handle)
        except UserError:
            error = self.query_one("#handle-error", Question)
            error.key, error.params = "ui.handle.bad", {"handle": handle}
            error.refresh(layout=True)
            return
        try:
            config.save_handle(handle)
        except OSError:
            pass        # an unwritable config directory: the games are still kept; it is asked again next time
        self.dismiss(handle)

    def action_cancel(self) -> None:
        self.dismiss(None)
