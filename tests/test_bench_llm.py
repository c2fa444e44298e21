"""``tcgtui bench`` with ``llm:`` players against a real local OpenAI-compatible server."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui.opponents.llm.testserver import ChatServer, Fault
from tcgtui.cli import main


def _bench(db: Path, url: str, *extra: str) -> int:
    return main(["bench", "--agent", "llm:fake", "--vs", "random", "--games", "4", "--db", str(db),
                 "--base-url", url, "--max-retries", "0", "--concurrency", "2", *extra])


def test_llm_decisions_are_stored_without_prompts_unless_asked(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "llm.sqlite3"
    with ChatServer() as server:
        assert _bench(db, server.base_url) == 0
        assert _bench(db, server.base_url, "--lang", "ar", "--log-prompts") == 0
    capsys.readouterr()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT g.lang, d.info_json FROM decisions d JOIN games g ON g.id = d.game_id "
                            "WHERE d.agent = 'llm:fake'").fetchall()
        config = json.loads(conn.execute("SELECT config_json FROM runs").fetchone()[0])
    plain = [json.loads(info) for lang, info in rows if lang == "en"]
    logged = [json.loads(info) for lang, info in rows if lang == "ar"]
    assert plain and logged
    assert all("messages" not in i and i["attempts"][0]["reply"] for i in plain)    # replies always kept
    assert all(i["prompt_version"].startswith("v") and i["parse_path"] == "tags" for i in plain)
    assert all(i["messages"] and i["attempts"][0]["reply"] for i in logged)
    versions = {lang: d["prompt_version"] for lang, d in config["players"]["llm:fake"].items()}
    assert set(versions) == {"en", "ar"} and versions["en"] != versions["ar"]
    assert main(["report", "--db", str(db), "--format", "json", "--table", "llm"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["llm"]
    assert row["agent"] == "llm:fake" and row["parse_tags"] == 1.0 and row["invalid"] == 0


def test_an_endpoint_that_is_down_errors_games_and_retry_errored_plays_them(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "down.sqlite3"
    with ChatServer(faults=lambda i, r: Fault.http(503)) as server:
        assert _bench(db, server.base_url) == 0
    assert "4 games errored; rerun with --retry-errored" in capsys.readouterr().err
    with ChatServer() as server:
        assert _bench(db, server.base_url) == 0                       # errored games wait for the flag
        assert len(server.requests) == 0
        assert _bench(db, server.base_url, "--retry-errored") == 0
        assert len(server.requests) > 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT status, attempts, count(*) FROM games GROUP BY 1, 2").fetchall() == [
            ("finished", 2, 4)]


def test_a_sweep_against_a_dead_endpoint_stops_early(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "dead.sqlite3"
    with ChatServer(faults=lambda i, r: Fault.http(503)) as server:
        rc = main(["bench", "--agent", "llm:fake", "--vs", "random", "--games", "40", "--db", str(db),
                   "--base-url", server.base_url, "--max-retries", "0", "--concurrency", "1"])
    err = capsys.readouterr().err
    assert rc == 1 and "stopped: the last 10 games all errored" in err and "503" in err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 10


def test_an_llm_player_without_an_endpoint_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("TCGTUI_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    assert main(["bench", "--agent", "llm:m", "--vs", "random", "--db", str(tmp_path / "x.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--base-url" in err


def test_a_grid_round_robin_with_a_model_is_benched_rated_and_exported_in_the_seed_shape(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The arena's promise end to end: a model in a Connect Four round-robin over real HTTP, the
    results matrix and ratings in the report, and the seed benchmark's per-game JSON."""
    from tcgtui.opponents.llm.testserver import game_policy
    db = tmp_path / "grid.sqlite3"
    with ChatServer(policy=game_policy("connect4")) as server:
        assert main(["bench", "--game", "connect4", "--agent", "llm:fake", "--agent", "random", "--agent", "mc:5",
                     "--round-robin", "--games", "4", "--prompt-style", "illustration", "--db", str(db),
                     "--base-url", server.base_url, "--concurrency", "2"]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "connect4", "--db", str(db), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {r["agent"] for r in report["ratings"]} == {"llm:fake", "random", "mc:5"}
    assert all(r["ci_low"] <= r["rating"] <= r["ci_high"] for r in report["ratings"])
    assert len(report["matrix"]) == 6
    out = tmp_path / "seed-files"
    checkout = Path(__file__).parent / "grid" / "seed_checkout"
    assert main(["report", "--game", "connect4", "--db", str(db), "--format", "seed", "--out", str(out),
                 "--upstream", str(checkout)]) == 0
    assert "12 games written as" in capsys.readouterr().err
    games = [json.loads(p.read_text()) for p in out.glob("*.json") if not p.name.endswith("_submission.json")]
    assert len(games) == 12 and {g["Result"] for g in games} <= {
        "winner1st", "winner2nd", "draw", "disqualified1st", "disqualified2nd", "Cancelled"}
    with_model = [g for g in games if "llm:fake" in (g["Player1"], g["Player2"])]
    assert with_model and all(g["PromptType"] == "illustration" and g["PromptVersion"].startswith("grid-v1-en-")
                              for g in with_model)
    assert len(list(out.glob("*_submission.json"))) == 6 and len(list(out.glob("*.png"))) == 12
