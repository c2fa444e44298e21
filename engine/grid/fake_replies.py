"""A stand-in model for the grid games (opponents/llm/testserver.py): a random legal move read from the
prompt's board, and the unusable replies the seed's benchmark counts (a reply with no move, a cell off
the board, a taken cell)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from tcgtui.engine.grid.config import VARIANTS

_EMPTY_MARKS = set("e.-_·")
_STONE = re.compile(r"^[A-Za-z]$")
_PAIR = re.compile(r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?")
INVALID_KINDS = ("format", "out_of_bounds", "taken")

Board = Callable[[], "set[tuple[int, int]] | None"]  # the occupied cells when the prompt shows a picture


def _cells(line: str) -> list[str] | None:
    """The cells of an illustration row (``| X | e | O |``, ``X . O``, ``3 | X | e |``), or None."""
    line = line.strip()
    if not line:
        return None
    tokens = [t.strip() for t in (line.split("|") if "|" in line else line.split())]
    tokens = [t for t in tokens if t]
    if len(tokens) == 1 and len(tokens[0]) > 1 and not tokens[0].isdigit():
        tokens = list(tokens[0])  # one letter per cell, nothing between: "XeO"
    while tokens and tokens[0].isdigit():  # a row label
        tokens.pop(0)
    if not tokens or not all(len(t) == 1 and (t in _EMPTY_MARKS or _STONE.match(t)) for t in tokens):
        return None
    return tokens


def board_of(prompt: str, image: bool, game_id: str, board: Board | None = None) -> set[tuple[int, int]] | None:
    """The occupied cells (0-based) of the board in ``prompt``; ``board()`` (or None) if it is a picture.

    An illustration is ``rows`` consecutive lines of ``cols`` one-letter cells (``e`` or ``.``
    empty; ``XeO``, ``X e O`` or ``| X | e | O |``); the last one in the prompt counts.
    Otherwise the list form: every ``r,c`` pair (1-based) on a line holding ``:`` or ``;``
    that is not JSON (an echoed reply) is an occupied cell.
    """
    v = VARIANTS[game_id]
    if image:
        return board() if board is not None else None
    lines = prompt.splitlines()
    found: list[list[str]] | None = None
    run: list[list[str]] = []
    for line in lines + [""]:
        cells = _cells(line)
        if cells is not None and len(cells) == v.cols:
            run.append(cells)
            continue
        if len(run) >= v.rows:
            found = run[-v.rows :]
        run = []
    if found is not None:
        return {(r, c) for r, row in enumerate(found) for c, x in enumerate(row) if x not in _EMPTY_MARKS}
    taken: set[tuple[int, int]] = set()
    for line in lines:
        if "{" in line or "}" in line or not (";" in line or ":" in line):
            continue
        for r, c in _PAIR.findall(line):
            if 1 <= int(r) <= v.rows and 1 <= int(c) <= v.cols:
                taken.add((int(r) - 1, int(c) - 1))
    return taken


def free_cells(game_id: str, taken: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The 0-based cells a move may take (with gravity: each column's lowest empty cell)."""
    v = VARIANTS[game_id]
    if v.gravity:
        out = []
        for c in range(v.cols):
            rows = [r for r in range(v.rows) if (r, c) not in taken]
            if rows:
                out.append((max(rows), c))
        return out
    return [(r, c) for r in range(v.rows) for c in range(v.cols) if (r, c) not in taken]


def answer(game_id: str, cell: tuple[int, int]) -> str:
    """The JSON answer naming a 0-based cell: ``{"row": r, "column": c}`` or ``{"column": c}``, 1-based."""
    if VARIANTS[game_id].gravity:
        return json.dumps({"column": cell[1] + 1})
    return json.dumps({"row": cell[0] + 1, "column": cell[1] + 1})


def player(game_id: str, catalogs: Sequence[Any], rng: Any, board: Board | None = None) -> Any:
    """A random legal move read from the prompt; ``board`` gives the occupied cells of an image prompt."""

    def reply(prompt: str, image: bool) -> str:
        taken = board_of(prompt, image, game_id, board)
        if taken is None:
            return "I cannot see the board."
        free = free_cells(game_id, taken)
        return answer(game_id, rng.choice(free)) if free else "The board is full."

    return reply


def invalid(game_id: str, kind: str, prompt: str, image: bool, board: Board | None = None) -> str:
    """An unusable reply of ``kind``: ``format`` (text with no move), ``out_of_bounds`` (a cell off
    the board) or ``taken`` (an occupied cell; with gravity a full column if there is one)."""
    v = VARIANTS[game_id]
    if kind == "format":
        return "Hmm, the middle looks nice. I will go there, I think."
    if kind == "out_of_bounds":
        return json.dumps({"column": v.cols + 2}) if v.gravity else answer(game_id, (v.rows + 1, v.cols + 1))
    if kind == "taken":
        taken = board_of(prompt, image, game_id, board)
        if not taken:
            raise ValueError("no occupied cell to answer with")
        if v.gravity:
            full = [c for c in range(v.cols) if all((r, c) in taken for r in range(v.rows))]
            if full:
                return json.dumps({"column": full[0] + 1})
        return answer(game_id, sorted(taken)[0])
    raise ValueError(f"no invalid reply of kind {kind!r}; expected one of {', '.join(INVALID_KINDS)}")
