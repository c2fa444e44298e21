"""Renderables that prepare right-to-left text at the width a widget really gets.

Widgets never hold visual-order strings.  They hold these objects, which call
``tcgtui.rtl`` when Rich renders them, with Rich's ``max_width``: a resize or a
language switch re-wraps and re-reorders correctly.  They produce Rich ``Text``
(never markup), so a ``[3]`` in a card name stays literal.

``Para`` is wrapped prose.  ``Line`` is one line built from pieces: words that
may be truncated (logically, before reordering) and fixed cells such as
numbers, which keep their own left-to-right order; in right-to-left layouts
the pieces are laid out from the right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import StyleType
from rich.text import Text

from tcgtui import rtl


@dataclass(frozen=True)
class Direction:
    """How text of the current language is drawn: its direction and the --rtl mode."""

    rtl: bool = False
    mode: str = "app"

    @property
    def reorder(self) -> bool:
        """True when the app itself must shape and reorder (not the terminal)."""
        return self.rtl and self.mode == "app"

    @property
    def justify(self) -> str:
        return "right" if self.rtl else "left"


LTR = Direction(False, "app")


@dataclass(frozen=True)
class Piece:
    """One cell of a ``Line``: a word group that may shrink, or a fixed one (numbers, bars)."""

    text: str
    style: StyleType = ""
    shrink: bool = True


# A signed number in right-to-left prose ("-1") would show as "1-" (UAX #9: the
# sign joins the Arabic run), and a quoted Latin value ('ann', a player's answer)
# would lose a quote to the far side of the run.  Wrapped in a left-to-right
# isolate each keeps its order; the marks are dropped once the line is in display order.
# A playing card (10♦) is isolated too, or the suit would show before its rank.
_SIGNED = re.compile(r"(?<![\w.])([-+\u2212]\d+(?:[.,:/]\d+)*)")
_QUOTED = re.compile(r"""('[^'\n\u0590-\u08ff]*'|"[^"\n\u0590-\u08ff]*")""")
_CARD = re.compile(r"(?<!\w)((?:10|[2-9AJQK])[\u2660-\u2667])")
_SUITS = re.compile(r"[\u2660-\u2667]")
_LRI, _PDI = "\u2066", "\u2069"


def _isolate(text: str) -> str:
    if "'" in text or '"' in text:
        text = _QUOTED.sub(lambda m: _LRI + m.group(1) + _PDI, text)
    if _SUITS.search(text):
        text = _CARD.sub(lambda m: _LRI + m.group(1) + _PDI, text)
    return _SIGNED.sub(lambda m: _LRI + m.group(1) + _PDI, text) if "-" in text or "+" in text else text


def _balanced(lines: list[str]) -> list[str]:
    """Wrapped lines with every isolate closed on its own line and reopened on the next: an isolate
    cut by the wrap (a long quoted rule) would otherwise leave its second half to the bidi pass."""
    out, depth = [], 0
    for line in lines:
        opened = _LRI * depth
        for ch in line:
            if ch == _LRI:
                depth += 1
            elif ch == _PDI and depth:
                depth -= 1
        out.append(opened + line + _PDI * depth)
    return out


def _unisolate(text: str) -> str:
    return text.replace(_LRI, "").replace(_PDI, "")


def _app_bidi(text: str, direction: Direction) -> bool:
    """Whether the app shapes and reorders this text (Arabic words in an English line too)."""
    return direction.mode == "app" and (direction.rtl or rtl.has_rtl(text))


def _shown_len(text: str, direction: Direction) -> int:
    return cell_len(rtl.shape(text) if _app_bidi(text, direction) else text)


def _display(text: str, width: int, direction: Direction) -> str:
    """Truncate logically to ``width`` cells, then reorder if the app does bidi."""
    if direction.reorder:
        return _unisolate(rtl.line_for_display(_isolate(text), width, direction.mode, True))
    if direction.rtl:
        return rtl.line_for_display(text, width, direction.mode, True)
    if _app_bidi(text, direction):
        return rtl.visual(rtl.truncate(rtl.shape(text), width), False)
    return rtl.truncate(text, width)


def display_line(text: str, width: int, direction: Direction) -> str:
    """One line as the terminal must print it (shaped, cut, reordered): for text Textual
    prints itself, such as border titles."""
    return _display(text, width, direction)


class Para:
    """Prose wrapped at render width: shaped, wrapped, then each line reordered.

    With ``max_lines`` the last kept line ends in an ellipsis, cut logically."""

    def __init__(self, text: str, direction: Direction = LTR, style: StyleType = "",
                 justify: str | None = None, max_lines: int = 0, clip_words: bool = False) -> None:
        self.text = text
        self.direction = direction
        self.style = style
        self.justify = justify or direction.justify
        self.max_lines = max_lines
        self.clip_words = clip_words      # a word wider than the line is cut with "…", not split

    def lines(self, width: int) -> list[str]:
        d, width = self.direction, max(1, width)
        bidi = _app_bidi(self.text, d)
        text = _isolate(self.text) if bidi and d.rtl else self.text
        text = rtl.shape(text) if bidi else text
        if self.clip_words:
            text = " ".join(rtl.truncate(w, width) for w in text.split(" "))
        logical = rtl.wrap(text, width)
        if self.max_lines and len(logical) > self.max_lines:
            logical = logical[:self.max_lines]
            last = logical[-1]
            logical[-1] = (last if cell_len(last) < width else rtl.truncate(last, width - 1, "")) + "…"
        if bidi and d.rtl:
            logical = _balanced(logical)
        return [_unisolate(rtl.visual(line, d.rtl)) for line in logical] if bidi else logical

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        for line in self.lines(width):
            yield Text(line, style=self.style, justify=self.justify, no_wrap=True,  # type: ignore[arg-type]
                       overflow="crop", end="\n")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        longest = max((_shown_len(p, self.direction) for p in self.text.split("\n")), default=0)
        words = [w for w in self.text.split() if w]
        shortest = max((_shown_len(w, self.direction) for w in words), default=0)
        return Measurement(min(shortest, options.max_width), min(longest, options.max_width))


class Line:
    """A single line of pieces; too long, it truncates its shrinkable pieces, longest first."""

    def __init__(self, pieces: Iterable[Piece | str], direction: Direction = LTR,
                 style: StyleType = "", justify: str | None = None) -> None:
        self.pieces = [p if isinstance(p, Piece) else Piece(p) for p in pieces]
        self.direction = direction
        self.style = style
        self.justify = justify or direction.justify

    @property
    def natural_width(self) -> int:
        """Cells the line takes untruncated."""
        return sum(_shown_len(p.text, self.direction) for p in self.pieces)

    def fit(self, width: int) -> Text:
        d = self.direction
        widths = [_shown_len(p.text, d) for p in self.pieces]
        excess = sum(widths) - width
        while excess > 0:
            shrinkable = [i for i, p in enumerate(self.pieces) if p.shrink and widths[i] > 1]
            if not shrinkable:
                break
            i = max(shrinkable, key=lambda j: widths[j])
            cut = min(excess, widths[i] - 1)
            widths[i] -= cut
            excess -= cut
        parts = []
        for p, w in zip(self.pieces, widths):
            if not p.shrink or w >= _shown_len(p.text, d):
                shown = _display(p.text, w, d) if p.shrink else p.text
            elif p.text.isspace():
                shown = " " * w               # a gap narrows without an ellipsis
            else:
                shown = _display(p.text, w, d)
            parts.append(Text(shown, style=p.style))
        if d.reorder:
            parts.reverse()
        text = Text.assemble(*parts, style=self.style, justify=self.justify,  # type: ignore[arg-type]
                             no_wrap=True, overflow="crop", end="\n")
        if d.rtl and text.cell_len > width:
            text = text[len(text) - width:]   # crop the end of the line, which is its left edge
        return text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.fit(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        total = sum(_shown_len(p.text, self.direction) for p in self.pieces)
        return Measurement(min(total, options.max_width), min(total, options.max_width))
