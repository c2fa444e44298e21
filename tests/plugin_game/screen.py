"""Nim's screen: the heap, drawn as stones, and the shared top bar, key bar and log."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from tcgtui.engine.core import Event
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.tui.games.base import SPECTATOR, GameScreen

from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.widgets.log import BattleLog

KEYS = [("1-3", "nim.ui.keys.take", "noop"), ("?", "ui.keys.rules", "rules"),
        ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]


class NimScreen(GameScreen):
    DEFAULT_CSS = """
    NimScreen #main { height: 1fr; }
    NimScreen #heap-pane { width: 1fr; border: round $accent; }
    NimScreen #log { width: 1fr; }
    """
    PANE_TITLES = {"#heap-pane": "nim.ui.board"}
    BINDINGS = [*[Binding(str(n), f"take({n})", show=False) for n in range(1, 10)]]

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        yield KeyBar(KEYS, id="keys")
        with Horizontal(id="main"):
            with Vertical(id="heap-pane", classes="pane"):
                yield Static(id="heap")
            yield BattleLog(self.narrate, id="log")

    async def on_mount(self) -> None:
        self.query_one(TopBar).show(players=(self.label_for(self.session.viewer),
                                             self.label_for(1 - self.session.viewer)),
                                    seed=self.session.seed, watch=self._watch_state(), note=self.note, phase="play")
        self.redraw()
        self.run_game()

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        lines = self.session.game.spec.narrator(self.session.game, catalog, None if seat == SPECTATOR else seat).all([event])
        return " ".join(lines) if lines else None

    def redraw(self) -> None:
        obs = self.session.observation(self.session.viewer)
        text = Text(self.tr("nim.ui.heap", heap=obs.heap) + "\n\n")
        text.append("● " * obs.heap, style="bold yellow")
        self.query_one("#heap", Static).update(text)

    def ask_human(self, seat: int) -> None:
        self.query_one(TopBar).show(your_move=True, thinking=None)
        self.redraw()

    async def game_ended(self, result: MatchResult | None) -> None:
        self.redraw()
        self.query_one(TopBar).show(phase="over", thinking=None, your_move=False, watch=None)

    def action_take(self, n: int) -> None:
        waiting = self.session.human_waiting()
        if waiting is None or str(n) not in waiting.legal_moves:
            return
        if self.session.choose(str(n)):
            self.query_one(TopBar).show(your_move=False)
            self.redraw()

    def action_noop(self) -> None:
        """A key hint only."""

