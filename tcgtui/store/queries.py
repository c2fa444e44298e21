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
    else:       # two people at one keyboard played no opponent (tcgtui.live.between_people): no result to report
        conds.append(f"g.opponent <> '{HUMAN_PREFIX[:-1]}' AND g.opponent NOT LIKE '{HUMAN_PREFIX}%'")
    if runs is not None:
        # People's games belong to no sweep: they stand beside every selected run.
        people = f" OR g.agent LIKE '{HUMAN_PREFIX}%'" if humans else ""
        conds.append(f"(g.run_id IN ({','.join('?' * len(runs))}){people})")
        params += list(runs)
    return " AND ".join(conds), params


GAME_COLUMNS = ("id", "run", "agent", "opponent", "lang", "index", "seat", "status", "winner", "turns", "game",
                "params_json", "pack", "score", "result", "reason", "error", "started_at",
                "finished_at", "record_json")
# What ``decision_facts`` gives per game: the counts first, then the rest (see tcgtui.store.facts).
FACT_COUNTS = tuple(c for c in facts.COLUMNS if c not in ("kinds", "card_kinds", "parse_paths", "seconds", "tokens"))
FACT_COLUMNS = (*FACT_COUNTS, "kinds", "card_kinds", "parse_paths", "seconds", "tokens")


def games(conn: sqlite3.Connection, *, game: str | None = None, runs: list[int] | None = None,
          humans: bool = True, with_record: bool = False
          ) -> tuple[list[tuple], dict[str, tuple[str, ...]], dict[str, tuple[float | None, ...]]]:
    """Games of one game id (None: all), of the given runs (None: all), as GAME_COLUMNS rows, in
    (run, agent, opponent, lang, game index) order (``record_json`` None unless asked for; ``pack``
    the pack's id and the first 12 characters of its hash, ``id@hash``, None without a pack), and
    each one's seats' agents and scores in seat order, by game id (read by one scan of their own:
    a lookup per game cost a large store a good part of a second)."""
    where, params = _where(game, runs, humans)
    where = f" WHERE {where}" if where else ""
    record = "g.record_json" if with_record else "NULL"
    rows = conn.execute(
        "SELECT g.id, r.name, g.agent, g.opponent, g.lang, g.game_index, g.agent_seat, g.status, g.winner,"
        " g.turns, g.game, g.game_params, g.pack_id || '@' || substr(coalesce(g.pack_hash, ''), 1, 12), g.score,"
        " g.result, g.reason, g.error,"
        f" g.started_at, g.finished_at, {record} FROM games g LEFT JOIN runs r ON r.id = g.run_id{where}"
        " ORDER BY g.run_id, g.agent, g.opponent, g.lang, g.game_index", params).fetchall()
    seats: dict[str, list[str]] = {}
    scores: dict[str, list[float | None]] = {}
    chosen, chosen_params = _of_chosen(conn, where, params)
    for gid, agent, score in conn.execute(f"SELECT game_id, agent, score FROM seats{chosen} ORDER BY game_id, seat",
                                          chosen_params):
        seats.setdefault(gid, []).append(agent)
        scores.setdefault(gid, []).append(score)
    return rows, {gid: tuple(agents) for gid, agents in seats.items()}, {gid: tuple(s) for gid, s in scores.items()}


def decision_facts(conn: sqlite3.Connection, *, game: str | None = None, runs: list[int] | None = None,
                   humans: bool = True) -> dict[str, tuple]:
    """The measured player's decision facts of the finished games ``games`` selects, by game id,
    as FACT_COLUMNS rows followed by the game id (a row kept whole costs no copy)."""
    where, params = _where(game, runs, humans)
    where = " WHERE " + " AND ".join(filter(None, [f"g.status = '{FINISHED}'", where]))
    chosen, chosen_params = _of_chosen(conn, where, params)
    return {r[-1]: r for r in conn.execute(f"SELECT {', '.join(FACT_COLUMNS)}, game_id FROM decision_facts{chosen}",
                                           chosen_params)}


def other_seat_facts(conn: sqlite3.Connection, run_names: list[str]) -> dict[str, tuple]:
    """The decision facts of the seat other than the measured one in the finished games of the
    named runs (round robins), by game id, shaped as ``decision_facts`` gives them."""
    if not run_names:
        return {}
    where = f"g.status = '{FINISHED}' AND r.name IN ({','.join('?' * len(run_names))})"
    found = facts.other_seat(conn, " JOIN runs r ON r.id = g.run_id", where, run_names)
    order = [facts.COLUMNS.index(c) for c in FACT_COLUMNS]
    return {gid: (*(values[i] for i in order), gid) for gid, values in found.items()}


def _of_chosen(conn: sqlite3.Connection, where: str, params: list[Any]) -> tuple[str, list[Any]]:
    """The condition on the chosen games' rows in another table, and its parameters: none when
    every game is chosen, so that table is read by a plain scan instead of a lookup per game."""
    chosen = conn.execute(f"SELECT count(*) FROM games g{where}", params).fetchone()[0]
    if chosen == conn.execute("SELECT count(*) FROM games").fetchone()[0]:
        return "", []
    return f" WHERE game_id IN (SELECT g.id FROM games g{where})", params


def game_ids(conn: sqlite3.Connection) -> list[str]:
    """Every game id registered in the store (the registry's ids are the code's business)."""
    return [r[0] for r in conn.execute("SELECT DISTINCT game FROM games ORDER BY game")]


def run_games(conn: sqlite3.Connection, run_id: int) -> list[tuple]:
    """The games of one run (a study's, or the run whose deals a paired study replays) as rows of
    (id, agent, opponent, lang, game index, seed, game, status, winner, agent seat, score, reason), in
    (agent, game index) order: what a study's report and status read."""
    return conn.execute(
        "SELECT id, agent, opponent, lang, game_index, seed, game, status, winner, agent_seat, score, reason"
        " FROM games WHERE run_id = ? ORDER BY agent, game_index", (run_id,)).fetchall()


def participants(conn: sqlite3.Connection, study: str) -> list[tuple]:
    """A study's participants as (id, lang, number, joined_at, finished_at, left_at), in joining
    order; never their token (it resumes a person's session: it stays in the store)."""
    return conn.execute(
        "SELECT id, lang, number, joined_at, finished_at, left_at FROM participants WHERE study = ?"
        " ORDER BY number", (study,)).fetchall()
