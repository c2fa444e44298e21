"""The one path Arabic takes to the screen: shape, wrap, then reorder each line.

Terminals draw code points left to right and unshaped, and Textual/Rich do no
bidi, so right-to-left text is prepared here, at render time only (stored text
stays logical).  The order matters: shape the paragraph (presentation forms
are one cell each, lam-alef merges two letters into one), wrap it in logical
order at the target width, then reorder every visual line on its own and
mirror brackets inside right-to-left runs.

Levels come from python-bidi's Rust engine (UAX #9 rules up to I2); rules L1,
L2 and L4 are applied here because its ``get_display`` does not mirror.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

import arabic_reshaper
from bidi import get_display
from bidi.mirror import MIRRORED
from rich.cells import cell_len

from tcgtui.errors import UserError

MODES = ("app", "terminal", "off")
ENV_VAR = "TCGTUI_RTL"

_RESHAPER = arabic_reshaper.ArabicReshaper(configuration={"delete_harakat": True})
_RTL_CHARS = re.compile(r"[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]")
_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")


def has_rtl(text: str) -> bool:
    return bool(_RTL_CHARS.search(text))


def resolve_mode(flag: str | None) -> str:
    """--rtl beats the environment variable, which beats the default 'app'."""
    mode = flag or os.environ.get(ENV_VAR) or "app"
    if mode not in MODES:
        source = "--rtl" if flag else ENV_VAR
        raise UserError(f"{source}: {mode!r} is not a mode; expected one of {', '.join(MODES)}")
    return mode


@lru_cache(maxsize=4096)
def shape(text: str) -> str:
    """Arabic letters to their contextual presentation forms, diacritics removed."""
    return _RESHAPER.reshape(text) if has_rtl(text) else text


def _levels(line: str, rtl_base: bool) -> list[int]:
    info = get_display(line, base_dir="R" if rtl_base else "L", debug=True)
    byte_levels = [int(m) for m in _LEVEL.findall(info.split("paragraphs:")[0])]
    levels, pos = [], 0
    for ch in line:
        levels.append(byte_levels[pos])
        pos += len(ch.encode("utf-8"))
    return levels


@lru_cache(maxsize=8192)
def visual(line: str, rtl_base: bool = True) -> str:
    """One already-shaped, already-wrapped line in display order."""
    if not line or (not rtl_base and not has_rtl(line)):
        return line
    levels = _levels(line, rtl_base)
    base = 1 if rtl_base else 0
    i = len(line)
    while i > 0 and line[i - 1].isspace():       # L1: trailing spaces take the base level
        i -= 1
        levels[i] = base
    chars = [MIRRORED.get(c, c) if lv % 2 else c for c, lv in zip(line, levels)]   # L4
    top = max(levels)
    lowest_odd = min((lv for lv in levels if lv % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):                                 # L2
        j = 0
        while j < len(chars):
            if levels[j] >= level:
                k = j
                while k < len(chars) and levels[k] >= level:
                    k += 1
                chars[j:k] = chars[j:k][::-1]
                levels[j:k] = levels[j:k][::-1]
                j = k
            else:
                j += 1
    return "".join(chars)


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap in logical order, measured in cells; long words are split."""
    lines: list[str] = []
    for para in text.split("\n"):
        current = ""
        for word in para.split(" "):
            while cell_len(word) > width > 0:
                if current:
                    lines.append(current)
                    current = ""
                cut = width
                while cell_len(word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            candidate = f"{current} {word}" if current else word
            if cell_len(candidate) <= width or not current:
                current = candidate
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines


def truncate(text: str, width: int, ellipsis: str = "…") -> str:
    """Cut in logical order, before reordering, so the start of a line survives."""
    if cell_len(text) <= width:
        return text
    out = ""
    for ch in text:
        if cell_len(out + ch + ellipsis) > width:
            break
        out += ch
    return out + ellipsis


def lines_for_display(text: str, width: int, mode: str, rtl: bool) -> list[str]:
    """Shape, wrap, reorder: the lines to print, each at most ``width`` cells.

    In 'terminal' and 'off' modes the text stays logical and unshaped (the
    terminal does its own bidi, or nothing should be done at all).
    """
    if not rtl or mode != "app":
        return wrap(text, width)
    return [visual(line, True) for line in wrap(shape(text), width)]


def line_for_display(text: str, width: int, mode: str, rtl: bool) -> str:
    """A single line, truncated (logically) to fit, then reordered."""
    if not rtl or mode != "app":
        return truncate(text, width)
    return visual(truncate(shape(text), width), True)
