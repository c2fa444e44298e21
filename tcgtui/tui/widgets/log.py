"""The battle log: every event narrated, in the reader's language, newest at the bottom."""

from __future__ import annotations

from typing import Sequence

from rich.console import Group
from textual.app import RenderResult
from textual.containers import VerticalScroll
from textual.widget import Widget

from engine.core import Event
from tcgtui.tui.bidi_text import Para
from tcgtui.tui.narration import narrate
from tcgtui.tui.widgets import Localized

MAX_ENTRIES = 400      # older entries leave the log; the record keeps everything


class LogEntry(Localized, Widget):
    """The events of one step of a move; narrated at render time, so it follows the language."""

    def __init__(self, events: Sequence[Event], seat: int) -> None:
        super().__init__()
        self.events = list(events)
        self.seat = seat

    def style_for(self, event: Event) -> str:
        if event.kind == "turn":
            return "bold reverse"
        if event.kind == "game_over":
            return "bold yellow"
        if self.seat >= 0:
            return "" if event.player == self.seat else "cyan"
        return "" if event.player == 0 else "cyan"

    def render(self) -> RenderResult:
        pack, d = self.tcg.pack, self.direction
        paras = []
        for e in self.events:
            line = narrate(e, self.seat, self.catalog, pack)
            if line:
                paras.append(Para(line, d, self.style_for(e)))
        return Group(*paras)


class BattleLog(Localized, VerticalScroll, can_focus=False):
    """Anchored: stays on the newest entry as events arrive, until the reader scrolls up."""

    def on_mount(self) -> None:
        self.anchor()

    async def add(self, events: Sequence[Event], seat: int) -> None:
        if not events:
            return
        await self.mount(LogEntry(events, seat))
        entries = list(self.query(LogEntry))
        if len(entries) > MAX_ENTRIES:
            await self.remove_children(entries[:len(entries) - MAX_ENTRIES])
