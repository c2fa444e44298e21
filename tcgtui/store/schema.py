"""The database layout as a list of forward migrations.

A store records the schema version it is at; opening it applies every later
migration in order, each in one transaction, so an old database upgrades in
place and a crash mid-upgrade leaves the previous version intact.  Never edit
a migration that has shipped: append a new one.
"""

from __future__ import annotations

# Version 1: runs, games and decisions.  Room is left for human games (issue 7):
# ``games.run_id`` may be NULL for a game outside any sweep, ``games.id`` is a
# UUID so games from many stores merge without clashes, the status allows
# ``in_progress`` (saved after every move) and ``abandoned``, and the measured
# player is an ``agent`` spec string, which a person's games fill with human:HANDLE.
V1 = """
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    kind        TEXT NOT NULL DEFAULT 'bench',
    config_json TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    run_id      INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    agent       TEXT NOT NULL,
    opponent    TEXT NOT NULL,
    lang        TEXT NOT NULL,
    game_index  INTEGER NOT NULL CHECK (game_index >= 0),
    seed        INTEGER NOT NULL,
    agent_seat  INTEGER NOT NULL CHECK (agent_seat IN (0, 1)),
    seat0       TEXT NOT NULL,
    seat1       TEXT NOT NULL,
    game        TEXT NOT NULL,
    pack_id     TEXT NOT NULL,
    pack_hash   TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('in_progress', 'finished', 'errored', 'abandoned')),
    winner      INTEGER CHECK (winner IN (0, 1)),
    reason      TEXT,
    turns       INTEGER NOT NULL DEFAULT 0,
    moves       INTEGER NOT NULL DEFAULT 0,
    error       TEXT,
    attempts    INTEGER NOT NULL DEFAULT 1,
    record_json TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    UNIQUE (run_id, agent, opponent, lang, game_index)
);

CREATE INDEX games_by_cell ON games (agent, opponent, lang, status);

CREATE TABLE decisions (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    turn      INTEGER NOT NULL,
    seat      INTEGER NOT NULL CHECK (seat IN (0, 1)),
    agent     TEXT NOT NULL,
    move      TEXT NOT NULL,
    card_type TEXT CHECK (card_type IN ('champion', 'spell', 'trick')),
    seconds   REAL NOT NULL,
    info_json TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
"""

MIGRATIONS: tuple[str, ...] = (V1,)
LATEST = len(MIGRATIONS)
