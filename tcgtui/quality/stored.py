"""The ``decision_values`` table (store version 7): what is missing for an evaluator, writing judged
decisions, and reading them back for the report."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Iterable, Sequence

from tcgtui.store import Store
from tcgtui.store.db import now

if TYPE_CHECKING:
    from tcgtui.quality.judge import Judged

CHUNK = 500          # ids per query


def missing(conn: sqlite3.Connection, game_id: str, evaluator: str) -> set[int]:
    """The decisions of ``game_id`` among legal moves (invalid attempts are none) with no value from ``evaluator``."""
    return {idx for (idx,) in conn.execute(
        "SELECT d.idx FROM decisions d WHERE d.game_id = ? AND d.move NOT LIKE '!%' AND NOT EXISTS"
        " (SELECT 1 FROM decision_values v WHERE v.game_id = d.game_id AND v.idx = d.idx AND v.evaluator = ?)",
        (game_id, evaluator))}


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


Value = tuple[str, int, int, str, float, int, str | None]  # game id, decision, seat, evaluator, regret, agrees, kind


def read(conn: sqlite3.Connection, ids: Sequence[str]) -> tuple[list[Value], dict[tuple[str, int], int]]:
    """For the games ``ids``: every stored value, and per (game id, seat) how many decisions among
    legal moves it made (those without a value are missing)."""
    values: list[Value] = []
    made: dict[tuple[str, int], int] = {}
    for start in range(0, len(ids), CHUNK):
        chunk = list(ids[start:start + CHUNK])
        marks = ",".join("?" * len(chunk))
        values += conn.execute(f"SELECT v.game_id, v.idx, v.seat, v.evaluator, v.regret, v.agrees, d.kind"
                               f" FROM decision_values v JOIN decisions d USING (game_id, idx)"
                               f" WHERE v.game_id IN ({marks}) ORDER BY v.game_id, v.idx", chunk).fetchall()
        for gid, seat, n in conn.execute(f"SELECT game_id, seat, count(*) FROM decisions WHERE game_id IN ({marks})"
                                         f" AND move NOT LIKE '!%' GROUP BY game_id, seat", chunk):
            made[(gid, seat)] = n
    return values, made
