"""The SQLite store: schema and migrations, atomic game commits, uniqueness, locations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tcgtui.store import (ERRORED, EXISTS, FINISHED, REPLACED, DecisionRow, GameRow, Store, StoreError,
                          default_path, open_store)
from tcgtui.store.schema import LATEST
from tests.store_helpers import add_game


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(tmp_path / "t.sqlite3") as s:
        yield s


def _count(store: Store, table: str) -> int:
    return store.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_fresh_store_is_at_latest_schema_in_wal_with_foreign_keys(store: Store) -> None:
    assert store.version == LATEST
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"schema_version", "runs", "games", "decisions"} <= tables


def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    Store(path).close()
    with Store(path) as s:
        assert [r[0] for r in s.conn.execute("SELECT version FROM schema_version")] == list(range(1, LATEST + 1))


def test_a_store_from_a_newer_tcgtui_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with Store(path) as s:
        s.conn.execute("INSERT INTO schema_version VALUES (?, 'later')", (LATEST + 1,))
    with pytest.raises(StoreError, match="newer tcgtui"):
        Store(path)


def test_a_file_that_is_not_sqlite_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello, this is not a database" * 100)
    with pytest.raises(StoreError, match="not a usable tcgtui database"):
        Store(path)


def test_a_game_and_its_decisions_commit_together(store: Store) -> None:
    run = store.create_run("r", {})
    row = add_game(store, run.id, "random", "random", "en", 0, result="win",
                   moves=[("a", "champion", 0.1, None, {}), ("b", "spell", 0.1, None, {})])
    assert _count(store, "games") == 1
    assert _count(store, "decisions") == 4
    stored = store.conn.execute("SELECT status, winner, agent_seat FROM games WHERE id = ?", (row.id,)).fetchone()
    assert stored == (FINISHED, 0, 0)
    assert store.conn.execute("SELECT seat, agent FROM seats WHERE game_id = ? ORDER BY seat",
                              (row.id,)).fetchall() == [(0, "random"), (1, "random")]


def test_a_failure_midway_leaves_no_trace_of_the_game(store: Store) -> None:
    run = store.create_run("r", {})
    row = GameRow(agent="a", opponent="b", lang="en", game_index=1, seed=1, agent_seat=1, game="tcg",
                  pack_id="p", pack_hash="h", status=FINISHED, record={}, started_at="t", run_id=run.id)
    clash = [DecisionRow(0, 1, 0, "a", "x", None, 0.1), DecisionRow(0, 1, 0, "a", "y", None, 0.1)]
    with pytest.raises(sqlite3.IntegrityError):
        store.save_game(row, clash)          # the second decision repeats the first one's index
    assert store.conn.execute("SELECT count(*) FROM games WHERE game_index = 1").fetchone()[0] == 0
    assert _count(store, "decisions") == 0
    assert not store.conn.in_transaction


def test_the_same_game_is_never_stored_twice(store: Store) -> None:
    run = store.create_run("r", {})
    add_game(store, run.id, "a", "b", "en", 3, result="win")
    again = add_game(store, run.id, "a", "b", "en", 3, result="loss")
    assert _count(store, "games") == 1
    assert store.conn.execute("SELECT winner FROM games").fetchone()[0] == 1  # the first one stays
    assert store.save_game(again, []) == EXISTS
    with pytest.raises(sqlite3.IntegrityError):       # the constraint itself, not only the check
        store.conn.execute("INSERT INTO games SELECT ? || id, run_id, agent, opponent, lang, game_index, seed,"
                           " agent_seat, game, game_params, pack_id, pack_hash, status, winner, score, result,"
                           " reason, turns, moves, error, attempts, record_json, started_at, finished_at FROM games", ("x",))


def test_an_errored_game_is_replaced_only_when_asked(store: Store) -> None:
    run = store.create_run("r", {})
    first = add_game(store, run.id, "a", "b", "en", 0, status=ERRORED,
                     moves=[("a", "champion", 0.1, None, {})])
    retry = add_game(store, run.id, "a", "b", "en", 0, result="win")
    assert store.save_game(retry, []) == EXISTS
    assert store.save_game(retry, [DecisionRow(0, 1, 0, "a", "z", "trick", 0.2)], replace_errored=True) == REPLACED
    rows = store.conn.execute("SELECT id, status, attempts FROM games").fetchall()
    assert rows == [(retry.id, FINISHED, 2)]
    assert store.conn.execute("SELECT count(*) FROM decisions WHERE game_id = ?", (first.id,)).fetchone()[0] == 0
    assert store.save_game(retry, [], replace_errored=True) == EXISTS      # a finished game is never replaced


def test_games_outside_any_run_keep_room_for_human_play(store: Store) -> None:
    first = add_game(store, None, "human:ann", "mc:1", "en", 0, result="win")
    second = add_game(store, None, "human:ann", "mc:1", "en", 0, status="in_progress")
    assert first.id != second.id and _count(store, "games") == 2


def test_deleting_a_run_deletes_its_games_and_decisions(store: Store) -> None:
    run = store.create_run("r", {})
    add_game(store, run.id, "a", "b", "en", 0, result="win", moves=[("a", "champion", 0.1, None, {})])
    store.conn.execute("DELETE FROM runs WHERE id = ?", (run.id,))
    assert (_count(store, "games"), _count(store, "decisions")) == (0, 0)


def test_where_the_store_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TCGTUI_DB", str(tmp_path / "env.sqlite3"))
    with open_store(str(tmp_path / "flag.sqlite3"), create=True) as s:
        assert s.path.name == "flag.sqlite3"
    with open_store(None, create=True) as s:
        assert s.path.name == "env.sqlite3"
    monkeypatch.delenv("TCGTUI_DB")
    assert default_path().name == "tcgtui.sqlite3"
    with pytest.raises(StoreError, match="does not exist"):
        open_store(str(tmp_path / "nowhere" / "t.sqlite3"), create=True)
    with pytest.raises(StoreError, match="no database at"):
        open_store(str(tmp_path / "absent.sqlite3"), create=False)
    assert not (tmp_path / "absent.sqlite3").exists()
    with pytest.raises(StoreError, match="is a directory"):
        open_store(str(tmp_path), create=True)


def test_status_values_are_checked(store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        add_game(store, None, "a", "b", "en", 0, status="won")


def test_a_store_that_cannot_be_written_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with Store(path) as writer, Store(path) as other:
        run = writer.create_run("r", {})
        other.conn.execute("PRAGMA busy_timeout = 0")
        writer.conn.execute("BEGIN IMMEDIATE")            # another writer holds the lock
        with pytest.raises(StoreError, match="could not save a game"):
            add_game(other, run.id, "a", "b", "en", 0, result="win")
        writer.conn.execute("ROLLBACK")
        assert other.conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0
