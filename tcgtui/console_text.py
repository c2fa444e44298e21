"""Print localized paragraphs to a plain terminal, right-to-left ones included.

Commands that print prose (``cards``, ``rules``) go through here so Arabic is
shaped, wrapped and reordered by the one path in ``tcgtui.rtl``.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from tcgtui import rtl


class ProsePrinter:
    def __init__(self, console: Console, is_rtl: bool, mode: str, width: int | None = None) -> None:
        self.console = console
        self.rtl = is_rtl and mode != "off"
        self.mode = mode
        self.width = min(width or console.width, 100)

    def paragraph(self, text: str, indent: int = 0, style: str = "") -> None:
        width = max(10, self.width - indent)
        for line in rtl.lines_for_display(text, width, self.mode, self.rtl):
            pad = " " * (self.width - indent - cell_len(line)) if self.rtl else " " * indent
            self.console.print(Text(pad + line, style=style), soft_wrap=True, highlight=False)

    def blank(self) -> None:
        self.console.print()
