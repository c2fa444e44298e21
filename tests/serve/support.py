"""The study the serve tests play (one game of Tic-Tac-Toe against the random player) and the
store's games as the tests check them; the server itself is started by ``tcgtui.perf._participant.served``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tcgtui.perf._participant import served, write_study  # noqa: F401  (the tests' study and server)


def stored_games(db: Path) -> list[tuple[str, int, str]]:
    """(agent, game_index, status) of every game in the store, read-only."""
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as conn:
        return conn.execute("SELECT agent, game_index, status FROM games ORDER BY agent").fetchall()
