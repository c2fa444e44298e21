"""The SQLite store: runs, games and their decisions, in one file.

Why these settings: WAL lets ``tcgtui report`` read while a sweep writes;
``synchronous=NORMAL`` in WAL mode survives a killed process without losing a
committed game (only a power cut can drop the last few, and never corrupts);
foreign keys keep decisions from outliving their game; every game goes in with
its decisions in ONE transaction, so a game is stored whole or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.store import facts
from tcgtui.store.schema import DECISION_FACTS, LATEST, MIGRATIONS

FINISHED, ERRORED, ABANDONED, IN_PROGRESS = "finished", "errored", "abandoned", "in_progress"
BUSY_TIMEOUT_MS = 30_000
MERGE_BATCH, MERGE_BATCH_S = 200, 1.0      # an import commits at least this often (games, seconds)


_FACTS_FROM_INFO = ", ".join(f"json_extract(?9, '$.{name}')" for name in DECISION_FACTS)


class StoreError(UserError):
    """The database cannot be used: not SQLite, too new, locked, or missing."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def new_game_id() -> str:
    """A UUID: unique across every store, so games from many people merge without clashes."""
    return str(uuid.uuid4())


def _default(value: Any) -> Any:
    item = getattr(value, "item", None)          # numpy scalars
    return item() if callable(item) else str(value)


class JsonText(str):
    """JSON encoded already (a worker process encodes the game it played), stored as it is."""


def to_json(value: Any) -> str:
    if isinstance(value, JsonText):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_default)


@dataclass(frozen=True)
class Run:
    id: int
    name: str
    kind: str
    config: dict[str, Any]
    created_at: str
    updated_at: str


@dataclass
class DecisionRow:
    idx: int
    turn: int
    seat: int
    agent: str
    move: str
    kind: str | None          # the game's move kind (the card game: a card's type); None for forfeits, invalid attempts
    seconds: float
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class GameRow:
    """One game as stored; ``agent`` is the player measured, ``opponent`` the other seat
    (``""`` or a fixed label in one-seat games); ``seat_specs`` says who sat in each seat."""

    agent: str
    opponent: str
    lang: str
    game_index: int
    seed: int
    agent_seat: int
    game: str
    status: str
    record: dict[str, Any]
    started_at: str
    pack_id: str | None = None
    pack_hash: str | None = None
    game_params: dict[str, Any] = field(default_factory=dict)
    run_id: int | None = None
    winner: int | None = None
    score: float | None = None          # the measured player's score, in score games
    result: str | None = None           # a game-specific result code
    seat_specs: tuple[str, ...] = ()
    reason: str | None = None
    turns: int = 0
    moves: int = 0
    error: str | None = None
    finished_at: str | None = None
    attempts: int = 1
    id: str = field(default_factory=new_game_id)

    seat_scores: tuple[float | None, ...] = ()

    def __post_init__(self) -> None:
        if not self.seat_specs:
            self.seat_specs = two_seats(self.agent, self.opponent, self.agent_seat)
        if not self.game_params and self.pack_id is not None:
            self.game_params = {"pack": self.pack_id, "pack_hash": self.pack_hash}

    @property
    def seats(self) -> tuple[str, ...]:
        return self.seat_specs


def two_seats(agent: str, opponent: str, agent_seat: int) -> tuple[str, str]:
    """Who sits where in a two-seat game, from the measured player's seat."""
    return (agent, opponent) if agent_seat == 0 else (opponent, agent)


STORED, EXISTS, REPLACED = "stored", "exists", "replaced"

# Among a game's parameters: how many of its decisions (any seat's) a time budget cut short (search
# players on the TUI's interim path while the fast path compiles; ``tcgtui bench`` never gives a
# budget).  Absent when none was: the report keeps such games apart (``tcgtui.report.grouping``).
BUDGET_CUT = "budget_cut"
# Among a game's parameters: the interval width a sequential run (``bench --until``) stopped its cell
# at; absent in a run of fixed size.  The report keeps such games apart and gives them anytime-valid
# intervals (a fixed-n interval is not valid once a run may stop on what it has seen).
UNTIL = "until"


def budget_cuts(decisions: list[DecisionRow]) -> int:
    """How many of ``decisions`` a budget cut short."""
    cut = 0
    for d in decisions:
        info: Any = d.info
        if isinstance(info, str):       # a worker's, JSON already: parsed only where the word is in it
            info = json.loads(info) if BUDGET_CUT in info else {}
        cut += info.get(BUDGET_CUT) is True
    return cut


def _statements(script: str) -> Iterator[str]:
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""
    if buf.strip():
        yield buf.strip()


class Store:
    """An open database.  Use as a context manager or call ``close()``."""

    def __init__(self, path: Path, *, create: bool = True, read_only: bool = False) -> None:
        """``read_only``: a reader (the report) opens the file with ``mode=ro`` when its schema is
        current, so it never waits behind a writer's lock and works on read-only media; an older
        store is upgraded first (a write, once), a newer one refused."""
        self.path = path
        text = locales.load()
        try:
            if read_only and self._open_current(path):
                return
            if create and not path.exists():
                self._make(path)
            self._connect(path, "rwc" if create else "rw")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(text.t("store.unusable", path=str(path), reason=str(exc))) from None

    def _connect(self, path: Path, mode: str) -> None:
        uri = path.resolve().as_uri() + f"?mode={mode}"
        self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")

    def _make(self, path: Path) -> None:
        """A new store, made whole under a temporary name and then linked into place: a full disk or
        a kill while the schema is written leaves no store rather than one without its tables."""
        tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
        try:
            self._connect(tmp, "rwc")
            try:
                self._migrate()
                # Fold the WAL into the file now, where a failure is seen: closing does it too, but
                # silently, and a full disk then left a file without its tables (malformed once linked).
                busy, log, moved = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if busy or log != moved:
                    raise sqlite3.OperationalError("the new store could not be written whole")
            finally:
                self.conn.close()
            with contextlib.suppress(FileExistsError):      # another process made it first: theirs is used
                os.link(tmp, path)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise StoreError(locales.load().t("store.uncreatable", path=str(path), reason=str(exc))) from None
        finally:
            for leftover in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(OSError):
                    os.unlink(f"{tmp}{leftover}")

    def _open_current(self, path: Path) -> bool:
        """Open read-only; False (closed again) when the schema needs an upgrade.  In a folder that
        cannot be written (read-only media) SQLite cannot make a WAL store's shared-memory index, so
        the file is opened as immutable there: nothing can be writing it."""
        uri = path.resolve().as_uri() + "?mode=ro"
        if not os.access(path.resolve().parent, os.W_OK) and not path.with_name(path.name + "-shm").exists():
            uri += "&immutable=1"
        self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            current = self.version
        except sqlite3.OperationalError:          # no schema_version table yet
            current = 0
        if current == LATEST:
            return True
        self.conn.close()
        if current > LATEST:
            raise StoreError(locales.load().t("store.too_new", path=str(self.path), version=current, latest=LATEST))
        return False

    # --- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> _Transaction:
        """``with store.transaction():`` — BEGIN IMMEDIATE, COMMIT, or ROLLBACK on any error."""
        return _Transaction(self.conn)

    @property
    def version(self) -> int:
        row = self.conn.execute("SELECT max(version) FROM schema_version").fetchone()
        return int(row[0] or 0)

    def _migrate(self) -> None:
        # Migrations that rebuild tables run with foreign keys off (the pragma is a no-op
        # inside a transaction), and the keys are checked before the upgrade commits.
        self.conn.execute("PRAGMA foreign_keys=OFF")
        try:
            with self.transaction():
                self.conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                                  "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
                current = self.version
                if current > LATEST:
                    raise StoreError(locales.load().t("store.too_new", path=str(self.path),
                                                      version=current, latest=LATEST))
                for version in range(current + 1, LATEST + 1):
                    step = MIGRATIONS[version - 1]
                    if callable(step):
                        step(self.conn)
                    else:
                        for stmt in _statements(step):
                            self.conn.execute(stmt)
                    self.conn.execute("INSERT INTO schema_version VALUES (?, ?)", (version, now()))
                # Checked after an upgrade only: it reads every row (a third of a second on a large store).
                bad = self.conn.execute("PRAGMA foreign_key_check").fetchone() if current < LATEST else None
                if bad is not None:
                    raise sqlite3.DatabaseError(f"foreign key check failed after upgrading: {tuple(bad)}")
        finally:
            self.conn.execute("PRAGMA foreign_keys=ON")

    # --- runs ------------------------------------------------------------------------------

    def _run(self, row: tuple) -> Run:
        return Run(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5])

    def run(self, name: str) -> Run | None:
        row = self.conn.execute("SELECT id, name, kind, config_json, created_at, updated_at "
                                "FROM runs WHERE name = ?", (name,)).fetchone()
        return None if row is None else self._run(row)

    def runs(self) -> list[Run]:
        rows = self.conn.execute("SELECT id, name, kind, config_json, created_at, updated_at "
                                 "FROM runs ORDER BY id").fetchall()
        return [self._run(r) for r in rows]

    def create_run(self, name: str, config: dict[str, Any], kind: str = "bench") -> Run:
        stamp = now()
        cur = self.conn.execute("INSERT INTO runs (name, kind, config_json, created_at, updated_at) "
                                "VALUES (?, ?, ?, ?, ?)", (name, kind, to_json(config), stamp, stamp))
        return Run(int(cur.lastrowid or 0), name, kind, config, stamp, stamp)

    def update_run_config(self, run_id: int, config: dict[str, Any]) -> None:
        self.conn.execute("UPDATE runs SET config_json = ?, updated_at = ? WHERE id = ?",
                          (to_json(config), now(), run_id))

    # --- games -----------------------------------------------------------------------------

    def save_game(self, game: GameRow, decisions: list[DecisionRow], *, replace_errored: bool = False) -> str:
        """Store a game and its decisions atomically.

        A game already stored for the same run, cell and index is never
        duplicated: the call returns ``EXISTS``, unless the stored one errored
        and ``replace_errored`` is set, in which case it is replaced whole.
        A store that cannot be written (disk full, locked past the busy timeout)
        raises StoreError; nothing of the game is kept.
        """
        try:
            return self._save_game(game, decisions, replace_errored)
        except sqlite3.OperationalError as exc:
            raise StoreError(locales.load().t("store.write_failed", path=str(self.path), reason=str(exc))) from None

    def _save_game(self, game: GameRow, decisions: list[DecisionRow], replace_errored: bool) -> str:
        with self.transaction():
            outcome = STORED
            if game.run_id is not None:
                old = self.conn.execute(
                    "SELECT id, status, attempts FROM games WHERE run_id = ? AND agent = ? AND opponent = ? "
                    "AND lang = ? AND game_index = ?",
                    (game.run_id, game.agent, game.opponent, game.lang, game.game_index)).fetchone()
                if old is not None:
                    if not (replace_errored and old[1] == ERRORED):
                        return EXISTS
                    self.conn.execute("DELETE FROM games WHERE id = ?", (old[0],))
                    game.attempts = int(old[2]) + 1
                    outcome = REPLACED
            self._insert(game, decisions)
            return outcome

    def _insert(self, game: GameRow, decisions: list[DecisionRow]) -> None:
        cut = budget_cuts(decisions)
        if cut:
            game.game_params = {**game.game_params, BUDGET_CUT: cut}
        self.conn.execute(
            "INSERT INTO games (id, run_id, agent, opponent, lang, game_index, seed, agent_seat, game, game_params,"
            " pack_id, pack_hash, status, winner, score, result, reason, turns, moves, error, attempts, record_json,"
            " started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (game.id, game.run_id, game.agent, game.opponent, game.lang, game.game_index, game.seed,
             game.agent_seat, game.game, to_json(game.game_params), game.pack_id, game.pack_hash, game.status,
             game.winner, game.score, game.result, game.reason, game.turns, game.moves, game.error, game.attempts,
             to_json(game.record), game.started_at, game.finished_at))
        scores = game.seat_scores
        self.conn.executemany(
            "INSERT INTO seats (game_id, seat, agent, score) VALUES (?,?,?,?)",
            [(game.id, s, spec, scores[s] if s < len(scores) else None) for s, spec in enumerate(game.seats)])
        self._insert_decisions(game.id, decisions, seat=game.agent_seat)

    def _insert_decisions(self, game_id: str, decisions: list[DecisionRow], replace: bool = False,
                          seat: int | None = None) -> None:
        """The one place decisions are written (whole games and move-by-move saves alike), with
        the details the report reads extracted from their JSON into their own columns, and the
        game's decision facts: from the rows in hand for a whole game (its measured ``seat``
        given), else read back from the table."""
        self.conn.executemany(
            f"INSERT {'OR REPLACE ' if replace else ''}INTO decisions"
            f" (game_id, idx, turn, seat, agent, move, kind, seconds, info_json, {', '.join(DECISION_FACTS)})"
            f" VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9, {_FACTS_FROM_INFO})",
            [(game_id, d.idx, d.turn, d.seat, d.agent, d.move, d.kind, d.seconds, to_json(d.info))
             for d in decisions])
        if seat is None:
            facts.refresh(self.conn, game_id)
        else:
            facts.write(self.conn, game_id, [facts.stored_row(d.move, d.kind, d.seconds, d.info)
                                             for d in sorted(decisions, key=lambda d: d.idx) if d.seat == seat])

    def merge_games(self, games: list[tuple[GameRow, list[DecisionRow]]]) -> tuple[int, int]:
        """Add games by id, skipping ids already here: (added, skipped).

        Committed in batches of at most MERGE_BATCH games or MERGE_BATCH_S seconds, so a
        large import never holds the write lock near the busy timeout and a bench writing
        to the same store waits its turn instead of failing.  Every game still goes in
        whole; an import cut short is finished by running it again (ids are skipped).
        """
        added = skipped = 0
        for start in range(0, len(games), MERGE_BATCH):
            a, s = self._write(self._merge_games, games[start:start + MERGE_BATCH])
            added, skipped = added + a, skipped + s
        return added, skipped

    def _merge_games(self, games: list[tuple[GameRow, list[DecisionRow]]]) -> tuple[int, int]:
        added = skipped = 0
        i = 0
        while i < len(games):
            began = time.monotonic()
            with self.transaction():
                while i < len(games) and time.monotonic() - began < MERGE_BATCH_S:
                    game, decisions = games[i]
                    i += 1
                    if self.conn.execute("SELECT 1 FROM games WHERE id = ?", (game.id,)).fetchone():
                        skipped += 1
                        continue
                    self._insert(game, decisions)
                    added += 1
        return added, skipped

    # --- games saved move by move (people's games) -----------------------------------------

    def start_game(self, game: GameRow) -> None:
        """Insert a game as ``in_progress`` with no decisions yet."""
        game.status = IN_PROGRESS
        self.save_game(game, [])

    def save_move(self, game_id: str, decisions: list[DecisionRow], record: dict[str, Any],
                  turns: int, moves: int) -> None:
        """After a move: its decision rows and the record so far, in one transaction."""
        self._write(self._save_move, game_id, decisions, record, turns, moves)

    def _save_move(self, game_id: str, decisions: list[DecisionRow], record: dict[str, Any],
                   turns: int, moves: int) -> None:
        with self.transaction():
            self._insert_decisions(game_id, decisions, replace=True)
            self.conn.execute("UPDATE games SET record_json = ?, turns = ?, moves = ? WHERE id = ?",
                              (to_json(record), turns, moves, game_id))
            if budget_cuts(decisions):
                self.conn.execute(
                    f"UPDATE games SET game_params = json_set(game_params, '$.{BUDGET_CUT}', (SELECT count(*) FROM"
                    f" decisions WHERE game_id = ?1 AND json_extract(info_json, '$.{BUDGET_CUT}') = 1)) WHERE id = ?1",
                    (game_id,))

    def finish_game(self, game_id: str, fields: dict[str, Any]) -> None:
        """Close a game saved move by move: status, winner, reason, turns, moves, error, record."""
        self._write(self._finish_game, game_id, fields)

    def _finish_game(self, game_id: str, fields: dict[str, Any]) -> None:
        with self.transaction():
            self.conn.execute(
                "UPDATE games SET status = ?, winner = ?, score = ?, result = ?, reason = ?, turns = ?, moves = ?,"
                " error = ?, record_json = ?, finished_at = ? WHERE id = ?",
                (fields["status"], fields["winner"], fields.get("score"), fields.get("result"), fields["reason"],
                 fields["turns"], fields["moves"], fields["error"], to_json(fields["record"]), now(), game_id))
            self.conn.executemany("UPDATE seats SET score = ? WHERE game_id = ? AND seat = ?",
                                  [(score, game_id, seat) for seat, score in enumerate(fields.get("seat_scores", ()))])

    def mark_abandoned(self, game_ids: list[str]) -> None:
        self._write(self._mark_abandoned, game_ids)

    def _mark_abandoned(self, game_ids: list[str]) -> None:
        with self.transaction():
            self.conn.executemany("UPDATE games SET status = ?, finished_at = ? WHERE id = ? AND status = ?",
                                  [(ABANDONED, now(), gid, IN_PROGRESS) for gid in game_ids])

    def _write(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except sqlite3.OperationalError as exc:
            raise StoreError(locales.load().t("store.write_failed", path=str(self.path), reason=str(exc))) from None

    _GAME_COLUMNS = ("id, run_id, agent, opponent, lang, game_index, seed, agent_seat, game, game_params, pack_id,"
                     " pack_hash, status, winner, score, result, reason, turns, moves, error, attempts, record_json,"
                     " started_at, finished_at, (SELECT json_group_array(json_array(s.agent, s.score)) FROM"
                     " (SELECT agent, score FROM seats WHERE seats.game_id = games.id ORDER BY seat) s)")

    def _game(self, row: tuple) -> GameRow:
        (gid, run_id, agent, opponent, lang, index, seed, seat, game, params, pack_id, pack_hash, status, winner,
         score, result, reason, turns, moves, error, attempts, record, started, finished, seats) = row
        seated = json.loads(seats) if seats else []
        return GameRow(agent=agent, opponent=opponent, lang=lang, game_index=index, seed=seed, agent_seat=seat,
                       game=game, game_params=json.loads(params), pack_id=pack_id, pack_hash=pack_hash,
                       status=status, record=json.loads(record), started_at=started, run_id=run_id, winner=winner,
                       score=score, result=result, reason=reason, turns=turns, moves=moves, error=error,
                       finished_at=finished, attempts=attempts, id=gid,
                       seat_specs=tuple(s[0] for s in seated), seat_scores=tuple(s[1] for s in seated))

    def games(self, where: str = "", params: tuple = ()) -> list[GameRow]:
        """Games matching an SQL condition on the games table, oldest first."""
        sql = f"SELECT {self._GAME_COLUMNS} FROM games {('WHERE ' + where) if where else ''} ORDER BY started_at, id"
        return [self._game(r) for r in self.conn.execute(sql, params)]

    def decisions(self, game_id: str) -> list[DecisionRow]:
        return [DecisionRow(idx, turn, seat, agent, move, kind, seconds, json.loads(info))
                for idx, turn, seat, agent, move, kind, seconds, info in self.conn.execute(
                    "SELECT idx, turn, seat, agent, move, kind, seconds, info_json FROM decisions"
                    " WHERE game_id = ? ORDER BY idx", (game_id,))]

    def cell_games(self, run_id: int) -> list[tuple[str, str, str, int, str, int | None, int, float | None,
                                                    str | None]]:
        """(agent, opponent, lang, game_index, status, winner, agent_seat, score, reason) of every game of a run."""
        return self.conn.execute(
            "SELECT agent, opponent, lang, game_index, status, winner, agent_seat, score, reason FROM games"
            " WHERE run_id = ?", (run_id,)).fetchall()


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
