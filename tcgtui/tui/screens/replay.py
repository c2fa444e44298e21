"""The replay viewer: a stored game, position by position, with what each player said and tried.

←/→ step one move, Home/End jump to the deal and the end, N/P to the next and
previous marked moment (``tcgtui.replay.moments``, and the blunders of ``tcgtui.quality.worst``).  The board pane draws the
position after the current move with the game's own board where its screen module
registers one (given by whoever opens the replay), else as text (``tcgtui.replay.boards``); the move pane says
who played what, narrates it and names the moment; the decision pane shows the
model's reasoning and every invalid attempt (``decisions.info_json``), cleaned
for the terminal.  Leaving goes back to the screen below (home), or ends the
app when the replay was all it showed (``tcgtui replay GAME_ID``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget

from tcgtui.console_text import clean, shorten
from tcgtui.opponents.human import HUMAN
from tcgtui.replay.boards import draw
from tcgtui.replay.steps import Replay, Step
from tcgtui.replay.moments import marked
from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.keys import keys
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar
from tcgtui.tui.widgets.title import TitleBar, game_text, titled

REASONING_SHOWN = 4000        # characters of one attempt's reasoning drawn (the store keeps more)


def seat_name(spec: str, tr: Any) -> str:
    """A stored seat as a person reads it, as the board names it: a person by their handle (stored as
    ``human:HANDLE``), the second person of a game at one keyboard (who gives none) as such, a player by its spec."""
    if spec == HUMAN:
        return str(tr("hub.people"))
    return clean(shorten(spec.removeprefix(f"{HUMAN}:"), 40))


class BoardPane(Localized, Widget):
    DEFAULT_CSS = """
    BoardPane { height: auto; min-height: 5; width: 1fr; }
    """

    def __init__(self, viewer: ReplayScreen, id: str | None = None) -> None:
        super().__init__(id=id)
        self.viewer = viewer

    def render(self) -> RenderResult:
        v = self.viewer
        board = draw(v.replay, v.index, self.catalog, self.catalog.code)
        rows: list[Any] = list(board.picture)
        if board.picture and board.facts:
            rows.append(Text(""))
        rows += [Para(f, self.direction) for f in board.facts]
        return Group(*rows)


class MovePane(Localized, Widget):
    DEFAULT_CSS = """
    MovePane { height: auto; width: 1fr; }
    """

    def __init__(self, viewer: ReplayScreen, id: str | None = None) -> None:
        super().__init__(id=id)
        self.viewer = viewer

    def render(self) -> RenderResult:
        v = self.viewer
        step = v.step
        d = self.direction
        rows: list[Any] = []
        if step.index == 0:
            rows.append(Para(self.tr("replay.deal"), d))
        else:
            who = v.player_name(step.seat)
            shown = v.move_name(step.move) if not step.move.startswith("!") else \
                self.tr("replay.invalid_move", kind=step.move[1:])
            rows.append(Para(self.tr("replay.played", player=who, move=shown), d, "bold"))
        for line in v.narrate(step):
            rows.append(Para(line, d))
        for mark in (step.moment, step.judged):
            if mark is not None:
                key, params = mark
                sep = self.tr("ui.player.list_sep")
                shown_params = {k: sep.join(v.move_name(m) for m in p) if isinstance(p, tuple) else clean(str(p))
                                for k, p in params.items()}
                rows.append(Para("⚑ " + self.tr(key, **shown_params), d, "bold red"))
        return Group(*rows)


class DecisionPane(Localized, Widget):
    DEFAULT_CSS = """
    DecisionPane { height: auto; width: 1fr; }
    """

    def __init__(self, viewer: ReplayScreen, id: str | None = None) -> None:
        super().__init__(id=id)
        self.viewer = viewer

    def render(self) -> RenderResult:
        step = self.viewer.step
        d = self.direction
        decision = step.decision
        if decision is None:
            return Para(self.tr("replay.no_decision"), d, "dim")
        info = decision.info or {}
        rows: list[Any] = [Para(self.tr("replay.seconds", seconds=f"{decision.seconds:.2f}"), d, "dim")]
        attempts = info.get("attempts") or []
        for n, attempt in enumerate(attempts, 1):
            error = attempt.get("error")
            head = self.tr("replay.attempt_bad", n=n, error=clean(str(error))) if error else \
                self.tr("replay.attempt_ok", n=n)
            rows.append(Para(head, d, "bold red" if error else "bold"))
            reasoning = clean(shorten(str(attempt.get("reasoning") or ""), REASONING_SHOWN), newlines=True)
            if reasoning:
                rows.append(Text(reasoning, style="italic dim"))
            reply = clean(shorten(str(attempt.get("reply") or ""), REASONING_SHOWN), newlines=True)
            if reply:
                rows.append(Text(reply))
        if not attempts:
            rows.append(Para(self.tr("replay.no_reasoning"), d, "dim"))
        return Group(*rows)


class ReplayScreen(LocalizedScreen[None]):
    CSS_PATH = [Path(__file__).with_name("replay.tcss")]
    BINDINGS = [
        # Before the board's scroll view, which has Home, End and the arrows of its own once the
        # board is taller or wider than the terminal (80x24: End scrolled instead of going to the end).
        Binding("right,space", "step(1)", show=False, priority=True),
        Binding("left,backspace", "step(-1)", show=False, priority=True),
        Binding("home", "jump(0)", show=False, priority=True), Binding("end", "jump(-1)", show=False, priority=True),
        Binding(keys("n"), "moment(1)", show=False), Binding(keys("p"), "moment(-1)", show=False),
        Binding(keys("q,escape"), "leave", show=False),
    ]

    def __init__(self, replay: Replay, table: type[Widget] | None = None) -> None:
        """``table``: the widget the game's screen module draws a stored position with
        (``tcgtui.tui.games.replay_board_for``); without one the position is drawn as text."""
        super().__init__()
        self.replay = replay
        self.index = 0
        self.moments = marked(replay.steps)
        self.table = table

    @property
    def step(self) -> Step:
        return self.replay.steps[self.index]

    @property
    def files(self) -> list[Any]:
        """The files the game was built from (``GameSpec.files``: the card game's pack), which may name moves."""
        return [file for _, file in self.replay.spec.files(self.replay.game)]

    @property
    def last(self) -> int:
        return len(self.replay.steps) - 1

    def compose(self) -> ComposeResult:
        yield TitleBar(self.title_text, id="replay-title")
        with Horizontal(id="replay-body"):
            with VerticalScroll(id="replay-board-box", classes="-table" if self.table else ""):
                # the game's own board, as it is played on, else the position as text
                yield self.table(id="replay-board") if self.table else BoardPane(self, id="replay-board")
            with Vertical(id="replay-side"):
                with VerticalScroll(id="replay-move-box"):
                    yield MovePane(self, id="replay-move")
                with VerticalScroll(id="replay-decision-box"):
                    yield DecisionPane(self, id="replay-decision")
        yield KeyBar([("←→", "replay.keys.step", "step(1)"), ("N P", "replay.keys.moment", "moment(1)"),
                      ("L", "ui.keys.language", "language"), ("Q", "replay.keys.back", "leave")], id="keys")

    async def on_mount(self) -> None:
        super().on_mount()
        self._order()
        self.title_panes()
        await self._draw_table()

    async def _draw_table(self) -> None:
        if self.table is not None:
            await self.query_one("#replay-board").show_position(self.replay, self.index)  # type: ignore[attr-defined]

    def _order(self) -> None:
        """Right to left, the board stands on the right."""
        body = self.query_one("#replay-body")
        board, side = self.query_one("#replay-board-box"), self.query_one("#replay-side")
        side_by_side = not self.has_class("-narrow")
        first, second = (side, board) if self.direction.rtl and side_by_side else (board, side)
        body.move_child(first, before=0)
        body.move_child(second, after=first)

    async def on_resize(self) -> None:
        self._order()
        self.call_after_refresh(self.title_panes)
        await self._draw_table()        # a table may draw differently in a taller terminal

    def title_panes(self) -> None:
        titled(self.query_one("#replay-board-box"), self.tr("replay.pane.board"), self.direction)
        titled(self.query_one("#replay-move-box"), self.tr("replay.pane.move", n=self.index, of=self.last),
               self.direction)
        titled(self.query_one("#replay-decision-box"), self.tr("replay.pane.decision"), self.direction)

    def title_text(self) -> str:
        row = self.replay.row
        name = game_text(self.catalog, row.game, "name")
        players = " – ".join(self.player_name(s) for s in range(len(row.seats)))
        return self.tr("replay.title", game=name, players=players, id=row.id[:8],
                       result=self.result_text())

    def result_text(self) -> str:
        row = self.replay.row
        if row.status != "finished":
            return self.tr(f"replay.status.{row.status}") if self.catalog.has(f"replay.status.{row.status}") or \
                self.catalog.fallback is not None and self.catalog.fallback.has(f"replay.status.{row.status}") else row.status
        if row.winner is None:
            scores = row.seat_scores
            if scores and len(scores) == 1 and scores[0] is not None:
                return self.tr("replay.score", score=f"{scores[0]:g}")
            return self.tr("replay.draw")
        return self.tr("replay.winner", seat=row.winner + 1, player=self.player_name(row.winner))

    def player_name(self, seat: int) -> str:
        seats = self.replay.row.seats
        if 0 <= seat < len(seats):
            return seat_name(seats[seat], self.tr)
        return self.tr("replay.referee")

    def move_name(self, move: str) -> str:
        """A move as a person reads it: a card of a pack the game was built from by its name, else the
        stored text."""
        for file in self.files:
            if move in getattr(file, "index", {}):
                return file.card(move).name(self.catalog.code)
        return clean(shorten(move, 300))

    def narrate(self, step: Step) -> list[str]:
        spec = self.replay.spec
        if spec.narrator is None:
            return []
        try:
            narrator = spec.narrator(self.replay.game, self.catalog, None)
            return [clean(line) for line in narrator.all(step.events) if line]
        except (KeyError, ValueError, TypeError):      # an event this narrator has no sentence for
            return []

    async def show(self, index: int) -> None:
        self.index = max(0, min(self.last, index))
        self.title_panes()
        await self._draw_table()
        for pane in ("#replay-board", "#replay-move", "#replay-decision", "#replay-title"):
            self.query_one(pane).refresh(layout=True)
        for box in ("#replay-move-box", "#replay-decision-box"):
            self.query_one(box).scroll_home(animate=False)

    async def action_step(self, by: int) -> None:
        await self.show(self.index + by)

    async def action_jump(self, to: int) -> None:
        await self.show(self.last if to < 0 else to)

    async def action_moment(self, by: int) -> None:
        ahead = [m for m in self.moments if (m > self.index if by > 0 else m < self.index)]
        if ahead:
            await self.show(ahead[0] if by > 0 else ahead[-1])
        else:
            self.notify(self.tr("replay.no_more_moments"), timeout=2)

    async def localize(self) -> None:
        self._order()
        self.title_panes()
        await self._draw_table()          # card rows mirror in right-to-left
        for widget in self.query("*"):
            widget.refresh(layout=True)

    def action_leave(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss()
        else:
            self.app.exit()
