"""The per-game decision facts the report reads (schema v4): what they count, that every way a
game's decisions are written keeps them, that an upgrade fills them the same way, and that the
report reads the store without writing it."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
import struct
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.store import FINISHED, DecisionRow, GameRow, Store
from tcgtui.store import facts
from tcgtui.store.schema import LATEST
from tests.store_helpers import add_game

T = {"parse_path": "tags"}
# (card, type, seconds, tokens, info): an invalid attempt, a forfeit, one with no kind, string counts.
MOVES = [("c1", "champion", 1.5, 100, T), ("!format", None, 0.25, None, {"parse_path": "none", "invalid": True}),
         ("c1", "champion", 2.0, 40, {"parse_path": "last_name", "fallback": "random", "tokens_estimated": True}),
         ("", None, 3.0, None, {"fallback": "forfeit"}), ("c2", "spell", 0.5, None, {"prompt_tokens": "12"})]


def _facts(store: Store, game_id: str) -> dict:
    row = store.conn.execute(f"SELECT {', '.join(facts.COLUMNS)} FROM decision_facts WHERE game_id = ?",
                             (game_id,)).fetchone()
    return dict(zip(facts.COLUMNS, row))


def _floats(blob: bytes) -> list[float]:
    return list(struct.unpack(f"<{len(blob) // 8}d", blob))


def test_a_games_facts_count_its_measured_players_decisions(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite3") as store:
        game = add_game(store, None, "llm:a", "mc:1", "en", 1, result="loss", moves=MOVES)
        f = _facts(store, game.id)
    assert (f["decisions"], f["invalid_attempts"], f["tokens_estimated"]) == (5, 1, 1)
    # among the decisions with a parse path (3): their paths, invalid replies and fallbacks
    assert (f["reported"], f["invalid"]) == (3, 1)
    assert f["parse_paths"] == '{"last_name": 1, "none": 1, "tags": 1}'      # whatever paths the prompter reports
    assert (f["fallback_random"], f["fallback_forfeit"]) == (1, 0)
    assert f["kinds"] == '{"champion": 2, "spell": 1}'
    assert f["card_kinds"] == '[null, "champion", "spell"]' and f["distinct_cards"] == 3   # c1, !format, c2
    assert _floats(f["seconds"]) == [1.5, 0.25, 2.0, 3.0, 0.5]
    tokens = _floats(f["tokens"])
    assert tokens[0] == 100 and tokens[2] == 40 and tokens[4] == 12 and math.isnan(tokens[1]) and math.isnan(tokens[3])


def test_facts_follow_a_game_saved_move_by_move_and_a_replaced_game(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite3") as store:
        game = GameRow(agent="human:ann", opponent="random", lang="en", game_index=0, seed=1, agent_seat=0,
                       game="tcg", status=FINISHED, record={}, started_at="t")
        store.start_game(game)
        assert _facts(store, game.id)["decisions"] == 0
        store.save_move(game.id, [DecisionRow(0, 1, 0, "human:ann", "c1", "trick", 2.0, {})], {}, 1, 1)
        store.save_move(game.id, [DecisionRow(1, 1, 1, "random", "c2", "spell", 9.0, {})], {}, 1, 2)
        store.save_move(game.id, [DecisionRow(2, 2, 0, "human:ann", "c3", "spell", 4.0, {})], {}, 2, 3)
        f = _facts(store, game.id)
        assert f["decisions"] == 2 and _floats(f["seconds"]) == [2.0, 4.0] and f["kinds"] == '{"spell": 1, "trick": 1}'
        store.conn.execute("DELETE FROM games WHERE id = ?", (game.id,))
        assert store.conn.execute("SELECT count(*) FROM decision_facts").fetchone() == (0,)


def test_an_upgrade_fills_the_facts_as_writing_the_games_does(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        run = store.create_run("r", {}).id
        ids = [add_game(store, run, "llm:a", "mc:1", "en", i, result="win", moves=MOVES[i:]).id for i in range(4)]
        ids.append(add_game(store, run, "llm:a", "mc:1", "en", 4, status="errored").id)
        written = {gid: _facts(store, gid) for gid in ids}
    with sqlite3.connect(path) as conn:           # back to version 3, as a store from before
        conn.execute("DROP TABLE decision_facts")
        conn.execute("DELETE FROM schema_version WHERE version >= 4")
    with Store(path) as store:
        assert store.version == LATEST
        assert {gid: _facts(store, gid) for gid in ids} == written


def _report(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["report", "--db", str(path), "--format", "md"]) == 0
    return capsys.readouterr().out


def test_the_report_reads_without_writing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        run = store.create_run("r", {}).id
        for i in range(8):
            add_game(store, run, "llm:a", "mc:1", "en", i, result=("win", "loss")[i % 2], moves=MOVES[i % 3:])
    expected = _report(path, capsys)
    assert "llm:a" in expected
    # a writer holds the store's write lock: the report neither waits for it nor takes it
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        assert _report(path, capsys) == expected
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    # a copy whose file cannot be written: read as it is, left byte for byte as it was
    copy = tmp_path / "ro" / "s.sqlite3"
    copy.parent.mkdir()
    shutil.copyfile(path, copy)
    copy.chmod(0o444)
    before = copy.read_bytes()
    assert _report(copy, capsys).replace(str(copy), str(path)) == expected
    assert copy.read_bytes() == before


def test_the_report_upgrades_an_older_store_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        add_game(store, store.create_run("r", {}).id, "llm:a", "mc:1", "en", 0, result="win", moves=MOVES)
    expected = _report(path, capsys)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE decision_facts")
        conn.execute("DELETE FROM schema_version WHERE version >= 4")
    assert _report(path, capsys) == expected
    with Store(path) as store:
        assert store.version == LATEST


def test_the_report_reads_the_counts_the_store_keeps() -> None:
    from tcgtui.engine.decision_facts import DecisionFacts
    from tcgtui.store import queries
    assert set(DecisionFacts.COUNTS) == set(queries.FACT_COUNTS)


def test_analyses_of_some_of_the_games_read_their_own_facts(tmp_path: Path) -> None:
    from tcgtui.report import analyses
    from tcgtui.report.data import load_games
    with Store(tmp_path / "s.sqlite3") as store:
        run = store.create_run("r", {}).id
        for i in range(6):
            add_game(store, run, "llm:a", "mc:1", "en", i, result="loss", moves=MOVES[i % 4:])
            add_game(store, run, "llm:b", "mc:1", "en", i, result="win", moves=MOVES[: 1 + i % 4])
        games = load_games(store, None)
    every = {(r["agent"], r["lang"]): r for r in analyses.decisions(games)}
    for agent in ("llm:a", "llm:b"):
        some = [g for g in games if g.agent == agent]
        assert analyses.decisions(some) == [every[(agent, "en")]]
        assert analyses.llm_rates(some) == [r for r in analyses.llm_rates(games) if r["agent"] == agent]
    assert every[("llm:b", "en")]["decisions"] == sum(1 + i % 4 for i in range(6))


def test_a_whole_games_facts_equal_those_read_back_from_its_decisions(tmp_path: Path) -> None:
    odd = [{"prompt_tokens": 5, "completion_tokens": 2.5, "tokens_estimated": False, "invalid": False},
           {"parse_path": {"nested": [1]}, "fallback": ["x"], "invalid": "yes"},
           {"prompt_tokens": "many", "parse_path": True}, {"completion_tokens": 7, "parse_path": "tags"}]
    with Store(tmp_path / "s.sqlite3") as store:
        game = GameRow(agent="a", opponent="b", lang="en", game_index=0, seed=1, agent_seat=1, game="tcg",
                       status=FINISHED, record={}, started_at="t")
        # written out of order, both seats: the facts are the measured seat's, in move order
        rows = [DecisionRow(i, i, i % 2, "a", f"m{i}", "spell", 0.5 + i, info) for i, info in enumerate(odd)]
        store.save_game(game, rows[::-1])
        written = _facts(store, game.id)
        facts.refresh(store.conn, game.id)
        assert _facts(store, game.id) == written
    assert written["decisions"] == 2 and _floats(written["seconds"]) == [1.5, 3.5]
    assert written["reported"] == 2 and json.loads(written["parse_paths"]).get("tags") == 1 and written["invalid"] == 1
    assert _floats(written["tokens"])[1] == 7


def test_the_report_refuses_a_newer_store_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 't')")
    assert main(["report", "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "99" in err and str(path) in err
