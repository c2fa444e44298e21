"""The store as the serve tests check it: a participant's pseudonym from their link, and the
games under it.  The study and the server come from ``tcgtui.perf._participant``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tcgtui.perf._participant import served, write_study  # noqa: F401  (the tests' study and server)


def _read(db: Path, sql: str, params: tuple = ()) -> list[tuple]:
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        return conn.execute(sql, params).fetchall()


def person(db: Path, token: str) -> tuple[str, str | None] | None:
    """(pseudonym, finished_at) of the participant holding ``token``, or None before consent."""
    rows = _read(db, "SELECT id, finished_at FROM participants WHERE token = ?", (token,))
    return rows[0] if rows else None


def games_of(db: Path, pid: str) -> list[tuple[int, str, int]]:
    """(game_index, status, moves) of every game stored under a participant's pseudonym."""
    return _read(db, "SELECT game_index, status, moves FROM games WHERE agent = ? ORDER BY game_index, id",
                 (f"human:{pid}",))
