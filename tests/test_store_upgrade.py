"""A v1 store (written with the v1 layout by raw SQL) upgrades in place to v2, and the
card game's report on it is byte-identical to the golden files the v1 code printed."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import uuid
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.store import FINISHED, Store
from tcgtui.store.schema import V1, LATEST
from tests.report_fixture import FORMATS, argv, golden_name, populate, same_report
from tests.store_helpers import add_game

GOLDEN = Path(__file__).parent / "golden"


class V1Store:
    """Just enough of a store to run ``populate`` against the v1 layout with raw SQL."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def create_run(self, name: str, config: dict) -> object:
        cur = self.conn.execute("INSERT INTO runs (name, kind, config_json, created_at, updated_at) "
                                "VALUES (?, 'bench', ?, 't', 't')", (name, json.dumps(config)))
        return type("R", (), {"id": cur.lastrowid})()


def add_game_v1(store: V1Store, run_id: int | None, agent: str, opponent: str, lang: str, index: int, *,
                result: str | None = None, turns: int = 10, moves: list = (), status: str = FINISHED,
                seat: int | None = None) -> None:
    """tests.store_helpers.add_game, written with the v1 columns (seat0/seat1, card_type)."""
    seat = index % 2 if seat is None else seat
    winner = {"win": seat, "loss": 1 - seat, "draw": None, None: None}[result]
    gid = str(uuid.uuid4())
    seat0, seat1 = (agent, opponent) if seat == 0 else (opponent, agent)
    store.conn.execute(
        "INSERT INTO games (id, run_id, agent, opponent, lang, game_index, seed, agent_seat, seat0, seat1, game,"
        " pack_id, pack_hash, status, winner, reason, turns, moves, error, attempts, record_json, started_at,"
        " finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,'tcg','test',?,?,?,?,?,?,?,1,?,?,NULL)",
        (gid, run_id, agent, opponent, lang, index, 1000 + index, seat, seat0, seat1, "0" * 64, status,
         winner if status == FINISHED else None, "lp" if status == FINISHED else None, turns, len(moves),
         "boom" if status != FINISHED else None,
         json.dumps({"game": "tcg", "seed": 1000 + index, "moves": [m[0] for m in moves]}),
         "2026-01-01T00:00:00+00:00"))
    for i, (card, ctype, seconds, tokens, extra) in enumerate(moves):
        info = dict(extra)
        if tokens is not None:
            info.update(prompt_tokens=tokens - tokens // 4, completion_tokens=tokens // 4)
        store.conn.execute("INSERT INTO decisions VALUES (?,?,?,?,?,?,?,?,?)",
                           (gid, 2 * i, 2 * i + 1, seat, agent, card, ctype, seconds, json.dumps(info)))
        store.conn.execute("INSERT INTO decisions VALUES (?,?,?,?,?,?,?,?,?)",
                           (gid, 2 * i + 1, 2 * i + 2, 1 - seat, opponent, "x", "spell", 99.0,
                            json.dumps({"prompt_tokens": 9999, "parse_path": "none"})))


def _v1_store(path: Path) -> tuple[int, int]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    conn.executescript(V1)
    conn.execute("INSERT INTO schema_version VALUES (1, 't')")
    conn.execute("BEGIN")
    populate(V1Store(conn), add_game_v1)
    conn.execute("COMMIT")
    counts = (conn.execute("SELECT count(*) FROM games").fetchone()[0],
              conn.execute("SELECT count(*) FROM decisions").fetchone()[0])
    conn.close()
    return counts


def _report(db: Path, fmt: str, section: str | None) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["report", "--db", str(db)] + argv(fmt, section)) == 0
    return buf.getvalue().replace(str(db), "DB")


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[int, int]]:
    path = tmp_path_factory.mktemp("v1") / "old.sqlite3"
    counts = _v1_store(path)
    with Store(path) as store:
        assert store.version == LATEST
    return path, counts


def test_a_v1_store_upgrades_in_place_keeping_every_game_and_decision(upgraded) -> None:
    path, (games, decisions) = upgraded
    with Store(path) as store:
        conn = store.conn
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == games
        assert conn.execute("SELECT count(*) FROM decisions").fetchone()[0] == decisions
        assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 2 * games
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        assert {"game_params", "score", "result"} <= cols and not {"seat0", "seat1"} & cols
        assert {r[1] for r in conn.execute("PRAGMA table_info(decisions)")} >= {"kind"}
        row = store.games("agent = 'B' AND game_index = 1")[0]
        assert row.game_params == {"pack": "test", "pack_hash": "0" * 64}
        assert row.seats == ("random", "B") and row.agent_seat == 1
        kinds = [d.kind for d in store.decisions(row.id)]
        assert kinds == ["champion", "spell", "champion", "spell", "trick", "spell"]
        # the foreign keys still cascade after the rebuild
        conn.execute("DELETE FROM games WHERE id = ?", (row.id,))
        assert conn.execute("SELECT count(*) FROM decisions WHERE game_id = ?", (row.id,)).fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM seats WHERE game_id = ?", (row.id,)).fetchone()[0] == 0


@pytest.mark.parametrize("fmt, section", FORMATS)
def test_the_card_game_report_is_unchanged_by_the_upgrade(tmp_path_factory, fmt: str, section: str | None) -> None:
    path = tmp_path_factory.mktemp("v1r") / "old.sqlite3"
    _v1_store(path)
    golden = (GOLDEN / golden_name(fmt, section)).read_text(encoding="utf-8")
    assert same_report(_report(path, fmt, section), golden)


@pytest.mark.parametrize("fmt, section", FORMATS)
def test_the_same_games_through_the_v2_api_report_the_same(tmp_path: Path, fmt: str, section: str | None) -> None:
    path = tmp_path / "new.sqlite3"
    with Store(path) as store:
        populate(store, add_game)
    assert same_report(_report(path, fmt, section), (GOLDEN / golden_name(fmt, section)).read_text(encoding="utf-8"))


def test_a_failed_upgrade_leaves_v1_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tcgtui.store import schema
    from tcgtui.store import db as dbmod
    path = tmp_path / "old.sqlite3"
    games, _ = _v1_store(path)
    monkeypatch.setattr(dbmod, "MIGRATIONS", (schema.V1, schema.V2 + "\nSELECT no_such_function();"))
    monkeypatch.setattr(dbmod, "LATEST", 2)
    with pytest.raises(Exception):
        Store(path)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM games WHERE seat0 IS NOT NULL").fetchone()[0] == games
