"""Schema version 5 on old stores: invalid attempts recounted, budget-cut games marked, and games
stored before their parameters were recorded keyed as the parameters' defaults."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.match import run_match
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.store import Store, db as store_db
from tcgtui.store.rows import decision_rows, game_row
from tcgtui.store.schema import LATEST, V1
from tcgtui.upstream import load
from tests.eleusis.test_seed_prompt import RULE, checkout
from tests.llm_support import llm_agent
from tests.store_helpers import add_game
from tests.test_store_upgrade import V1Store, add_game_v1


def _facts(store: Store, game_id: str) -> tuple[int, int]:
    return store.conn.execute("SELECT invalid_attempts, invalid FROM decision_facts WHERE game_id = ?",
                              (game_id,)).fetchone()


def _win_rates(db: Path, capsys: pytest.CaptureFixture) -> dict[str, int]:
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--format", "csv"]) == 0
    return {r["agent"]: int(r["games"]) for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}


def test_an_eleusis_seed_game_counts_each_of_its_three_invalid_replies(tmp_path: Path) -> None:
    """The seed's player asks three times, then plays the seed's random card: three invalid replies
    a decision, none of them a move the rules saw."""
    game = registry.get("eleusis").game({"rule": RULE, "protocol": "seed", "guess_format": "code",
                                         "upstream": load("--upstream", str(checkout(tmp_path / "seed")))})
    decisions = []

    async def play():
        agent = llm_agent(server)
        try:
            return await run_match(game, 5, (agent,), on_decision=decisions.append)
        finally:
            await agent.aclose()

    with ChatServer(script=[Reply("no action")] * 120) as server:
        result = asyncio.run(play())
    assert result.status == "finished" and decisions
    assert all(d.info["invalid"] == 3 and d.info["fallback"] == "random" for d in decisions)
    with Store(tmp_path / "e.sqlite3") as store:
        row = game_row(result, game=game, agent="llm:fake-model", opponent="", lang="en", game_index=0,
                       agent_seat=0, run_id=None, started_at="t", finished_at="t")
        store.save_game(row, decision_rows(decisions, row.seats, game))
        assert _facts(store, row.id) == (3 * len(decisions), len(decisions))


def test_version_5_recounts_invalid_replies_and_marks_budget_cut_games_in_a_version_4_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "v4.sqlite3"
    with monkeypatch.context() as m:
        m.setattr(store_db, "LATEST", 4)
        with Store(path) as store:
            assert store.version == 4
            run = store.create_run("r", {}).id
            retried = add_game(store, run, "A", "random", "en", 0, result="win",
                               moves=[("c1", "champion", 0.5, None, {"invalid": 2, "parse_path": "tags"}),
                                      ("c2", "spell", 0.5, None, {"invalid": True, "parse_path": "tags"})])
            counted = add_game(store, run, "A", "random", "en", 1, result="loss",
                               moves=[("!format", None, 0.5, None, {"invalid": 1, "parse_path": "none"}),
                                      ("c1", "champion", 0.5, None, {})])
            cut = add_game(store, None, "A", "mc:10", "en", 0, result="win",
                           moves=[("c1", "champion", 0.5, None, {})])
            # the opponent's search, cut short by the TUI's budget, as version 4 stored it
            store.conn.execute("UPDATE decisions SET info_json = json_set(info_json, '$.budget_cut', json('true'))"
                               " WHERE game_id = ? AND seat != ?", (cut.id, cut.agent_seat))
            # what version 4's code wrote: only the `!kind` moves counted, no budget_cut among the parameters
            store.conn.execute("UPDATE decision_facts SET invalid_attempts = CASE game_id WHEN ? THEN 1 ELSE 0 END",
                               (counted.id,))
            store.conn.execute("UPDATE games SET game_params = json_remove(game_params, '$.budget_cut')")
    with Store(path) as store:
        assert store.version == LATEST >= 5
        assert _facts(store, retried.id) == (3, 2) and _facts(store, counted.id) == (1, 1)
        params = {g.id: g.game_params for g in store.games()}
        assert params[cut.id]["budget_cut"] == 1
        assert "budget_cut" not in params[retried.id] and "budget_cut" not in params[counted.id]
    assert _win_rates(path, capsys) == {"A [budget_cut=no]": 2, "A [budget_cut=yes]": 1}


def test_games_of_a_v1_store_are_keyed_as_the_parameters_defaults(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    """A v1 card game recorded its pack and nothing else: it pools with a game that says the
    defaults aloud, and stands apart from one played with another value."""
    path = tmp_path / "v1.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
    conn.executescript(V1)
    conn.execute("INSERT INTO schema_version VALUES (1, 't')")
    old = V1Store(conn)
    run = old.create_run("old", {}).id
    for i in range(3):
        add_game_v1(old, run, "A", "random", "en", i, result="win")
    conn.close()
    with Store(path) as store:
        run = store.create_run("new", {}).id
        said = add_game(store, run, "A", "random", "en", 0, result="loss")
        other = add_game(store, run, "A", "random", "en", 1, result="loss")
        loop = registry.get("tcg").info.param("seed_loop")
        store.conn.execute("UPDATE games SET game_params = json_set(game_params, '$.protocol', 'tcgtui',"
                           " '$.seed_loop', ?) WHERE id = ?", (loop.default, said.id))
        store.conn.execute("UPDATE games SET game_params = json_set(game_params, '$.seed_loop', 'other')"
                           " WHERE id = ?", (other.id,))
    assert _win_rates(path, capsys) == {f"A [seed_loop={loop.default}]": 4, "A [seed_loop=other]": 1}
