"""A language model's output as it arrives: reasoning dimmed, the answer plain.

Chunks are buffered and drawn at most ten times a second, so a fast stream
cannot flood the event loop.  Each paragraph takes its own direction: a model
asked in Arabic may still reason in English.
"""

from __future__ import annotations

from rich.console import Group
from textual.app import ComposeResult, RenderResult
from textual.containers import VerticalScroll
from textual.widget import Widget

from tcgtui import rtl
from tcgtui.console_text import clean
from tcgtui.tui.bidi_text import Direction, Para
from tcgtui.tui.widgets import Localized

KEEP_CHARS = 6000       # what stays on screen of one decision's output
STYLES = {"reasoning": "dim italic", "answer": "bold", "attempt": "yellow"}


class StreamText(Localized, Widget):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[list[str]] = []        # [kind, text] in arrival order

    def render(self) -> RenderResult:
        paras = []
        for kind, text in self.parts:
            for para in text.split("\n"):
                if para.strip():
                    d = Direction(rtl.has_rtl(para), self.direction.mode)
                    paras.append(Para(para, d, STYLES.get(kind, "")))
        return Group(*paras)


class StreamPanel(Localized, VerticalScroll, can_focus=False):
    """Shows the latest decision's stream for one seat at a time."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.body = StreamText()
        self._dirty = False

    def compose(self) -> ComposeResult:
        yield self.body

    def on_mount(self) -> None:
        self.set_interval(0.1, self._flush)

    def clear(self) -> None:
        self.body.parts = []
        self._dirty = True

    def feed(self, kind: str, text: str) -> None:
        text = clean(text, newlines=True)          # a model's reply: never escape sequences
        parts = self.body.parts
        if kind == "attempt":
            if text.strip() in ("", "1"):      # every decision's first request: not news
                return
            parts.append([kind, self.tr("ui.stream.attempt", text=text) + "\n"])
        elif parts and parts[-1][0] == kind:
            parts[-1][1] += text
        else:
            parts.append([kind, text])
        total = sum(len(p[1]) for p in parts)
        while total > KEEP_CHARS and len(parts) > 1:
            total -= len(parts.pop(0)[1])
        if total > KEEP_CHARS:
            parts[0][1] = parts[0][1][-KEEP_CHARS:]
        self._dirty = True

    def _flush(self) -> None:
        if self._dirty:
            self._dirty = False
            self.body.refresh(layout=True)

    def watch_virtual_size(self) -> None:
        """The text grew: keep its newest line in view."""
        self.scroll_end(animate=False, immediate=True)
