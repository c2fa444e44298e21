"""The top bar (who plays whom, turn, phase, thinking) and the bottom row of key hints."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widget import Widget

from tcgtui.console_text import clean_values
from tcgtui.tui.bidi_text import Line, Piece
from tcgtui.tui.widgets import Localized

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


@dataclass(frozen=True)
class TopState:
    players: tuple[str, str] = ("", "")
    turn: int = 0
    limit: int = 0
    phase: str = "play"
    phases: str = "ui.phase"           # where the phase's name is, ``<phases>.<phase>`` (a game's own phases: its folder)
    thinking: str | None = None        # the label of the agent thinking
    your_move: bool = False
    seed: int = 0
    watch: tuple[bool, float] | None = None   # (paused, seconds per move) when spectating
    note: tuple[str, dict[str, Any]] | None = None   # a locale key and parameters (a campaign's level)
    your_move_key: str = "ui.top.your_move"          # what "your move" says (the card game: choose a card)


SEP = Piece("  ·  ", "dim", shrink=False)
NARROW_SEP = Piece(" · ", "dim", shrink=False)


class TopBar(Localized, Widget):
    """One line; while an agent thinks, a spinner turns (a timer, so a frozen UI shows)."""

    def __init__(self, id: str | None = None, **state: Any) -> None:
        super().__init__(id=id)
        self.state = TopState(**state)
        self.frame = 0
        self._timer: Timer | None = None

    def show(self, **changes: object) -> None:
        changes = {k: clean_values(v) for k, v in changes.items()}     # handles and specs come from outside
        state = replace(self.state, **changes)  # type: ignore[arg-type]
        if state == self.state:
            return
        self.state = state
        if self.state.thinking and self._timer is None:
            self._timer = self.set_interval(0.1, self._spin)
        elif not self.state.thinking and self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.refresh()

    def _spin(self) -> None:
        self.frame = (self.frame + 1) % len(SPINNER)
        self.refresh()

    def render(self) -> RenderResult:
        # Narrow terminals lose the app's name first, then the word "Turn" and the thinker's name
        # beside "thinking" (both players are named already), then the room around the dots; only
        # then are words cut short, the longest first, never the seed (a person reporting a game needs it).
        title = [Piece(self.tr("ui.app.title"), "bold"), SEP]
        full, short = self._pieces(False), self._pieces(True)
        for line in ([*title, *full], full, short, [NARROW_SEP if p is SEP else p for p in short]):
            if Line(line, self.direction).natural_width <= self.size.width:
                break
        return Line(line, self.direction)

    def _pieces(self, short: bool) -> list[Piece]:
        s, tr = self.state, self.tr
        turn = [] if short else [Piece(tr("ui.top.turn")), Piece(" ", shrink=False)]
        pieces = [Piece(tr("ui.top.vs", a=s.players[0], b=s.players[1])), SEP,
                  *turn, Piece(f"{s.turn}/{s.limit}", "bold", shrink=False), SEP]
        if s.phase == "over":
            pieces.append(Piece(tr("ui.phase.over"), "bold yellow"))
        elif s.thinking:
            said = tr("ui.top.thinking_short") if short else tr("ui.top.thinking", who=s.thinking)
            pieces += [Piece(said, "bold cyan"), Piece(" ", shrink=False),
                       Piece(SPINNER[self.frame], "bold cyan", shrink=False)]
        elif s.your_move:
            pieces.append(Piece(tr(s.your_move_key), "bold green"))
        else:
            pieces.append(Piece(tr(f"{s.phases}.{s.phase}")))
        if s.watch is not None:
            paused, seconds = s.watch
            pieces += [SEP, Piece(tr("ui.top.paused") if paused else tr("ui.top.running"),
                                  "bold yellow" if paused else ""),
                       Piece(" ", shrink=False), Piece(f"{seconds:g}s", shrink=False)]
        if s.note is not None:
            key, params = s.note
            pieces += [SEP, Piece(tr(key, **params), "bold magenta")]
        return pieces + [SEP, Piece(tr("ui.top.seed"), "dim"), Piece(" ", shrink=False),
                         Piece(str(s.seed), "dim", shrink=False)]


class KeyHint(Localized, Widget):
    """A key and what it does; clicking it does the same."""

    def __init__(self, key: str, label_key: str, action: str) -> None:
        super().__init__(classes="hint")
        self.key, self.label_key, self.action = key, label_key, action

    def render(self) -> RenderResult:
        return Line([Piece(f" {self.key} ", "reverse bold", shrink=False), Piece(" ", shrink=False),
                     Piece(self.tr(self.label_key))], self.direction)

    async def on_click(self) -> None:
        await self.screen.run_action(self.action)


class KeyBar(Localized, Horizontal):
    """The hints for the current screen, in reading order."""

    def __init__(self, hints: list[tuple[str, str, str]], id: str | None = None) -> None:
        super().__init__(id=id)
        self.hints = hints

    def compose(self) -> ComposeResult:
        hints = list(reversed(self.hints)) if self.direction.rtl else self.hints
        for key, label, action in hints:
            yield KeyHint(key, label, action)
