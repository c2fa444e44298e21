"""The grid games' board: tic-tac-toe, Connect Four and Gomoku on one screen.

The board is drawn left to right in every language, with 1-based row numbers
on the left and column numbers on top (Connect Four: a marker over the chosen
column above the numbers).  Arrows, the mouse or a typed coordinate (row, comma,
column: "8,12", as moves are written) select a cell (digits: a column in Connect Four); Enter, or a click on
the selected cell, plays it (docs/keys.md).
The side panel says whose move it is and each side's invalid attempts, above
the log, which the game's narrator writes (an LLM's invalid attempts included).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from tcgtui.engine.core import Event
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.tui.bidi_text import Line, Piece
from tcgtui.tui.games import replay_board
from tcgtui.tui.keys import DIGITS, TypedNumber
from tcgtui.tui.games.base import SPECTATOR, BoardPanel, GameScreen
from tcgtui.tui.session import GameSession
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.widgets.log import BattleLog
from tcgtui.tui.widgets.stream import StreamPanel

# How each game draws its two sides: glyph and colour (distinct on dark and light terminals).  The
# glyphs differ in shape too (a solid disc and a ring or diamond), so a side is told without colour.
PIECES = {
    "tictactoe": (("X", "bold #ff5f5f"), ("O", "bold #5fafff")),
    "connect4": (("●", "bold #ff3030"), ("◆", "bold #ffd700")),
    "gomoku": (("●", "bold #000000"), ("○", "bold #ffffff")),
}
BOARD_BG = {"tictactoe": "", "connect4": "on #1c3f94", "gomoku": "on #c8a165"}
EMPTY = {"tictactoe": "·", "connect4": "○", "gomoku": "┼"}
EMPTY_STYLE = {"tictactoe": "dim", "connect4": "#0b1f55", "gomoku": "#6b4b1f"}
CURSOR, WIN, LAST_BG = "on #5f87d7", "on #2e8b57", "on #4e4e4e"

PLAY_KEYS = [("←↑→↓", "grid.ui.keys.pick", "noop"), ("⏎", "ui.keys.play", "play"),
             ("?", "ui.keys.rules", "rules"), ("L", "ui.keys.language", "language"),
             ("Q", "ui.keys.quit", "quit_game")]
CONNECT4_KEYS = [("←→", "grid.ui.keys.column", "noop"), *PLAY_KEYS[1:]]
WATCH_KEYS = [("Space", "ui.keys.pause", "pause"), ("N", "ui.keys.step", "step"),
              ("+/-", "ui.keys.speed", "speed(1)"), ("?", "ui.keys.rules", "rules"),
              ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]


MAX_CELL_H = {"tictactoe": 16, "connect4": 8, "gomoku": 4}   # rows of one cell at most (a huge terminal)


def cell_size(game: str, rows: int, cols: int, width: int, height: int, top: int) -> tuple[int, int]:
    """Columns and rows of one cell so that the board fills ``width`` x ``height`` (a terminal cell
    is about twice as tall as wide: a cell is 2h+1 columns by h rows, or 2h where the width is
    short by one, which is still square, so a 15x15 board grows with the height), at least 3 x 1."""
    sep = 1 if game == "tictactoe" else 0
    label = len(str(rows)) + 1
    per_col = (width - label + sep) // cols - sep
    h = max(1, min(MAX_CELL_H.get(game, 3), (height - top + sep) // rows - sep, per_col // 2))
    return max(3, min(2 * h + 1, per_col)), h


def _art(game: str, mark: str, w: int, h: int) -> list[str]:
    """A cell's picture, ``h`` lines of ``w`` columns: the side's mark ("X", "O") or "." for empty."""
    def centred(lines: list[str]) -> list[str]:
        top = (h - len(lines)) // 2
        rows = [""] * top + lines + [""] * (h - top - len(lines))
        return [r.center(w) for r in rows]
    if h == 1:
        glyph = PIECES.get(game, PIECES["tictactoe"])["XO".index(mark)][0] if mark in "XO" else EMPTY.get(game, "·")
        return [glyph.center(w)]
    if game == "tictactoe":
        if mark not in "XO":
            return centred([])
        if h == 2:
            return centred(["╲╱", "╱╲"] if mark == "X" else ["╭╮", "╰╯"])
        n = h if h % 2 else h - 1            # an odd height: the X crosses on its middle line
        wide = 2 * n - 1
        if mark == "O":
            return centred(["╭" + "─" * (wide - 2) + "╮"] + ["│" + " " * (wide - 2) + "│"] * (n - 2)
                           + ["╰" + "─" * (wide - 2) + "╯"])
        rows = []
        for i in range(n):
            left = round(i * (wide - 1) / (n - 1))
            row = [" "] * wide
            if left == wide - 1 - left:
                row[left] = "╳"
            else:
                row[left], row[wide - 1 - left] = "╲", "╱"
            rows.append("".join(row))
        return centred(rows)
    if game == "gomoku" and mark not in "XO":
        mid, x = h // 2, (w - 1) // 2          # the cross where str.center puts the column number
        return [("─" * x + "┼" + "─" * (w - x - 1)) if i == mid else " " * x + "│" + " " * (w - x - 1)
                for i in range(h)]
    d = w - 2                                   # a disc (a stone, or a hole in Connect Four)
    if mark == "O" and d >= 3:                  # the second side: a ring, not a second solid disc
        return [" " + ("▄" + "▀" * (d - 2) + "▄" if i == 0 else "▀" + "▄" * (d - 2) + "▀" if i == h - 1
                       else "█" + " " * (d - 2) + "█") + " " for i in range(h)]
    if mark == "O":                             # too narrow for a ring of blocks: a drawn ring
        return centred(["╭╮", "╰╯"])
    return [(" " + ("▄" if i == 0 else "▀" if i == h - 1 else "█") * d + " ") for i in range(h)]


class GridBoard(Localized, Widget):
    """The board with its coordinates; always left to right; its cells grow with the room it has."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.obs: Any = None
        self.cursor = (0, 0)
        self.show_cursor = False

    @property
    def sep(self) -> int:
        """Tic-tac-toe draws lines between its cells; the other boards are coloured boards."""
        return 1 if self.obs is not None and self.obs.game == "tictactoe" else 0

    def cell(self) -> tuple[int, int]:
        o = self.obs
        return cell_size(o.game, o.rows, o.cols, self.size.width, self.size.height, self.top_lines())

    def label_w(self) -> int:
        return len(str(self.obs.rows)) + 1

    def top_lines(self) -> int:
        return 2 if self.obs is not None and self.obs.gravity else 1

    def show(self, obs: Any, cursor: tuple[int, int], show_cursor: bool) -> None:
        self.obs, self.cursor, self.show_cursor = obs, cursor, show_cursor
        self.refresh()

    def render(self) -> RenderResult:
        o = self.obs
        if o is None:
            return Text("")
        (cw, ch), lw, sep = self.cell(), self.label_w(), self.sep
        lines: list[Text] = []
        win = set(map(tuple, o.winning_line))
        pad = " " * max(0, (self.size.width - (lw + o.cols * (cw + sep) - sep)) // 2)
        if o.gravity:
            marker = Text(pad + " " * lw)
            for c in range(o.cols):
                chosen = self.show_cursor and c == self.cursor[1]
                marker.append("▼".center(cw) if chosen else " " * cw, "bold #5f87d7")
            lines.append(marker)
        header = Text(pad + " " * lw)
        for c in range(o.cols):
            header.append(str(c + 1).center(cw), "bold" if self.show_cursor and c == self.cursor[1] else "dim")
            header.append(" " * sep)
        lines.append(header)
        pieces, bg = PIECES.get(o.game, PIECES["tictactoe"]), BOARD_BG.get(o.game, "")
        for r, row in enumerate(o.board):
            arts = [_art(o.game, ch_ if ch_ in "XO" else ".", cw, ch) for ch_ in row]
            for k in range(ch):
                label = str(r + 1).rjust(lw - 1) + " " if k == ch // 2 else " " * lw
                line = Text(pad)
                line.append(label, "bold" if self.show_cursor and r == self.cursor[0] and not o.gravity else "dim")
                for c, mark in enumerate(row):
                    if mark in "XO":
                        style = pieces["XO".index(mark)][1]
                    else:
                        style = EMPTY_STYLE.get(o.game, "dim")
                    cell_bg = bg
                    last = o.last_move is not None and tuple(o.last_move) == (r, c)
                    if (r, c) in win:
                        cell_bg = WIN
                    elif self.show_cursor and (c == self.cursor[1] and (o.gravity or r == self.cursor[0])):
                        cell_bg = CURSOR if not o.gravity or mark == "." else cell_bg
                    elif last and ch > 1:
                        cell_bg = LAST_BG
                    text = arts[c][k]
                    if last and ch == 1:
                        text = ("[" + text.strip() + "]").center(cw)
                    line.append(text, f"{style} {cell_bg}".strip())
                    if sep and c < o.cols - 1:
                        line.append("│", "dim")
                lines.append(line)
            if sep and r < o.rows - 1:
                lines.append(Text(pad + " " * lw + "┼".join(["─" * cw] * o.cols), "dim"))
        return Group(*lines)

    def cell_middle(self, r: int, c: int) -> tuple[int, int]:
        """The widget offset of the middle of cell (r, c): where a click plays it."""
        (cw, ch), lw, sep = self.cell(), self.label_w(), self.sep
        o = self.obs
        pad = max(0, (self.size.width - (lw + o.cols * (cw + sep) - sep)) // 2)
        return pad + lw + c * (cw + sep) + cw // 2, self.top_lines() + r * (ch + sep) + ch // 2

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        """The 0-based cell under widget offset (x, y); Connect Four: any row of a column."""
        o = self.obs
        if o is None:
            return None
        (cw, ch), lw, sep = self.cell(), self.label_w(), self.sep
        pad = max(0, (self.size.width - (lw + o.cols * (cw + sep) - sep)) // 2)
        x -= pad + lw
        y -= self.top_lines()
        if x < 0 or x % (cw + sep) >= cw:
            return None
        c = x // (cw + sep)
        if not 0 <= c < o.cols:
            return None
        if o.gravity:
            return (max(0, min(y // (ch + sep), o.rows - 1)), c)
        if y < 0 or y % (ch + sep) >= ch:
            return None
        r = y // (ch + sep)
        return (r, c) if 0 <= r < o.rows else None

    async def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            await self.screen.clicked(cell)  # type: ignore[attr-defined]


@replay_board("tictactoe", "connect4", "gomoku")
class ReplayGridBoard(GridBoard):
    """The board as it is played on, at a stored position: the last stone marked, a won line lit."""

    DEFAULT_CSS = "ReplayGridBoard { width: 1fr; height: 1fr; }"

    async def show_position(self, replay: Any, index: int) -> None:
        self.show(replay.steps[index].state.observation(0), (0, 0), False)

    async def on_click(self, event: events.Click) -> None:
        event.prevent_default()         # a replay plays nothing: not the board's click-to-play


class GridPanel(BoardPanel):
    """Whose move it is, each side's invalid attempts, the move count and the chosen cell."""

    def render(self) -> RenderResult:
        s = self.board_screen
        o, d, tr = s.obs, self.direction, self.tr
        if o is None:
            return Text("")
        lines: list[Any] = []
        if o.outcome is not None:
            lines.append(Line([Piece(tr("ui.phase.over"), "bold yellow")], d))
        else:
            seat = o.to_move
            lines.append(Line([Piece(tr("grid.ui.panel.to_move"), "bold"), Piece(" ", shrink=False),
                               *s.side_pieces(seat),
                               Piece(" ", shrink=False), Piece(f"({s.label_for(seat)})", "dim")], d))
        lines.append(Line([Piece(tr("grid.ui.panel.invalid"), "bold")], d))
        for seat in (0, 1):
            lines.append(Line([Piece("  ", shrink=False), *s.side_pieces(seat), Piece(" ", shrink=False),
                               Piece(f"{o.invalid_counts[seat]}/{o.invalid_limit}", "bold", shrink=False)], d))
        lines.append(Line([Piece(tr("grid.ui.panel.moves")), Piece(" ", shrink=False),
                           Piece(f"{o.moves_made}/{o.move_cap}", "bold", shrink=False)], d))
        if s.choosing():
            r, c = s.cursor
            where = tr("grid.ui.panel.column", col=c + 1) if o.gravity else tr("grid.ui.panel.cell", row=r + 1, col=c + 1)
            lines.append(Line([Piece(tr("grid.ui.panel.selected"))], d))     # the cell on a line of its own:
            lines.append(Line([Piece("  ", shrink=False), Piece(where, "bold")], d))   # whole at 80 columns
        return Group(*lines)


class GridScreen(GameScreen):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    PANE_TITLES = {"#grid-area": "grid.ui.board", "#panel": "grid.ui.panel.title", "#log": "grid.ui.log.title",
                   "#stream": "ui.stream.title"}
    BINDINGS = [
        Binding("left", "move(0,-1)", show=False),
        Binding("right", "move(0,1)", show=False),
        Binding("up", "move(-1,0)", show=False),
        Binding("down", "move(1,0)", show=False),
        *[Binding(d, f"digit({d})", show=False) for d in DIGITS],
        Binding("comma", "to_rows", show=False),
        Binding("enter", "play", show=False),
    ]

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__(session, streams=streams, note=note)
        self.game_id = session.game.name
        self.obs: Any = None
        self.cursor = (0, 0)
        self.typed = TypedNumber()
        self.typing_col = False     # a comma was typed: digits give the column
        self._narrators: dict[tuple[str, int | None], Any] = {}

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        yield KeyBar(WATCH_KEYS if self.session.spectating else self.play_keys(), id="keys")
        with Horizontal(id="main"):
            with Vertical(id="grid-area", classes="pane"):
                yield GridBoard(id="grid")
            with Vertical(id="side"):
                yield GridPanel(self, id="panel", classes="pane")
                yield BattleLog(self.narrate, id="log")
                if self.streams:
                    yield StreamPanel(id="stream")

    def play_keys(self) -> list[tuple[str, str, str]]:
        """The footer of a player: arrows or the digits of a coordinate select ("1-7" a Connect
        Four column, "1-15,1-15" a Gomoku cell: row, column), Enter plays."""
        o = self.session.observation(self.session.viewer)
        if o.gravity:
            (key, text, action), *rest = CONNECT4_KEYS
            return [(f"{key} 1-{o.cols}", text, action), *rest]
        (key, text, action), *rest = PLAY_KEYS
        return [(f"{key} 1-{o.rows},1-{o.cols}", text, action), *rest]

    async def on_mount(self) -> None:
        self.add_class(f"game-{self.game_id}")
        self.obs = self.session.observation(self.session.viewer)
        self.cursor = self._start_cursor()
        self.query_one(TopBar).show(players=(self.label_for(self.session.viewer),
                                             self.label_for(1 - self.session.viewer)),
                                    seed=self.session.seed, watch=self._watch_state(), note=self.note,
                                    your_move_key="grid.ui.top.your_move_column" if self.obs.gravity
                                    else "grid.ui.top.your_move", phase="play")
        self.redraw()
        self.run_game()

    def _start_cursor(self) -> tuple[int, int]:
        o = self.obs
        return (o.rows // 2 if not o.gravity else o.rows - 1, o.cols // 2)

    # --- names -----------------------------------------------------------------------

    def side_glyph(self, seat: int) -> str:
        return PIECES.get(self.game_id, PIECES["tictactoe"])[seat][0]

    def side_style(self, seat: int) -> str:
        return f"{PIECES.get(self.game_id, PIECES['tictactoe'])[seat][1]} {BOARD_BG.get(self.game_id, '')}".strip()

    def side_name(self, seat: int) -> str:
        return self.tr(f"grid.ui.side.{self.game_id}.{seat}")

    def side_pieces(self, seat: int) -> list[Piece]:
        """The side's stone and its name (just the letter in tic-tac-toe)."""
        glyph, name = self.side_glyph(seat), self.side_name(seat)
        out = [Piece(glyph, self.side_style(seat), shrink=False)]
        return out if name == glyph else out + [Piece(" ", shrink=False), Piece(name)]

    # --- hooks -----------------------------------------------------------------------

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        spec = self.session.game.spec
        viewer = None if seat == SPECTATOR else seat
        if spec.narrator is not None:
            key = (catalog.code, viewer)
            if key not in self._narrators:
                self._narrators[key] = spec.narrator(self.session.game, catalog, viewer)
            lines = self._narrators[key].all([event])
            return " ".join(lines) if lines else None
        return self._fallback_narration(event, catalog)

    def _fallback_narration(self, event: Event, catalog: Catalog) -> str | None:
        """Until the game's own narrator is registered: the grid screen's short sentences."""
        who = catalog.t(f"grid.ui.side.{self.game_id}.{event.player}") if event.player in (0, 1) else ""
        d = event.data
        if event.kind == "place":
            return catalog.t("grid.ui.log.place", who=who, row=d["row"] + 1, col=d["col"] + 1)
        if event.kind == "invalid":
            return catalog.t("grid.ui.log.invalid", who=who, kind=d.get("kind", ""), left=d.get("left", 0))
        if event.kind == "win":
            return catalog.t("grid.ui.log.win", who=who)
        if event.kind == "game_over":
            return catalog.t("grid.ui.log.over")
        return None

    # --- the game --------------------------------------------------------------------

    def choosing(self) -> bool:
        return self.session.human_waiting() is not None

    def redraw(self) -> None:
        self.obs = self.session.observation(self.session.viewer)
        self.query_one(GridBoard).show(self.obs, self.cursor, self.choosing())
        self.query_one(GridPanel).refresh(layout=True)
        self.query_one(TopBar).show(turn=self.obs.moves_made, limit=self.obs.move_cap, watch=self._watch_state())

    def ask_human(self, seat: int) -> None:
        self.query_one(TopBar).show(your_move=True, thinking=None)
        o = self.session.observation(seat)
        if o.last_move is not None and not o.gravity and o.board[self.cursor[0]][self.cursor[1]] != ".":
            self.cursor = self._nearest_free(o)
        self.redraw()
        self.collect_garbage_soon()

    def _nearest_free(self, o: Any) -> tuple[int, int]:
        r0, c0 = self.cursor
        free = [(r, c) for r in range(o.rows) for c in range(o.cols) if o.board[r][c] == "."]
        return min(free, key=lambda rc: (abs(rc[0] - r0) + abs(rc[1] - c0), rc)) if free else self.cursor

    async def game_ended(self, result: MatchResult | None) -> None:
        self.redraw()
        self.query_one(TopBar).show(phase="over", thinking=None, your_move=False,
                                    watch=None)   # nothing plays any more: no "Playing 0.25s"


    # --- moves -----------------------------------------------------------------------

    def move_text(self, cell: tuple[int, int]) -> str:
        r, c = cell
        return str(c + 1) if self.obs.gravity else f"{r + 1},{c + 1}"

    def _play(self, cell: tuple[int, int]) -> bool:
        if not self.choosing():
            if not self.session.spectating and self.session.result is None:
                self.notify(self.tr("ui.notify.wait"), timeout=2)
            return False
        move = self.move_text(cell)
        waiting = self.session.human_waiting()
        if waiting is not None and move not in waiting.legal_moves:
            self.notify(self.tr("grid.ui.notify.taken"), timeout=2)
            return False
        if self.session.choose(move):
            self.query_one(TopBar).show(your_move=False)
            self.redraw()
            return True
        return False

    # --- actions ---------------------------------------------------------------------

    def action_move(self, dr: int, dc: int) -> None:
        o = self.obs
        if o is None:
            return
        self.typing_col = False
        self.typed.reset()
        r, c = self.cursor
        if o.gravity:
            dr = 0
        self.cursor = ((r + dr) % o.rows, (c + dc) % o.cols)
        self.redraw()

    def action_play(self) -> None:
        self.typing_col = False
        self.typed.reset()
        self._play(self.cursor)

    def action_digit(self, digit: int) -> None:
        """Digits type a coordinate as the moves are written: the row's number, a comma, the
        column's ("8,12": row 8, column 12 of a Gomoku board, without thirty arrow presses); in
        Connect Four the column's.  Nothing is played until Enter (docs/keys.md)."""
        o = self.obs
        if o is None:
            return
        axis = 1 if self.typing_col or o.gravity else 0
        number = self.typed.type(digit, o.rows if axis == 0 else o.cols, time.monotonic())
        if number is not None:
            r, c = self.cursor
            self.cursor = (number - 1, c) if axis == 0 else (r, number - 1)
            self.redraw()

    def action_to_rows(self) -> None:
        """Comma: the digits typed next give the column."""
        self.typing_col = True
        self.typed.reset()

    async def clicked(self, cell: tuple[int, int]) -> None:
        """A click selects a cell (a column); a click on the selected one plays it, as Enter does."""
        if cell == self.cursor or (self.obs is not None and self.obs.gravity and cell[1] == self.cursor[1]):
            self._play(cell)
        else:
            self.cursor = cell
            self.redraw()

    def action_noop(self) -> None:
        """A key hint only."""

