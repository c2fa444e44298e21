"""What ``tcgtui report`` reads: games with their seats and the measured player's decisions.

Everything is read in bulk (two queries, whatever the number of games), so a
store of tens of thousands of games reports in seconds; decision details come
out of the info JSON through SQLite's json_extract in the same pass.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any, Iterator

from tcgtui.store.db import FINISHED

HUMAN_PREFIX = "human:"


@dataclass(frozen=True)
class GameFacts:
    """One game as the report sees it."""

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
    game: str
    params: dict[str, Any]
    pack_id: str | None
    pack_hash: str | None
    score: float | None
    result: str | None
    reason: str | None
    error: str | None
    seats: tuple[str, ...]
    seat_scores: tuple[float | None, ...]
    started_at: str
    finished_at: str | None
    record: dict[str, Any] | None = None


@dataclass(frozen=True)
class DecisionFacts:
    """One decision of a game's measured player."""

    game_id: str
    move: str
    kind: str | None
    seconds: float
    prompt_tokens: float | None
    completion_tokens: float | None
    tokens_estimated: bool
    parse_path: str | None
    invalid: bool
    fallback: str | None


def _where(game: str | None, runs: list[int] | None, humans: bool) -> tuple[str, list[Any]]:
    conds: list[str] = []
    params: list[Any] = []
    if game is not None:
        conds.append("g.game = ?")
        params.append(game)
    if not humans:
        conds.append(f"g.agent NOT LIKE '{HUMAN_PREFIX}%'")
    if runs is not None:
        # People's games belong to no sweep: they stand beside every selected run.
        people = f" OR g.agent LIKE '{HUMAN_PREFIX}%'" if humans else ""
        conds.append(f"(g.run_id IN ({','.join('?' * len(runs))}){people})")
        params += list(runs)
    return " AND ".join(conds), params


def games(conn: sqlite3.Connection, *, game: str | None = None, runs: list[int] | None = None,
          humans: bool = True, with_record: bool = False) -> list[GameFacts]:
    """Games of one game id (None: all), of the given runs (None: all), with their seats."""
    where, params = _where(game, runs, humans)
    seats: dict[str, list[tuple[int, str, float | None]]] = {}
    for gid, seat, agent, score in conn.execute(
            "SELECT s.game_id, s.seat, s.agent, s.score FROM seats s JOIN games g ON g.id = s.game_id"
            f" {('WHERE ' + where) if where else ''}", params):
        seats.setdefault(gid, []).append((seat, agent, score))
    record = "g.record_json" if with_record else "NULL"
    out = []
    for row in conn.execute(
            "SELECT g.id, r.name, g.agent, g.opponent, g.lang, g.game_index, g.agent_seat, g.status, g.winner,"
            " g.turns, g.game, g.game_params, g.pack_id, g.pack_hash, g.score, g.result, g.reason, g.error,"
            f" g.started_at, g.finished_at, {record} FROM games g LEFT JOIN runs r ON r.id = g.run_id"
            f" {('WHERE ' + where) if where else ''}"
            " ORDER BY g.run_id, g.agent, g.opponent, g.lang, g.game_index", params):
        sat = sorted(seats.get(row[0], ()))
        out.append(GameFacts(*row[:11], json.loads(row[11]), *row[12:18],
                             tuple(a for _, a, _ in sat), tuple(s for _, _, s in sat),
                             row[18], row[19], None if row[20] is None else json.loads(row[20])))
    return out


def measured_decisions(conn: sqlite3.Connection, *, game: str | None = None, runs: list[int] | None = None,
                       humans: bool = True, status: str | None = FINISHED) -> Iterator[DecisionFacts]:
    """The measured player's decisions (its seat's), game by game in move order."""
    where, params = _where(game, runs, humans)
    if status is not None:
        where = " AND ".join(filter(None, ["g.status = ?", where]))
        params = [status, *params]
    for row in conn.execute(
            "SELECT d.game_id, d.move, d.kind, d.seconds,"
            " json_extract(d.info_json, '$.prompt_tokens'), json_extract(d.info_json, '$.completion_tokens'),"
            " json_extract(d.info_json, '$.tokens_estimated'), json_extract(d.info_json, '$.parse_path'),"
            " json_extract(d.info_json, '$.invalid'), json_extract(d.info_json, '$.fallback')"
            " FROM decisions d JOIN games g ON g.id = d.game_id"
            f" WHERE d.seat = g.agent_seat {('AND ' + where) if where else ''} ORDER BY d.game_id, d.idx", params):
        gid, move, kind, seconds, ptok, ctok, est, path, invalid, fallback = row
        yield DecisionFacts(gid, move, kind, float(seconds), ptok, ctok, bool(est), path, bool(invalid), fallback)


def game_ids(conn: sqlite3.Connection) -> list[str]:
    """Every game id registered in the store (the registry's ids are the code's business)."""
    return [r[0] for r in conn.execute("SELECT DISTINCT game FROM games ORDER BY game")]
