"""The database layout as a list of forward migrations.

A store records the schema version it is at; opening it applies every later
migration in order, each in one transaction, so an old database upgrades in
place and a crash mid-upgrade leaves the previous version intact.  Never edit
a migration that has shipped: append a new one.
"""

from __future__ import annotations

from typing import Callable

from tcgtui.store import facts

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


# Version 2: any game (issue "arena").  A game's setup is ``game_params`` (JSON;
# v1 card games get {"pack": pack_id, "pack_hash": pack_hash}); pack id and hash
# stay as nullable columns for games that have packs; ``score`` is the measured
# player's score in score games and ``result`` a game-specific result code; any
# seat number ≥ 0.  Who sat where moves to the ``seats`` table (one row per seat,
# replacing seat0/seat1); a decision's ``card_type`` becomes a generic ``kind``.
# SQLite cannot drop CHECK constraints, so games and decisions are rebuilt
# (create, copy, drop, rename) with foreign keys off for the migration, as
# SQLite's documentation prescribes; Store._migrate checks them before commit.
V2 = """
CREATE TABLE games_v2 (
    id          TEXT PRIMARY KEY,
    run_id      INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    agent       TEXT NOT NULL,
    opponent    TEXT NOT NULL,
    lang        TEXT NOT NULL,
    game_index  INTEGER NOT NULL CHECK (game_index >= 0),
    seed        INTEGER NOT NULL,
    agent_seat  INTEGER NOT NULL CHECK (agent_seat >= 0),
    game        TEXT NOT NULL,
    game_params TEXT NOT NULL DEFAULT '{}',
    pack_id     TEXT,
    pack_hash   TEXT,
    status      TEXT NOT NULL CHECK (status IN ('in_progress', 'finished', 'errored', 'abandoned')),
    winner      INTEGER CHECK (winner >= 0),
    score       REAL,
    result      TEXT,
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

INSERT INTO games_v2 (id, run_id, agent, opponent, lang, game_index, seed, agent_seat, game, game_params,
                      pack_id, pack_hash, status, winner, score, result, reason, turns, moves, error, attempts,
                      record_json, started_at, finished_at)
SELECT id, run_id, agent, opponent, lang, game_index, seed, agent_seat, game,
       json_object('pack', pack_id, 'pack_hash', pack_hash), pack_id, pack_hash, status, winner, NULL, NULL,
       reason, turns, moves, error, attempts, record_json, started_at, finished_at
FROM games;

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    agent   TEXT NOT NULL,
    score   REAL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

INSERT INTO seats (game_id, seat, agent, score)
SELECT id, 0, seat0, NULL FROM games UNION ALL SELECT id, 1, seat1, NULL FROM games;

CREATE TABLE decisions_v2 (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    turn      INTEGER NOT NULL,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    agent     TEXT NOT NULL,
    move      TEXT NOT NULL,
    kind      TEXT,
    seconds   REAL NOT NULL,
    info_json TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

INSERT INTO decisions_v2 (game_id, idx, turn, seat, agent, move, kind, seconds, info_json)
SELECT game_id, idx, turn, seat, agent, move, card_type, seconds, info_json FROM decisions;

DROP TABLE decisions;
DROP TABLE games;
ALTER TABLE games_v2 RENAME TO games;
ALTER TABLE decisions_v2 RENAME TO decisions;

CREATE INDEX games_by_cell ON games (agent, opponent, lang, status);
CREATE INDEX games_by_game ON games (game, run_id, status);
"""

# Version 3: what the report reads of each decision's details, kept beside them.  The report
# reads hundreds of thousands of decisions, and extracting six values from each one's JSON took
# most of its time.  The columns have no type, so each holds exactly what json_extract gives
# (numbers, text, 1/0 for true/false, NULL when absent); they are written with the decision.
# The index covers what the report reads of the measured seat's decisions, so it never reads
# the decisions' JSON pages (a model's replies make them large).
V3 = """
ALTER TABLE decisions ADD COLUMN prompt_tokens;
ALTER TABLE decisions ADD COLUMN completion_tokens;
ALTER TABLE decisions ADD COLUMN tokens_estimated;
ALTER TABLE decisions ADD COLUMN parse_path;
ALTER TABLE decisions ADD COLUMN invalid;
ALTER TABLE decisions ADD COLUMN fallback;

UPDATE decisions SET prompt_tokens = json_extract(info_json, '$.prompt_tokens'),
                     completion_tokens = json_extract(info_json, '$.completion_tokens'),
                     tokens_estimated = json_extract(info_json, '$.tokens_estimated'),
                     parse_path = json_extract(info_json, '$.parse_path'),
                     invalid = json_extract(info_json, '$.invalid'),
                     fallback = json_extract(info_json, '$.fallback');

CREATE INDEX decisions_for_report ON decisions (game_id, seat, idx, move, kind, seconds, prompt_tokens,
                                                completion_tokens, tokens_estimated, parse_path, invalid, fallback);
"""

# The decision details V3 keeps in columns of the same names (info_json keeps them too).
DECISION_FACTS = facts.DETAILS

# Version 4: one row per game of what the report aggregates of the measured player's decisions
# (``tcgtui.store.facts``), written with the decisions; the upgrade computes it for every stored
# game from the v3 columns.  A migration is SQL, or a function given the connection when the
# step needs more than SQL (here: packing each game's decision times into an array).
V4 = facts.fill

# Version 5, two fixes to what the report reads of a game.  A game's ``invalid_attempts`` counts
# every unusable reply of the measured player: a move recorded as ``!kind`` where the rules count it
# (one reply), else the replies a decision records as ``invalid`` (a player that asked again, or fell
# back to a random move: Eleusis's seed player asks three times); version 4 counted only the ``!kind``
# moves, so such games showed no invalid move at all.  And a game some of whose decisions a time budget
# cut short (``budget_cut``, the TUI's games while the fast path compiles; never a bench's) says how
# many among its parameters (``tcgtui.store.db.BUDGET_CUT``), as games stored from now on do.
V5 = """
UPDATE decision_facts SET invalid_attempts = coalesce((
    SELECT sum(max(d.move LIKE '!%', CASE WHEN typeof(d.invalid) IN ('integer', 'real') AND d.invalid > 0
                                          THEN CAST(d.invalid AS INTEGER) ELSE 0 END))
    FROM decisions d JOIN games g ON g.id = d.game_id
    WHERE d.game_id = decision_facts.game_id AND d.seat = g.agent_seat), 0);

UPDATE games SET game_params = json_set(game_params, '$.budget_cut', (
    SELECT count(*) FROM decisions d WHERE d.game_id = games.id AND json_extract(d.info_json, '$.budget_cut') = 1))
WHERE (run_id IS NULL OR run_id NOT IN (SELECT id FROM runs WHERE kind = 'bench'))
  AND EXISTS (SELECT 1 FROM decisions d WHERE d.game_id = games.id AND json_extract(d.info_json, '$.budget_cut') = 1);
"""

# Version 6: the people of human-baseline studies (tcgtui.study).  A row is written once a person has
# consented, never before; ``number`` is their place in joining order (it picks their counterbalanced
# order of opponents); the token is their link back in (a browser participant's URL, a terminal's
# saved file).  A person's games are ordinary games of the study's run under ``human:<id>``.
V6 = """
CREATE TABLE IF NOT EXISTS participants (
    study       TEXT NOT NULL,
    id          TEXT NOT NULL,
    token       TEXT NOT NULL UNIQUE,
    lang        TEXT NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 0),
    joined_at   TEXT NOT NULL,
    finished_at TEXT,
    left_at     TEXT,
    PRIMARY KEY (study, id),
    UNIQUE (study, number)
);
"""

# Version 7: the judged decisions (``tcgtui analyze --run``, ``tcgtui.quality``).  One row per stored
# decision and evaluator: the evaluator and its settings (``perfect``, ``ab:8``) are part of the key,
# so values of one evaluator are computed once and another's sit beside them.  ``move_values`` holds
# every legal move's value (JSON, move -> value for the mover: won 1, drawn 0, lost -1); ``chosen``,
# ``best``, ``regret`` (best minus chosen) and ``agrees`` (the chosen move is among the best) are kept
# in columns for the report.  Invalid attempts are no choice among legal moves and get no row.
V7 = """
CREATE TABLE IF NOT EXISTS decision_values (
    game_id     TEXT NOT NULL,
    idx         INTEGER NOT NULL,
    evaluator   TEXT NOT NULL,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    move_values TEXT NOT NULL,
    chosen      REAL NOT NULL,
    best        REAL NOT NULL,
    regret      REAL NOT NULL CHECK (regret >= 0),
    agrees      INTEGER NOT NULL CHECK (agrees IN (0, 1)),
    computed_at TEXT NOT NULL,
    PRIMARY KEY (game_id, idx, evaluator),
    FOREIGN KEY (game_id, idx) REFERENCES decisions(game_id, idx) ON DELETE CASCADE
) WITHOUT ROWID;
"""

MIGRATIONS: tuple[str | Callable, ...] = (V1, V2, V3, V4, V5, V6, V7)
LATEST = len(MIGRATIONS)
