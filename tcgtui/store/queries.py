"""What ``tcgtui report`` reads: games with their seats and the measured player's decisions.

Everything is read in bulk (two queries, whatever the number of games), so a
store of tens of thousands of games reports in about a second; the decision
details it needs are columns of their own (schema version 3), not read out of
each decision's JSON.  Rows come back as plain tuples, in the order ``GAME_COLUMNS`` and
``DECISION_COLUMNS`` name: the report builds its own objects from them once
(hundreds of thousands of decisions: no second object per row).
"""

from __future__ import annotations

import sqlite3
from typing import Any, Iterator

from tcgtui.store import facts
from tcgtui.store.db import FINISHED

HUMAN_PREFIX = "human:"


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


GAME_COLUMNS = ("id", "run", "agent", "opponent", "lang", "index", "seat", "status", "winner", "turns", "game",
                "params_json", "pack_id", "pack_hash", "score", "result", "reason", "error", "started_at",
                "finished_at", "seats_json", "record_json", *facts.COLUMNS)


def games(conn: sqlite3.Connection, *, game: str | None = None, runs: list[int] | None = None,
          humans: bool = True, with_record: bool = False) -> list[tuple]:
    """Games of one game id (None: all), of the given runs (None: all), as GAME_COLUMNS rows;
    ``seats_json`` is the seats' agents in seat order, ``record_json`` None unless asked for, then
    the measured player's decision facts (``tcgtui.store.facts``; NULL for a game not finished)."""
    where, params = _where(game, runs, humans)
    record = "g.record_json" if with_record else "NULL"
    return conn.execute(
        "SELECT g.id, r.name, g.agent, g.opponent, g.lang, g.game_index, g.agent_seat, g.status, g.winner,"
        " g.turns, g.game, g.game_params, g.pack_id, g.pack_hash, g.score, g.result, g.reason, g.error,"
        " g.started_at, g.finished_at,"
        " (SELECT json_group_array(agent) FROM (SELECT agent FROM seats WHERE game_id = g.id ORDER BY seat)),"
        f" {record}, {', '.join(_finished_facts())} FROM games g LEFT JOIN runs r ON r.id = g.run_id"
        " LEFT JOIN decision_facts f ON f.game_id = g.id"
        f" {('WHERE ' + where) if where else ''}"
        " ORDER BY g.run_id, g.agent, g.opponent, g.lang, g.game_index", params).fetchall()


def _finished_facts() -> list[str]:
    return [f"CASE WHEN g.status = '{FINISHED}' THEN {c} END" for c in facts.columns("f")]


DECISION_COLUMNS = ("game_id", "move", "kind", "seconds", "prompt_tokens", "completion_tokens", "tokens_estimated",
                    "parse_path", "invalid", "fallback")


def measured_decisions(conn: sqlite3.Connection, *, game: str | None = None, runs: list[int] | None = None,
                       humans: bool = True, status: str | None = FINISHED) -> Iterator[tuple]:
    """The measured player's decisions (its seat's), game by game in move order, as DECISION_COLUMNS rows."""
    where, params = _where(game, runs, humans)
    if status is not None:
        where = " AND ".join(filter(None, ["g.status = ?", where]))
        params = [status, *params]
    return conn.execute(
        "SELECT d.game_id, d.move, d.kind, d.seconds, d.prompt_tokens, d.completion_tokens, d.tokens_estimated,"
        " d.parse_path, d.invalid, d.fallback FROM decisions d JOIN games g ON g.id = d.game_id"
        f" WHERE d.seat = g.agent_seat {('AND ' + where) if where else ''} ORDER BY d.game_id, d.idx", params)


def game_ids(conn: sqlite3.Connection) -> list[str]:
    """Every game id registered in the store (the registry's ids are the code's business)."""
    return [r[0] for r in conn.execute("SELECT DISTINCT game FROM games ORDER BY game")]
