"""The battle log: every event narrated, in the reader's language, newest at the bottom."""

from __future__ import annotations

from typing import Callable, Sequence

from rich.console import Group
from textual.app import RenderResult
from textual.containers import VerticalScroll
from textual.widget import Widget

from tcgtui.console_text import clean
from tcgtui.engine.core import Event
from tcgtui.tui.bidi_text import Para
from tcgtui.locales import Catalog
from tcgtui.tui.widgets import Localized

# The game's sentence for one event from a seat's point of view (None: not shown).
Narrate = Callable[[Event, int, Catalog], "str | None"]

MAX_ENTRIES = 400      # older entries leave the log; the record keeps everything


class LogEntry(Localized, Widget):
    """The events of one step of a move; narrated at render time, so it follows the language."""

    def __init__(self, events: Sequence[Event], seat: int, narrate: Narrate) -> None:
        super().__init__()
        self.events = list(events)
        self.seat = seat
        self.narrate = narrate

    def style_for(self, event: Event) -> str:
        if event.kind == "turn":
            return "bold reverse"
        if event.kind == "game_over":
            return "bold yellow"
        if self.seat >= 0:
            return "" if event.player == self.seat else "cyan"
        return "" if event.player == 0 else "cyan"

    def render(self) -> RenderResult:
        d = self.direction
        paras = []
        for e in self.events:
            line = self.narrate(e, self.seat, self.catalog)
            if line:
                line = clean(line, newlines=True)       # names in events may come from outside
                paras.append(Para(line, d, self.style_for(e)))
        return Group(*paras)


class BattleLog(Localized, VerticalScroll, can_focus=False):
    """Shows the newest entry as events arrive (new events only come while the reader
    watches a move, so following them beats keeping an older scroll position).

    (Not ``anchor()``: in Textual 8.2 an anchored container that grows, as on a
    terminal resize, is left at a negative scroll offset.)"""

    def on_resize(self) -> None:
        self.scroll_end(animate=False, immediate=True)

    def watch_virtual_size(self) -> None:
        """The entries' total height changed (a new entry was laid out): show the end."""
        self.scroll_end(animate=False, immediate=True)

    def __init__(self, narrate: Narrate, id: str | None = None) -> None:
        super().__init__(id=id)
        self.narrate = narrate

    async def add(self, events: Sequence[Event], seat: int) -> None:
        if not events:
            return
        await self.mount(LogEntry(events, seat, self.narrate))
        entries = list(self.query(LogEntry))
        if len(entries) > MAX_ENTRIES:
            await self.remove_children(entries[:len(entries) - MAX_ENTRIES])
