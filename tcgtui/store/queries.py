"""What ``tcgtui report`` reads: games with their seats and the measured player's decision facts.

Everything is read in bulk (a few scans, whatever the number of games), and
never a decision row: what the report aggregates of each game's decisions is
kept per game (``tcgtui.store.facts``, schema version 4).  Rows come back as
plain tuples, in the order ``GAME_COLUMNS`` names: the report builds its own
objects from them once.
"""

from __future__ import annotations

import sqlite3
from typing import Any

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
                "finished_at", "seats", "record_json", *facts.COLUMNS)


def games(conn: sqlite3.Connection, *, game: str | None = None, runs: list[int] | None = None,
          humans: bool = True, with_record: bool = False) -> list[tuple]:
    """Games of one game id (None: all), of the given runs (None: all), as GAME_COLUMNS rows, in
    (run, agent, opponent, lang, game index) order; ``seats`` is the seats' agents in seat order,
    ``record_json`` None unless asked for, then the measured player's decision facts
    (``tcgtui.store.facts``; None for a game not finished).

    Four plain scans joined here, rather than one query that joins them: walking the games in
    index order and looking up each one's run, seats and facts cost a large store half a second;
    the sort is SQLite's (NULL runs first, text by bytes, ties in rowid order)."""
    where, params = _where(game, runs, humans)
    where = f" WHERE {where}" if where else ""
    record = "g.record_json" if with_record else "NULL"
    rows = conn.execute(
        "SELECT g.run_id IS NOT NULL, g.run_id, g.agent, g.opponent, g.lang, g.game_index, g.rowid, g.id,"
        " g.agent_seat, g.status, g.winner, g.turns, g.game, g.game_params, g.pack_id, g.pack_hash, g.score,"
        f" g.result, g.reason, g.error, g.started_at, g.finished_at, {record} FROM games g{where}", params).fetchall()
    if len(rows) == conn.execute("SELECT count(*) FROM games").fetchone()[0]:
        chosen, params = "", []               # every game: plain scans, no lookups
    else:
        chosen = f" WHERE game_id IN (SELECT g.id FROM games g{where})"
    names = dict(conn.execute("SELECT id, name FROM runs"))
    seats: dict[str, list[str]] = {}
    for gid, agent in conn.execute(f"SELECT game_id, agent FROM seats{chosen} ORDER BY game_id, seat", params):
        seats.setdefault(gid, []).append(agent)
    found = {r[0]: r[1:] for r in conn.execute(
        f"SELECT game_id, {', '.join(facts.COLUMNS)} FROM decision_facts{chosen}", params)}
    rows.sort(key=lambda r: r[:7])
    none = (None,) * len(facts.COLUMNS)
    return [(gid, names.get(run), agent, opponent, lang, index, seat, status, winner, turns, game_id, params_json,
             pack_id, pack_hash, score, result, reason, error, started, finished, tuple(seats.get(gid, ())), rec,
             *(found.get(gid, none) if status == FINISHED else none))
            for (_, run, agent, opponent, lang, index, _, gid, seat, status, winner, turns, game_id, params_json,
                 pack_id, pack_hash, score, result, reason, error, started, finished, rec) in rows]


def game_ids(conn: sqlite3.Connection) -> list[str]:
    """Every game id registered in the store (the registry's ids are the code's business)."""
    return [r[0] for r in conn.execute("SELECT DISTINCT game FROM games ORDER BY game")]
