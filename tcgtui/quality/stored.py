"""The ``decision_values`` table (store version 7): what is missing for an evaluator, writing judged
decisions, and reading them (and the decisions they judge) back for the report."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Iterator, NamedTuple, Sequence

from tcgtui.store import Store
from tcgtui.store.db import now

if TYPE_CHECKING:
    from tcgtui.quality.judge import Judged

CHUNK = 500          # ids per query


def missing(conn: sqlite3.Connection, game_id: str, evaluator: str, player: str | None = None) -> set[int]:
    """The decisions of ``game_id`` among legal moves (invalid attempts are none) with no value from ``evaluator``;
    with ``player``, only those that player made."""
    return {idx for (idx,) in conn.execute(
        "SELECT d.idx FROM decisions d WHERE d.game_id = ? AND d.move NOT LIKE '!%' AND (? IS NULL OR d.agent = ?)"
        " AND NOT EXISTS"
        " (SELECT 1 FROM decision_values v WHERE v.game_id = d.game_id AND v.idx = d.idx AND v.evaluator = ?)",
        (game_id, player, player, evaluator))}


def write(store: Store, game_id: str, evaluator: str, judged: Iterable[Judged]) -> int:
    """Store one game's judged decisions in one transaction; a value stored already (another
    ``analyze`` got there first) is kept.  Returns how many rows were added."""
    stamp = now()
    rows = [(game_id, j.idx, evaluator, j.seat, json.dumps(j.move_values, separators=(",", ":")), j.chosen, j.best,
             j.regret, int(j.agrees), stamp) for j in judged]
    with store.transaction():
        before = store.conn.total_changes
        store.conn.executemany(
            "INSERT OR IGNORE INTO decision_values (game_id, idx, evaluator, seat, move_values, chosen, best, regret,"
            " agrees, computed_at) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
        return store.conn.total_changes - before


class Value(NamedTuple):
    """One stored value as the report reads it, with where its decision stood in the game."""

    game_id: str
    idx: int
    seat: int
    evaluator: str
    regret: float
    agrees: int
    kind: str | None
    turn: int


class Choice(NamedTuple):
    """One decision among legal moves as stored, valued or not (``diversity`` counts what was chosen)."""

    game_id: str
    idx: int
    seat: int
    turn: int
    move: str
    kind: str | None


@dataclass
class Stored:
    """What the report reads for a set of games: every stored value, per (game id, seat) how many
    decisions among legal moves it made (those without a value are missing), and each game's length
    in moves and in turns (the phases are its thirds)."""

    values: list[Value] = field(default_factory=list)
    made: dict[tuple[str, int], int] = field(default_factory=dict)
    lengths: dict[str, tuple[int, int]] = field(default_factory=dict)


def _chunks(ids: Sequence[str]) -> Iterator[tuple[list[str], str]]:
    for start in range(0, len(ids), CHUNK):
        chunk = list(ids[start:start + CHUNK])
        yield chunk, ",".join("?" * len(chunk))


def read(conn: sqlite3.Connection, ids: Sequence[str]) -> Stored:
    """The stored values, decisions made and lengths of the games ``ids``."""
    out = Stored()
    for chunk, marks in _chunks(ids):
        out.values += map(Value._make, conn.execute(
            f"SELECT v.game_id, v.idx, v.seat, v.evaluator, v.regret, v.agrees, d.kind, d.turn"
            f" FROM decision_values v JOIN decisions d USING (game_id, idx)"
            f" WHERE v.game_id IN ({marks}) ORDER BY v.game_id, v.idx", chunk))
        for gid, seat, n in conn.execute(f"SELECT game_id, seat, count(*) FROM decisions WHERE game_id IN ({marks})"
                                         f" AND move NOT LIKE '!%' GROUP BY game_id, seat", chunk):
            out.made[(gid, seat)] = n
    out.lengths = lengths(conn, ids)
    return out


def lengths(conn: sqlite3.Connection, ids: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each game's length in moves and in turns."""
    out: dict[str, tuple[int, int]] = {}
    for chunk, marks in _chunks(ids):
        for gid, moves, turns in conn.execute(f"SELECT id, moves, turns FROM games WHERE id IN ({marks})", chunk):
            out[gid] = (moves, turns)
    return out


def choices(conn: sqlite3.Connection, ids: Sequence[str]) -> list[Choice]:
    """Every decision among legal moves of the games ``ids`` (invalid attempts chose nothing)."""
    out: list[Choice] = []
    for chunk, marks in _chunks(ids):
        out += map(Choice._make, conn.execute(
            f"SELECT game_id, idx, seat, turn, move, kind FROM decisions WHERE game_id IN ({marks})"
            f" AND move NOT LIKE '!%' ORDER BY game_id, idx", chunk))
    return out
