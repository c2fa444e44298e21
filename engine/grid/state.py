"""A grid game position: stones, side to move, invalid attempts, move count."""

from __future__ import annotations

from typing import Any, overload

from tcgtui.engine.core import CANCELLED, DISQUALIFIED, Event, GameState, IllegalMove, Outcome
from tcgtui.engine.grid.config import CHARS, EMPTY, GridConfig
from tcgtui.engine.grid.lines import line_through
from tcgtui.engine.grid.observation import GridObservation

INVALID_KINDS = ("format", "out_of_bounds", "taken")
LINE, FULL = "line", "full"


@overload
def result_code(outcome: Outcome | dict) -> str: ...
@overload
def result_code(outcome: None) -> None: ...
def result_code(outcome: Outcome | dict | None) -> str | None:
    """``winner1st|winner2nd|draw|disqualified1st|disqualified2nd|cancelled`` (None while playing)."""
    if outcome is None:
        return None
    if isinstance(outcome, dict):
        outcome = Outcome.from_json(outcome)
    if outcome.reason == CANCELLED:
        return "cancelled"
    if outcome.winner is None:
        return "draw"
    if outcome.reason == DISQUALIFIED:
        return "disqualified2nd" if outcome.winner == 0 else "disqualified1st"
    return "winner1st" if outcome.winner == 0 else "winner2nd"


def parse_move(text: str, config: GridConfig) -> tuple[int, int] | int:
    """``"r,c"`` -> (row, col) 0-based, or Connect Four ``"c"`` -> col 0-based; IllegalMove if malformed
    or off the board."""
    parts = str(text).strip().split(",")
    want = 1 if config.gravity else 2
    if len(parts) != want:
        raise IllegalMove(f"{text!r}: expected {'a column' if config.gravity else 'row,column'}")
    try:
        nums = [int(p.strip()) for p in parts]
    except ValueError:
        raise IllegalMove(f"{text!r}: expected whole numbers") from None
    if config.gravity:
        if not 1 <= nums[0] <= config.cols:
            raise IllegalMove(f"{text!r}: columns run from 1 to {config.cols}")
        return nums[0] - 1
    r, c = nums
    if not (1 <= r <= config.rows and 1 <= c <= config.cols):
        raise IllegalMove(f"{text!r}: rows run from 1 to {config.rows}, columns from 1 to {config.cols}")
    return r - 1, c - 1


class GridState(GameState[str]):
    """Board cells are 0 (empty), 1 (seat 0) and 2 (seat 1), row-major from the top-left."""

    __slots__ = ("config", "board", "to_move", "moves_made", "invalid_counts", "last_move", "winning_line", "_outcome")

    def __init__(self, config: GridConfig, board: list[int] | None = None, to_move: int = 0) -> None:
        self.config = config
        self.board = list(board) if board is not None else [EMPTY] * (config.rows * config.cols)
        self.to_move = to_move
        self.moves_made = 0
        self.invalid_counts = [0, 0]
        self.last_move: tuple[int, int] | None = None
        self.winning_line: tuple[tuple[int, int], ...] = ()
        self._outcome: Outcome | None = None

    # --- the core API ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self._outcome is not None else self.to_move

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def landing_row(self, col: int) -> int:
        """The row a Connect Four disc dropped in ``col`` lands on, or -1 if the column is full."""
        cols = self.config.cols
        for r in range(self.config.rows - 1, -1, -1):
            if self.board[r * cols + col] == EMPTY:
                return r
        return -1

    def legal_cells(self) -> list[tuple[int, int]]:
        """The 0-based cells a move may take now (Connect Four: each column's landing cell)."""
        if self._outcome is not None:
            return []
        cfg = self.config
        if cfg.gravity:
            out = []
            for c in range(cfg.cols):
                r = self.landing_row(c)
                if r >= 0:
                    out.append((r, c))
            return out
        return [(i // cfg.cols, i % cfg.cols) for i, v in enumerate(self.board) if v == EMPTY]

    def cell_text(self, r: int, c: int) -> str:
        return str(c + 1) if self.config.gravity else f"{r + 1},{c + 1}"

    def legal_moves(self) -> list[str]:
        return [self.cell_text(r, c) for r, c in self.legal_cells()]

    def validate(self, move: str) -> str | None:
        """``format``, ``out_of_bounds`` or ``taken`` (a full column too), or None if playable."""
        if self._outcome is not None:
            return "over"
        cfg = self.config
        parts = str(move).strip().split(",")
        try:
            nums = [int(p.strip()) for p in parts]
        except ValueError:
            return "format"
        if len(nums) != (1 if cfg.gravity else 2):
            return "format"
        if cfg.gravity:
            if not 1 <= nums[0] <= cfg.cols:
                return "out_of_bounds"
            return "taken" if self.landing_row(nums[0] - 1) < 0 else None
        r, c = nums
        if not (1 <= r <= cfg.rows and 1 <= c <= cfg.cols):
            return "out_of_bounds"
        return "taken" if self.board[(r - 1) * cfg.cols + c - 1] != EMPTY else None

    def target(self, move: str) -> tuple[int, int]:
        """The 0-based cell ``move`` takes; IllegalMove if it cannot be played now."""
        why = self.validate(move)
        if why is not None:
            raise IllegalMove(f"{move!r} cannot be played now ({why})")
        p = parse_move(move, self.config)
        if isinstance(p, int):
            return self.landing_row(p), p
        return p

    def apply(self, move: str) -> list[Event]:
        r, c = self.target(move)
        return self.place(r, c)

    def place(self, r: int, c: int) -> list[Event]:
        """Put the mover's stone on the (checked) cell (r, c) and settle the consequences."""
        cfg = self.config
        seat = self.to_move
        self.board[r * cfg.cols + c] = seat + 1
        self.last_move = (r, c)
        self.moves_made += 1
        events = [Event("place", seat, {"row": r, "col": c})]
        line = line_through(self.board, cfg.rows, cfg.cols, r, c, cfg.connect)
        if line:
            self.winning_line = tuple(line)
            events.append(Event("win", seat, {"line": [[a, b] for a, b in line]}))
            return events + self._finish(Outcome(seat, LINE))
        if EMPTY not in self.board:
            return events + self._finish(Outcome(None, FULL))
        self.to_move = 1 - seat
        if self.moves_made >= cfg.move_cap:
            return events + self._finish(Outcome(None, CANCELLED))
        return events

    def apply_invalid(self, kind: str, text: str) -> list[Event]:
        """An invalid attempt by the side to move: it counts toward the cap; past the limit it loses."""
        if self._outcome is not None:
            raise IllegalMove("the game is over")
        cfg = self.config
        seat = self.to_move
        self.invalid_counts[seat] += 1
        self.moves_made += 1
        count = self.invalid_counts[seat]
        events = [Event("invalid", seat, {"kind": kind, "count": count, "left": max(0, cfg.invalid_limit - count)})]
        if count > cfg.invalid_limit:
            return events + self._finish(Outcome(1 - seat, DISQUALIFIED))
        if self.moves_made >= cfg.move_cap:
            return events + self._finish(Outcome(None, CANCELLED))
        return events

    def _finish(self, outcome: Outcome) -> list[Event]:
        self._outcome = outcome
        player = -1 if outcome.winner is None else outcome.winner
        return [Event("game_over", player, {"result": result_code(outcome), "reason": outcome.reason})]

    def clone(self) -> GridState:
        new = GridState.__new__(GridState)
        new.config = self.config
        new.board = self.board.copy()
        new.to_move = self.to_move
        new.moves_made = self.moves_made
        new.invalid_counts = self.invalid_counts.copy()
        new.last_move = self.last_move
        new.winning_line = self.winning_line
        new._outcome = self._outcome
        return new

    # --- views -----------------------------------------------------------------------------------
    def rows_text(self) -> tuple[str, ...]:
        cols = self.config.cols
        return tuple("".join(CHARS[v] for v in self.board[i : i + cols]) for i in range(0, len(self.board), cols))

    def observation(self, seat: int) -> GridObservation:
        cfg = self.config
        return GridObservation(
            seat=seat,
            turn=self.moves_made + 1,
            game=cfg.id,
            rows=cfg.rows,
            cols=cfg.cols,
            connect=cfg.connect,
            gravity=cfg.gravity,
            board=self.rows_text(),
            to_move=self.current_player,
            legal_moves=tuple(self.legal_moves()),
            last_move=self.last_move,
            winning_line=self.winning_line,
            invalid_counts=(self.invalid_counts[0], self.invalid_counts[1]),
            invalid_limit=cfg.invalid_limit,
            move_cap=cfg.move_cap,
            moves_made=self.moves_made,
            outcome=self._outcome,
        )

    @classmethod
    def from_observation(cls, config: GridConfig, obs: GridObservation) -> GridState:
        board = [CHARS.index(ch) for row in obs.board for ch in row]
        state = cls(config, board, obs.to_move if obs.to_move >= 0 else 0)
        state.moves_made = obs.moves_made
        state.invalid_counts = list(obs.invalid_counts)
        state.last_move = obs.last_move
        state.winning_line = tuple(obs.winning_line)
        state._outcome = obs.outcome
        return state

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.config.id,
            "board": list(self.rows_text()),
            "to_move": self.current_player,
            "moves_made": self.moves_made,
            "invalid_counts": list(self.invalid_counts),
            "invalid_limit": self.config.invalid_limit,
            "move_cap": self.config.move_cap,
            "last_move": None if self.last_move is None else list(self.last_move),
            "winning_line": [list(x) for x in self.winning_line],
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }
