"""The battle log: every event narrated, in the reader's language, newest at the bottom.

One line-API widget holds the whole log.  A widget per entry made every move mount
a widget, restyle it and lay out the whole screen again (issue 12 §3); here an
entry is wrapped into rows once per width and language, and only the rows in view
are rendered, each once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from rich.style import Style
from rich.cells import cell_len
from rich.segment import Segment
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tcgtui.console_text import clean
from tcgtui.engine.core import Event
from tcgtui.locales import Catalog
from tcgtui.tui.bidi_text import Para
from tcgtui.tui.widgets import Localized



class Verbatim(str):
    """Text from the log's narrator shown as written: left to right in every language,
    its own lines kept, cut (never reflowed) at the width: code, such as a guessed rule."""


# The game's sentence for one event from a seat's point of view (None: not shown); a
# list mixes sentences and ``Verbatim`` blocks, each starting on a line of its own.
Narrate = Callable[[Event, int, Catalog], "str | list[str] | None"]
CODE_STYLE = "cyan"

MAX_ENTRIES = 400      # older entries leave the log; the record keeps everything


@dataclass
class LogEntry:
    """The events of one step of a move, seen from ``seat``; narrated when laid out,
    so the log follows the language."""

    events: list[Event]
    seat: int

    def style_for(self, event: Event) -> str:
        if event.kind == "turn":
            return "bold reverse"
        if event.kind == "game_over":
            return "bold yellow"
        if self.seat >= 0:
            return "" if event.player == self.seat else "cyan"
        return "" if event.player == 0 else "cyan"


Row = tuple[str, str, str]      # one wrapped, reordered line: text, style, justify


class BattleLog(Localized, ScrollView, can_focus=False):
    """Shows the newest entry as events arrive (new events only come while the reader
    watches a move, so following them beats keeping an older scroll position)."""

    DEFAULT_CSS = "BattleLog { overflow-x: hidden; overflow-y: auto; }"

    def __init__(self, narrate: Narrate, id: str | None = None) -> None:
        super().__init__(id=id)
        self.narrate = narrate
        self.entries: list[LogEntry] = []
        self._rows: list[Row] = []
        self._counts: list[int] = []      # rows of each entry, to drop the oldest entries' rows
        self._laid_out: tuple[int, str, bool] | None = None    # width, language, right-to-left
        self._strips: dict[int, Strip] = {}
        self._painting = False                # in render_lines: the rows were checked already

    def _entry_rows(self, entry: LogEntry, width: int) -> list[Row]:
        d = self.direction
        rows: list[Row] = []
        for e in entry.events:
            said = self.narrate(e, entry.seat, self.catalog)
            for part in [said] if isinstance(said, str) else said or []:
                if isinstance(part, Verbatim):
                    rows += [("  " + line[i:i + width - 2], CODE_STYLE, "left")
                             for line in clean(part, newlines=True).splitlines() or [""]
                             for i in range(0, max(1, len(line)), max(1, width - 2))]
                elif part:                                # names in events may come from outside
                    para = Para(clean(part, newlines=True), d, entry.style_for(e))
                    rows += [(text, para.style, para.justify) for text in para.lines(width)]  # type: ignore[misc]
        return rows

    def _key(self) -> tuple[int, str, bool]:
        return (self.scrollable_content_region.width, self.catalog.code, self.direction.rtl)

    def _lay_out(self) -> None:
        """Wrap every entry again (a new width or language)."""
        key = self._key()
        self._laid_out, self._strips = key, {}
        wrapped = [self._entry_rows(entry, key[0]) for entry in self.entries]
        self._rows = [row for rows in wrapped for row in rows]
        self._counts = [len(rows) for rows in wrapped]
        self._resize_virtual()

    def _resize_virtual(self) -> None:
        """A new height for the rows: the scrollbar follows without a layout of the screen
        (``virtual_size`` itself asks for one); showing or hiding it still lays out."""
        size = Size(self._laid_out[0] if self._laid_out else 0, len(self._rows))
        if size != self.virtual_size:
            self.set_reactive(BattleLog.virtual_size, size)
            self._scroll_update(size)
        self.scroll_end(animate=False, immediate=True)

    def on_resize(self) -> None:
        if self._key() != self._laid_out:
            self._lay_out()
        self.scroll_end(animate=False, immediate=True)

    async def add(self, events: Sequence[Event], seat: int) -> None:
        if not events:
            return
        entry = LogEntry(list(events), seat)
        self.entries.append(entry)
        if self._laid_out is None or self._key() != self._laid_out:
            self._lay_out()
        else:
            rows = self._entry_rows(entry, self._laid_out[0])
            self._rows += rows
            self._counts.append(len(rows))
        if len(self.entries) > MAX_ENTRIES:
            drop = len(self.entries) - MAX_ENTRIES
            del self.entries[:drop]
            del self._rows[:sum(self._counts[:drop])]
            del self._counts[:drop]
            self._strips = {}                     # rows moved up
        self._resize_virtual()
        self.refresh()

    def seen_by(self, seat: int) -> None:
        """Tell every entry again from ``seat``'s side (two people at one keyboard take turns at the
        screen: what one seat drew is not shown to the other)."""
        for entry in self.entries:
            entry.seat = seat
        if self._laid_out is not None:
            self._lay_out()
        self.refresh()

    def _strip(self, y: int, width: int) -> Strip:
        """One row as one segment, padded to the width in the row's style (as Rich pads a
        justified line): rows are wrapped and reordered already, so Rich's line machinery
        only cost time (a move's new rows were a third of the frame after it)."""
        strip = self._strips.get(y)
        if strip is None:
            text, style, justify = self._rows[y]
            if justify == "right":
                text = text.rstrip()
            pad = max(0, width - cell_len(text))
            row = " " * pad + text if justify == "right" else text + " " * pad
            base = self.rich_style
            strip = Strip([Segment(row, base + Style.parse(style) if style else base)]).crop(0, width)
            self._strips[y] = strip
        return strip

    def render_lines(self, crop: Region) -> list[Strip]:
        """Rows are checked against the width and language once per paint, not once per
        row (the width is a walk over the scrollbar and gutter styles)."""
        if self._key() != self._laid_out:
            self._lay_out()
        self._painting = True
        try:
            return super().render_lines(crop)
        finally:
            self._painting = False

    def render_line(self, y: int) -> Strip:
        if not self._painting and self._key() != self._laid_out:
            self._lay_out()
        assert self._laid_out is not None
        width = self._laid_out[0]
        row = self.scroll_offset.y + y
        if row >= len(self._rows):
            return Strip.blank(width, Style.from_color(bgcolor=self.rich_style.bgcolor))   # as a container's
        return self._strip(row, width).apply_offsets(0, row)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips = {}
