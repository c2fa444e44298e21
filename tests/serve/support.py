"""A real ``tcgtui serve`` for the tests: started as the command, on a free loopback port, with the
study, store and user files of the test; stopped with SIGTERM as a person's Ctrl+C would."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

STUDY = """\
id = "ttt-pilot"
title = "Tic-Tac-Toe against a random player"
consent = "We record your moves and their times under a pseudonym."
languages = ["en", "ar"]
games_per_rung = 1
practice = 0

[deals]
kind = "fresh"

[[games]]
game = "tictactoe"
ladder = ["random"]
"""


def write_study(folder: Path) -> Path:
    path = folder / "study.toml"
    path.write_text(STUDY, encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_env(folder: Path) -> dict[str, str]:
    """The user's files of the test's own (config, data, state), never the person's running it."""
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[name] = str(folder / name.lower())
    return env


@contextmanager
def served(folder: Path, study: Path, db: Path, *extra: str, port: int | None = None) -> Iterator[str]:
    """A running server's base URL; the server is stopped (and must stop) when the block ends."""
    port = port or free_port()
    log = open(folder / f"server-{port}-{time.monotonic_ns()}.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "tcgtui", "serve", "--study", str(study), "--db", str(db),
                             "--port", str(port), *extra], stdout=log, stderr=subprocess.STDOUT, env=serve_env(folder))
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"tcgtui serve did not start: {Path(log.name).read_text()}")
                time.sleep(0.2)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
            log.close()


def stored_games(db: Path) -> list[tuple[str, int, str]]:
    """(agent, game_index, status) of every game in the store, read-only."""
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as conn:
        return conn.execute("SELECT agent, game_index, status FROM games ORDER BY agent").fetchall()
