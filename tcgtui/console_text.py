"""Print localized paragraphs to a plain terminal, right-to-left ones included.

Commands that print prose (``cards``, ``rules``) go through here so Arabic is
shaped, wrapped and reordered by the one path in ``tcgtui.rtl``.

It also holds the one sanitiser for text from outside (model replies, handles
in imported files, run names, paths, error bodies): ``clean`` drops control
characters and whole terminal escape sequences, ``safe`` also escapes Rich
markup.  Everything printed to a terminal or shown in a widget that did not
come from our own catalogs goes through one of them.
"""

from __future__ import annotations

import re
from typing import Any

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
        """One paragraph, cleaned: it may hold a pack's card names, which come from outside."""
        width = max(10, self.width - indent)
        for line in rtl.lines_for_display(clean(text, newlines=True), width, self.mode, self.rtl):
            pad = " " * (self.width - indent - cell_len(line)) if self.rtl else " " * indent
            self.console.print(Text(pad + line, style=style), soft_wrap=True, highlight=False)

    def blank(self) -> None:
        self.console.print()


# Whole escape sequences, 7-bit and 8-bit forms: CSI (ESC [ or 0x9B) with its parameters;
# string commands OSC, DCS, SOS, PM, APC (ESC ] P X ^ _ or 0x9D 0x90 0x98 0x9E 0x9F) up to
# their terminator (BEL, ESC \\ or 0x9C) or the end of the text; any other ESC sequence.
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\\\|\x9c)?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?")
_CONTROLS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")       # C0 (but tab), DEL, C1
_CONTROLS_NO_TAB = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")        # explicit embeddings, overrides and isolates
_SURROGATES = re.compile("[\ud800-\udfff]")       # a file name's undecodable bytes: no terminal can be sent them


def clean(text: Any, *, newlines: bool = False, tabs: bool = True) -> str:
    """Text from outside, safe to print: no control characters, no escape sequences, no
    bidi overrides (which could make text read other than it is), no lone surrogates (a
    path's undecodable bytes, which a UTF-8 terminal cannot be sent: shown as U+FFFD).

    ``newlines`` keeps ``\\n`` (and turns ``\\r\\n`` into it) where a context shows
    several lines; otherwise line breaks become spaces, so one message stays one line.
    """
    text = _SURROGATES.sub("\ufffd", _BIDI.sub("", _SEQUENCE.sub("", str(text)))).replace("\r\n", "\n")
    if not newlines:
        text = text.replace("\n", " ")
    controls = _CONTROLS if tabs else _CONTROLS_NO_TAB
    if newlines:
        return "\n".join(controls.sub("", part) for part in text.split("\n"))
    return controls.sub("", text)


def shorten(text: str, limit: int = 80) -> str:
    """At most ``limit`` characters of a value a user gave, for a message that quotes it."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def safe(text: Any, *, newlines: bool = False) -> str:
    """``clean``, with Rich markup escaped: for strings that Rich will read as markup."""
    # start-up time: Rich's markup parser only for text Rich will read as markup
    from rich.markup import escape

    return escape(clean(text, newlines=newlines))


def safe_params(**params: Any) -> dict[str, Any]:
    """Catalog parameters from outside, made safe for a message Rich prints with markup."""
    return {k: safe(v) if isinstance(v, str) else v for k, v in params.items()}


def clean_values(value: Any) -> Any:
    """``clean`` every string in a value (a tuple of handles, a note's parameters), keeping its shape."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, (tuple, list)):
        return type(value)(clean_values(v) for v in value)
    if isinstance(value, dict):
        return {k: clean_values(v) for k, v in value.items()}
    return value
