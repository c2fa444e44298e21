"""The report's view of the store: games and the measured player's decisions.

The reading itself is ``tcgtui.store.queries`` (no SQL here); this module
turns its rows into the ``Game`` and ``Move`` objects the analyses use, the
common ones and each game's own (see ``tcgtui.engine.tcg.analyses``).  A large
store holds hundreds of thousands of decisions, so each row becomes one
object with slots, built once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tcgtui import locales
from tcgtui.engine.move_columns import MoveColumns, MoveList
from tcgtui.errors import UserError
from tcgtui.store import FINISHED, Store
from tcgtui.store import queries

HUMAN_PREFIX = queries.HUMAN_PREFIX
POOLED_HUMAN = "human"
INVALID = "!"


@dataclass(slots=True)
class Move:
    """One decision of the measured player."""

    move: str                          # the move's text: "" a forfeit, "!kind" an invalid attempt
    kind: str | None                   # the game's move kind (the card game: the card's type)
    seconds: float
    tokens: float | None = None        # prompt + completion, when the agent reported them
    parse_path: str | None = None
    invalid: bool = False              # the agent's reply was unusable (from its info)
    fallback: str | None = None
    tokens_estimated: bool = False

    @property
    def invalid_attempt(self) -> bool:
        """A move the game's rules counted as invalid (recorded as ``!kind``)."""
        return self.move.startswith(INVALID)


@dataclass(slots=True)
class Game:
    id: str
    run: str | None
    agent: str
    opponent: str
    lang: str
    index: int
    seat: int
    status: str
    winner: int | None
    turns: int
    pack: str | None = None            # pack id and short content hash, e.g. community@3f2a9c01d4e7
    game: str = "tcg"
    params: dict[str, Any] = field(default_factory=dict)
    score: float | None = None         # the measured player's score (score games)
    code: str | None = None            # the game's result code
    reason: str | None = None
    error: str | None = None
    seats: tuple[str, ...] = ()
    started_at: str = ""
    finished_at: str | None = None
    record: dict[str, Any] | None = None
    moves: list[Move] | MoveList = field(default_factory=list)

    @property
    def result(self) -> str | None:
        """'win', 'loss' or 'draw' for the measured player; None unless finished."""
        if self.status != FINISHED:
            return None
        if self.winner is None:
            return "draw"
        return "win" if self.winner == self.seat else "loss"

    def groups(self) -> list[str]:
        """The agent rows this game counts in: its own spec, and the pooled human row for people."""
        return [self.agent, POOLED_HUMAN] if self.agent.startswith(HUMAN_PREFIX) else [self.agent]


def run_ids(store: Store, names: list[str] | None) -> list[int] | None:
    """The ids of the named runs (None: every game); an unknown name is a one-line error."""
    if not names:
        return None
    ids = []
    for name in names:
        run = store.run(name)
        if run is None:
            known = ", ".join(r.name for r in store.runs()) or "-"
            raise UserError(locales.load().t("cmd_report.errors.unknown_run", run=name, known=known))
        ids.append(run.id)
    return ids


def _pack(pack_id: str | None, pack_hash: str | None) -> str | None:
    if pack_id is None:
        return None
    return f"{pack_id}@{(pack_hash or '')[:12]}"


def load_games(store: Store, runs: list[int] | None, humans: bool = True, game: str | None = "tcg", *,
               with_record: bool = False) -> list[Game]:
    """The games of one game id (None: every game) with the measured player's decisions in finished games."""
    games: dict[str, Game] = {}
    params: dict[str, dict[str, Any]] = {}        # most games share their parameters' and seats' text:
    seated: dict[str, tuple[str, ...]] = {}        # parse each text once
    for (gid, run, agent, opponent, lang, index, seat, status, winner, turns, game_id, params_json, pack_id,
         pack_hash, score, result, reason, error, started, finished, seats, record) in queries.games(
            store.conn, game=game, runs=runs, humans=humans, with_record=with_record):
        if params_json not in params:
            params[params_json] = json.loads(params_json)
        if seats not in seated:
            seated[seats] = tuple(json.loads(seats)) if seats else ()
        games[gid] = Game(gid, run, agent, opponent, lang, index, seat, status, winner, turns,
                          _pack(pack_id, pack_hash), game_id, dict(params[params_json]), score, result, reason,
                          error, seated[seats], started, finished,
                          None if record is None else json.loads(record))
    order = {gid: i for i, gid in enumerate(games)}
    rows = queries.measured_decisions(store.conn, game=game, runs=runs, humans=humans).fetchall()
    gids, move, kind, seconds, ptok, ctok, est, path, invalid, fallback = (
        zip(*rows) if rows else ((),) * len(queries.DECISION_COLUMNS))
    position = np.fromiter((order[g] for g in gids), np.int64, len(gids))
    counts = np.bincount(position, minlength=len(order))
    if len(position) and np.any(position[1:] < position[:-1]):     # one game's decisions, then the next's
        by_game = np.argsort(position, kind="stable").tolist()
        move, kind, seconds, ptok, ctok, est, path, invalid, fallback = (
            [col[i] for i in by_game] for col in (move, kind, seconds, ptok, ctok, est, path, invalid, fallback))
    tokens = [None if p is None and c is None else float(p or 0) + float(c or 0) for p, c in zip(ptok, ctok)]
    table = MoveColumns.from_rows(counts, move, kind, seconds, tokens, path, invalid, fallback, est)
    start = 0
    for g, n in zip(games.values(), counts.tolist()):
        g.moves = MoveList(table, start, n, Move)
        start += n
    return list(games.values())
