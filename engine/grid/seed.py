"""The grid games as the seed's released simulator plays them (``--protocol seed``).

The rules are the same as tcgtui's (the thresholds are the seed's: invalid
moves past the limit disqualify, invalid attempts count toward the move cap,
a cancelled game at the cap).  What differs is how a player is asked and
read, and the random player:

- the prompt is the seed's, assembled as its ``createPrompt`` does, with its
  wording read at run time from the user's checkout (``SeedWording``), and
  with its quirk of sending every line break as the two characters ``\\n``;
- a reply is read as its ``cleanResponse`` and ``processMove`` read it
  (``judge_reply``): quotes swapped, the last ``{...}`` taken, JSON with
  numbers only, any extra key an invalid format;
- its random player names any cell (or column) at random, taken or not, so
  it makes invalid moves too (``random_reply``).

The engine does no I/O: the wording arrives as the source texts of the
seed's files (``wording_from_sources``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.grid.config import GridConfig

REPOSITORY = "github.com/research-outcome/LLM-Game-Benchmark"
SERVICE_FILE = "game-simulation/web-service-communication.js"
GAME_FILES = {
    "tictactoe": "game-simulation/tic-tac-toe.js",
    "connect4": "game-simulation/connect-four.js",
    "gomoku": "game-simulation/gomoku.js",
}
GAME_TYPES = {"tictactoe": "tic-tac-toe", "connect4": "connect-four", "gomoku": "gomoku"}

# The seed's move outcomes (its output files count invalid moves by these names), and tcgtui's kinds.
VALID = "Valid"
OUTCOMES = {"format": "Invalid Format", "out_of_bounds": "Out of Bounds", "taken": "Already Taken"}
KINDS = {v: k for k, v in OUTCOMES.items()}

_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# Literals of createPrompt that are code, not wording: prompt types, outcome names and the escapes it
# applies (and the markers it searches for with lastIndexOf, found in the code itself).
_CODE = {"", "list", "illustration", "image", "Valid", "\n", "\\n", '"', '\\"'}
_MARKER = re.compile(r'lastIndexOf\(\s*"((?:[^"\\\n]|\\.)*)"')


class WordingError(ValueError):
    """The checkout's files do not have the shape this protocol reads (another version of the seed)."""


def _body(source: str, header: str, where: str) -> str:
    """The text between the braces of the function or method that ``header`` starts."""
    at = source.find(header)
    if at < 0:
        raise WordingError(f"{where}: no {header.strip('( ')}")
    start = source.index("{", at)
    depth, i, quote = 0, start, ""
    while i < len(source):
        ch = source[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return source[start + 1 : i]
        i += 1
    raise WordingError(f"{where}: {header.strip('( ')} is not closed")


def _literals(body: str) -> list[str]:
    """The double-quoted string literals of a JavaScript body, in order, unescaped; comments skipped."""
    code = "\n".join(line.split("//")[0] if line.lstrip().startswith("//") else line for line in body.splitlines())
    out = []
    for m in _LITERAL.finditer(code):
        raw = m.group(1)
        out.append(json.loads('"' + raw.replace("\\'", "'") + '"'))
    return out


def _one(source: str, method: str, where: str) -> str:
    found = [s for s in _literals(_body(source, f"static {method}(", where)) if s]
    if len(found) != 1:
        raise WordingError(f"{where}: {method} should return one text, found {len(found)}")
    return found[0]


def _number(source: str, method: str, where: str) -> int:
    m = re.search(r"return\s+(\d+)\s*;", _body(source, f"static {method}(", where))
    if not m:
        raise WordingError(f"{where}: {method} should return a number")
    return int(m.group(1))


@dataclass(frozen=True)
class SeedWording:
    """The seed's prompt parts for one game, as its files hold them (version ``version``)."""

    version: str
    explain: str
    list_board: tuple[str, ...]  # intro, "as follows", first player's, separator, none, end, second player's
    draw_board: tuple[str, str]  # intro, "as follows"
    image: tuple[str, str]  # the picture's description, "given in the attached image"
    role: tuple[str, str]  # first player, second player
    format_move: str
    warning: tuple[str, str]  # around the invalid-move limit
    previous: tuple[str, str, str]  # your previous response was '...', reason '...', adjust
    count: tuple[str, str, str]  # you currently have N invalid move(s). M more ... disqualification
    max_moves: int
    max_invalid: int


def wording_from_sources(game_id: str, game_source: str, service_source: str) -> SeedWording:
    """The wording of ``game_id``'s prompts from the texts of its seed files (``GAME_FILES``,
    ``SERVICE_FILE``); ``WordingError`` names what does not fit."""
    gf, sf = GAME_FILES[game_id], SERVICE_FILE
    listing = _literals(_body(game_source, "static listBoard(", gf))
    if len(listing) != 11:
        raise WordingError(f"{gf}: listBoard has {len(listing)} texts, expected 11")
    drawing = [s for s in _literals(_body(game_source, "static drawBoard(", gf)) if len(s) > 10]
    if len(drawing) < 2:
        raise WordingError(f"{gf}: drawBoard should start with two texts")
    body = _body(service_source, "function createPrompt(", sf)
    markers = {json.loads('"' + m + '"') for m in _MARKER.findall(body)}
    prompt = [s for s in _literals(body) if s not in _CODE and s not in markers]
    if len(prompt) != 9:
        raise WordingError(f"{sf}: createPrompt has {len(prompt)} texts of wording, expected 9")
    return SeedWording(
        version=_one(game_source, "promptVersion", gf),
        explain=_one(game_source, "explainGame", gf),
        list_board=(listing[1], listing[2], listing[3], listing[4], listing[5], listing[6], listing[7]),
        draw_board=(drawing[0], drawing[1]),
        image=(_one(game_source, "imagePrompt", gf), prompt[0]),
        role=(prompt[1], prompt[2]),
        format_move=_one(game_source, "formatNextMove", gf),
        warning=_warning(game_source, gf),
        previous=(prompt[3], prompt[4], prompt[5]),
        count=(prompt[6], prompt[7], prompt[8]),
        max_moves=_number(game_source, "getMaxMoves", gf),
        max_invalid=_number(game_source, "getMaxInvalidMoves", gf),
    )


def _warning(source: str, where: str) -> tuple[str, str]:
    """invalidMoveWarning: two texts around the invalid-move limit (filled in by ``prompt``)."""
    parts = [s for s in _literals(_body(source, "static invalidMoveWarning(", where)) if s]
    if len(parts) != 2:
        raise WordingError(f"{where}: invalidMoveWarning should have two texts, found {len(parts)}")
    return parts[0], parts[1]


def board_text(config: GridConfig, board: list[str], symbols: tuple[str, str], style: str, wording: SeedWording) -> str:
    """The board part of the prompt in ``style`` (``board``: rows of ``.XO``)."""
    if style == "list":
        intro, follows, first, sep, none, end, second = wording.list_board
        cells = [
            [f"{r + 1},{c + 1}" for r in range(config.rows) for c in range(config.cols) if board[r][c] == mark]
            for mark in "XO"
        ]
        return (
            intro
            + follows
            + first
            + (sep.join(cells[0]) if cells[0] else none)
            + end
            + second
            + (sep.join(cells[1]) if cells[1] else none)
            + end
        )
    if style == "illustration":
        table = str.maketrans({".": "e", "X": symbols[0], "O": symbols[1]})
        return wording.draw_board[0] + wording.draw_board[1] + "".join(row.translate(table) + " \n" for row in board)
    return wording.image[0] + wording.image[1]


def prompt(
    config: GridConfig,
    board: list[str],
    symbols: tuple[str, str],
    style: str,
    wording: SeedWording,
    seat: int,
    invalid: int,
    previous: tuple[str, str] | None,
) -> str:
    """The text the seed sends for one move, its escaping included: every line break goes out as
    the two characters backslash and n, every double quote as backslash and quote."""
    text = wording.explain + board_text(config, board, symbols, style, wording) + wording.role[seat]
    text += wording.format_move + wording.warning[0] + str(config.invalid_limit) + wording.warning[1]
    if previous is not None:
        text += wording.previous[0] + previous[0] + wording.previous[1] + previous[1] + wording.previous[2]
    text += (
        wording.count[0] + str(invalid) + wording.count[1] + str(config.invalid_limit - invalid + 1) + wording.count[2]
    )
    return text.replace("\n", "\\n").replace('"', '\\"')


def status_text(board_part: str, style: str, wording: SeedWording) -> str:
    """What the seed logs as a move's status: the board text after its "as follows" line, found
    without its leading space (list: one more character skipped, as its code does)."""
    marker = (wording.list_board[1] if style == "list" else wording.draw_board[1]).lstrip(" ")
    at = board_part.rfind(marker)
    if style == "image" or at < 0:
        return ""
    return board_part[at + len(marker) + (1 if style == "list" else 0) :]


def clean_response(text: str) -> str:
    """The seed's ``cleanResponse``: the same replacements in the same order."""
    for old, new in (
        ("\t", ""),
        ("\n", ""),
        ('\\\\"', '"'),
        ('\\"', '"'),
        ("\\'", '"'),
        ("'", '"'),
        ('"{', "{"),
        ('}"', "}"),
        ("'}", "}"),
    ):
        text = text.replace(old, new)
    if "{" in text:
        text = text[text.rfind("{") :]
        if "}" in text:
            text = text[: text.rfind("}") + 1]
    return text


def _js_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _stringify(value: Any) -> str:
    """JSON.stringify of a parsed reply (numbers as JavaScript writes them)."""

    def js(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {k: js(x) for k, x in v.items()}
        if isinstance(v, list):
            return [js(x) for x in v]
        return v

    return json.dumps(js(value), separators=(",", ":"), ensure_ascii=False)


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


@dataclass(frozen=True)
class Judged:
    """A reply as the seed reads it: the move (``"r,c"`` or ``"c"``) or the invalid kind, and the
    response text its logs and its next prompt quote."""

    move: str | None
    kind: str | None
    response: str


def judge_reply(config: GridConfig, board: list[str], reply: str) -> Judged:
    """Read ``reply`` as the seed's ``processMove`` does, against ``board`` (rows of ``.XO``)."""
    cleaned = clean_response(str(reply))
    try:
        data = json.loads(cleaned, parse_constant=_reject_constant)
    except ValueError:
        return Judged(None, "format", cleaned)
    said = _stringify(data)
    keys = ("column",) if config.gravity else ("row", "column")
    if not isinstance(data, dict) or not all(_js_number(data.get(k)) for k in keys) or len(data) > len(keys):
        return Judged(None, "format", said)
    nums = [data[k] for k in keys]
    if any(math.isinf(n) for n in nums):
        return Judged(None, "out_of_bounds", said)
    if config.gravity:
        (c,) = nums
        if not 1 <= c <= config.cols:
            return Judged(None, "out_of_bounds", said)
        if c != int(c):  # a cell the page does not have: its lookup throws
            return Judged(None, "format", said)
        if board[0][int(c) - 1] != ".":
            return Judged(None, "taken", said)
        return Judged(str(int(c)), None, said)
    r, c = nums
    if not (1 <= r <= config.rows and 1 <= c <= config.cols):
        return Judged(None, "out_of_bounds", said)
    if r != int(r) or c != int(c):
        return Judged(None, "format", said)
    if board[int(r) - 1][int(c) - 1] != ".":
        return Judged(None, "taken", said)
    return Judged(f"{int(r)},{int(c)}", None, said)


def random_reply(config: GridConfig, rng: Any) -> str:
    """The seed's random player: any row and column (Connect Four: any column), taken or not."""
    if config.gravity:
        return json.dumps({"column": rng.randint(1, config.cols)})
    row, column = rng.randint(1, config.rows), rng.randint(1, config.cols)
    return json.dumps({"row": row, "column": column})
