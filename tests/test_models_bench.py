"""Registry entries in benches and reports, against real local OpenAI-compatible servers: a round
robin mixing endpoints and settings, tokens and cost in the report, ``--budget`` stop and resume,
the entries' request limits, and ``tcgtui models`` against a live and a dead endpoint."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.opponents.llm.testserver import ChatServer
from tests.test_light_start import _loaded

KEY = "sk-test-9f8e7d6c5b4a"


def _registry(path: Path, a: ChatServer, b: ChatServer, extra: str = "") -> Path:
    path.write_text(f"""
[streamed]
base_url = "{a.base_url}"
model = "fake"
stream = true
prices = {{ input = 1.0, output = 3.0 }}
facts = {{ family = "Fake", organisation = "tcgtui", parameters = 0.1, weights = "open" }}

[unstreamed]
base_url = "{b.base_url}"
model = "other"
api_key_env = "TCGTUI_TEST_KEY"
prices = {{ input = 0.5, output = 2.0, reasoning = 4.0 }}

[warm]
base_url = "{b.base_url}"
model = "shared"
temperature = 0.9

[cold]
base_url = "{b.base_url}"
model = "shared"
temperature = 0.0
{extra}""")
    return path


def _report(db: Path, capsys: pytest.CaptureFixture, *extra: str) -> dict:
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_round_robin_of_entries_on_two_endpoints_gives_a_row_each_with_tokens_and_cost(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TCGTUI_TEST_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-sent")
    db = tmp_path / "rr.sqlite3"
    with ChatServer() as a, ChatServer() as b:
        models = _registry(tmp_path / "models.toml", a, b)
        rc = main(["bench", "--models", str(models), "--agent", "llm:streamed", "--agent", "llm:unstreamed",
                   "--agent", "llm:warm", "--agent", "llm:cold", "--round-robin", "--games", "2",
                   "--db", str(db), "--max-retries", "0", "--concurrency", "4"])
        assert rc == 0
    assert a.requests and all(r.json["stream"] is True and r.json["model"] == "fake" for r in a.requests)
    assert b.requests and all("stream" not in r.json for r in b.requests)
    assert {r.json["model"] for r in b.requests} == {"other", "shared"}
    for r in a.requests + b.requests:     # each entry its own key: only the one that names a variable
        assert r.headers.get("authorization") == (f"Bearer {KEY}" if r.json["model"] == "other" else None)
    temps = {r.json.get("temperature") for r in b.requests if r.json["model"] == "shared"}
    assert temps == {0.9, 0.0}
    assert KEY not in capsys.readouterr().err + db.read_bytes().decode("utf-8", "replace")

    with sqlite3.connect(db) as conn:
        config = json.loads(conn.execute("SELECT config_json FROM runs").fetchone()[0])
        keys = sorted(config["players"])
        assert len(keys) == 4 and len({k.split("@")[0] for k in keys}) == 4
        warm = next(k for k in keys if k.startswith("llm:warm@"))
        cold = next(k for k in keys if k.startswith("llm:cold@"))
        assert warm.split("@")[1] != cold.split("@")[1]           # two settings of one model: two keys
        streamed = next(k for k in keys if k.startswith("llm:streamed@"))
        d = config["players"][streamed]["en"]
        assert d["entry"] == "streamed" and d["settings_hash"] == streamed.split("@")[1]
        assert d["facts"] == {"family": "Fake", "organisation": "tcgtui", "parameters_b": 0.1, "weights": "open"}
        assert d["prices"] == {"input": 1.0, "output": 3.0, "reasoning": None}
        assert config["players"][warm]["en"]["prices"] == {"input": None, "output": None, "reasoning": None}
        stored = {a for (a,) in conn.execute("SELECT DISTINCT agent FROM seats")}
        assert stored == set(keys)
        # the streamed entry's cost, from its decisions (prompt at $1, completion at $3 a million)
        ptok, ctok = conn.execute("SELECT sum(prompt_tokens), sum(completion_tokens) FROM decisions "
                                  "WHERE agent = ?", (streamed,)).fetchone()
    assert ptok > 0 and ctok > 0

    report = _report(db, capsys)
    rows = {r["agent"]: r for r in report["tokens"]}
    assert sorted(rows) == keys                                   # four rows
    for row in rows.values():
        assert row["finished"] == 6 and row["prompt_per_decision"] > 0 and row["completion_per_game"] > 0
        assert row["reasoning_per_turn"] == 0 and row["tokens_estimated"] is False
    assert rows[warm]["usd_per_game"] is None and rows[streamed]["usd_per_game"] > 0
    costs = {r["agent"]: r for r in report["costs"]}
    assert costs[streamed]["usd"] == pytest.approx((ptok * 1.0 + ctok * 3.0) / 1e6)
    assert costs[streamed]["prompt_tokens"] == ptok and costs[cold]["usd"] is None
    settings = _report(db, capsys, "--settings")["settings"]
    assert {(r["agent"], r["temperature"]) for r in settings if r["entry"] in ("warm", "cold")} == {
        (warm, 0.9), (cold, 0.0)}


def test_reasoning_tokens_are_reported_and_priced_apart(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from tcgtui.opponents.llm.testserver import game_policy
    db = tmp_path / "think.sqlite3"
    with ChatServer(policy=game_policy("tcg", think=True)) as server:
        models = tmp_path / "m.toml"
        models.write_text(f'[t]\nbase_url = "{server.base_url}"\nmodel = "fake"\n'
                          'prices = { input = 1.0, output = 2.0, reasoning = 10.0 }\n')
        assert main(["bench", "--models", str(models), "--agent", "llm:t", "--vs", "random", "--games", "2",
                     "--db", str(db), "--max-retries", "0"]) == 0
    with sqlite3.connect(db) as conn:
        infos = [json.loads(i) for (i,) in conn.execute("SELECT info_json FROM decisions WHERE agent LIKE 'llm:%'")]
    p, c, r = (sum(i[k] for i in infos) for k in ("prompt_tokens", "completion_tokens", "reasoning_tokens"))
    assert r > 0
    report = _report(db, capsys)
    (row,) = report["tokens"]
    assert row["reasoning_per_decision"] == pytest.approx(r / len(infos))
    (cost,) = report["costs"]
    assert cost["reasoning_tokens"] == r and cost["usd"] == pytest.approx((p * 1 + (c - r) * 2 + r * 10) / 1e6)


def test_a_budget_stops_the_run_keeps_its_games_and_a_rerun_resumes(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "budget.sqlite3"
    with ChatServer() as server:
        models = tmp_path / "m.toml"
        models.write_text(f'[p]\nbase_url = "{server.base_url}"\nmodel = "fake"\n'
                          'prices = { input = 1.0, output = 2.0 }\n'
                          f'[free]\nbase_url = "{server.base_url}"\nmodel = "fake"\n')
        cmd = ["bench", "--models", str(models), "--agent", "llm:p", "--vs", "random", "--games", "4",
               "--db", str(db), "--max-retries", "0", "--concurrency", "1"]
        capsys.readouterr()
        assert main([*cmd, "--budget", "1k-tokens"]) == 0      # one request is more than 1,000 tokens
        line = next(x for x in capsys.readouterr().err.splitlines() if "budget reached" in x)
        with sqlite3.connect(db) as conn:
            (status, error), = conn.execute("SELECT status, error FROM games").fetchall()
            p, c = conn.execute("SELECT sum(json_extract(info_json, '$.prompt_tokens')),"
                                " sum(json_extract(info_json, '$.completion_tokens')) FROM decisions").fetchone()
        assert status == "errored" and "--budget" in error          # stopped at its second request, kept
        assert len(server.requests) == 1 and p + c > 1000
        assert f"spent ${(p * 1 + c * 2) / 1e6:.4f} and {p + c} tokens" in line      # what the store holds
        assert "kept in run" in line and ": 0; rerun the same command to resume" in line
        capsys.readouterr()
        assert main([*cmd, "--budget", "5M-tokens"]) == 0          # the rerun plays the stopped game again
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT count(*), sum(status = 'finished') FROM games").fetchone() == (4, 4)
        capsys.readouterr()
        assert main([*cmd, "--games", "6", "--budget", "$0.000001", "--budget", "5M-tokens"]) == 0
        assert "budget reached ($1e-06 / 5000000 tokens)" in capsys.readouterr().err
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT count(*), sum(status = 'finished') FROM games").fetchone() == (5, 4)
        free = ["bench", "--models", str(models), "--agent", "llm:free", "--vs", "random", "--games", "1",
                "--db", str(db)]
        assert main([*free, "--budget", "5usd"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "llm:free@" in err and "no prices" in err
        assert main([*free, "--budget", "five dollars"]) == 2
        assert "expected dollars such as 5usd" in capsys.readouterr().err


def _burst(server: ChatServer, requests: int, **limits: object) -> tuple[int, float]:
    """``requests`` at once from one agent each (as a sweep's games make them): the most the server had
    in flight, and the time from the first request's arrival to the last's."""
    import asyncio
    import random

    from tcgtui.opponents.llm.client import ChatClient
    from tcgtui.opponents.llm.endpoint import settings_from_options

    settings = settings_from_options("fake", {"base_url": server.base_url, "entry": "e", **limits}, env={})

    async def go() -> None:
        clients = [ChatClient(settings, random.Random(i)) for i in range(requests)]
        try:
            await asyncio.gather(*(c.complete([{"role": "user", "content": "hi"}]) for c in clients))
        finally:
            for c in clients:
                await c.aclose()
    server.requests.clear()
    server.most_in_flight = 0
    asyncio.run(go())
    starts = sorted(r.at for r in server.requests)
    return server.most_in_flight, starts[-1] - starts[0]


def test_an_entrys_concurrency_is_enforced_across_its_agents() -> None:
    from tcgtui.opponents.llm.testserver import Fault

    with ChatServer(faults=lambda i, r: Fault.delay(0.15)) as server:
        unlimited, _ = _burst(server, 6)
        limited, span = _burst(server, 6, concurrency=2)
    assert unlimited > 2                         # the control: six agents overlap without a limit
    assert limited == 2 and span >= 2 * 0.15 * 0.9     # three waves of two


def test_an_entrys_request_rate_is_enforced_across_its_agents() -> None:
    with ChatServer() as server:
        _burst(server, 4)                                                # connections and threads warmed up
        _, unlimited = _burst(server, 4)
        _, limited = _burst(server, 4, requests_per_minute=60)           # one start a second
    assert limited >= 3 - 0.1 and unlimited < limited / 2


def test_entry_flags_with_only_entries_and_unknown_settings_are_one_line(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture) -> None:
    models = tmp_path / "m.toml"
    models.write_text('[e]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n')
    assert main(["bench", "--models", str(models), "--agent", "llm:e", "--vs", "random", "--temperature", "0.5",
                 "--db", str(tmp_path / "x.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--temperature" in err and "llm:e" in err
    models.write_text('[e]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\nseed = 3\n')
    assert main(["bench", "--models", str(models), "--agent", "llm:e", "--vs", "random",
                 "--db", str(tmp_path / "x.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{models}: entry e, seed: expected one of base_url" in err


def test_models_checks_a_live_and_a_dead_endpoint(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TCGTUI_TEST_KEY", KEY)
    with ChatServer(context_length=8192, props=True) as llama, ChatServer(context_length=4096) as vllm:
        models = tmp_path / "m.toml"
        models.write_text(f"""
[llama]
base_url = "{llama.base_url}"
model = "fake"
[vllm]
base_url = "{vllm.base_url}"
model = "fake"
api_key_env = "TCGTUI_TEST_KEY"
context_length = 4096
""")
        assert main(["models", "--models", str(models)]) == 0
        out = capsys.readouterr().out
        assert "llama: ok (the server's context: 8192 tokens)" in out
        assert "vllm: ok (the server's context: 4096 tokens)" in out and "key in $TCGTUI_TEST_KEY" in out
        assert llama.gets[:2] == ["/v1/models", "/props"]
        probe = vllm.requests[-1]
        assert probe.json["max_tokens"] == 1 and probe.headers["authorization"] == f"Bearer {KEY}"
        with open(models, "a") as f:
            f.write(f'[big]\nbase_url = "{llama.base_url}"\nmodel = "fake"\ncontext_length = 32768\n'
                    '[dead]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n'
                    '[nokey]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\napi_key_env = "TCGTUI_UNSET_VAR"\n')
        monkeypatch.delenv("TCGTUI_UNSET_VAR", raising=False)
        assert main(["models", "--models", str(models)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert "  big: context_length says 32768 tokens but the server has 8192" in lines
    assert "  dead: http://127.0.0.1:9/v1 cannot be reached (ConnectError)" in lines
    assert "  nokey: api_key_env names TCGTUI_UNSET_VAR, which is not set in the environment" in lines
    assert "3 entries failed their checks" in captured.err and KEY not in captured.out + captured.err
    assert main(["models", "--models", str(models), "nosuch"]) == 2
    assert "nosuch: no such entry" in capsys.readouterr().err


def test_models_starts_light(tmp_path: Path) -> None:
    models = tmp_path / "m.toml"
    models.write_text('[e]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\n')
    assert _loaded(["models", "--no-check", "--models", str(models)]) == set()


def test_a_run_made_before_the_registry_resumes_under_its_old_key(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "old.sqlite3"
    with ChatServer() as server:
        cmd = ["bench", "--agent", "llm:fake", "--vs", "random", "--db", str(db), "--base-url", server.base_url,
               "--max-retries", "0"]
        assert main([*cmd, "--games", "1"]) == 0
        with sqlite3.connect(db) as conn:          # the config as runs stored it before: none of the new keys
            config = json.loads(conn.execute("SELECT config_json FROM runs").fetchone()[0])
            for d in config["players"]["llm:fake"].values():
                for key in ("entry", "settings_hash", "facts", "prices", "top_p", "context_length"):
                    del d[key]
            conn.execute("UPDATE runs SET config_json = ?", (json.dumps(config),))
        assert main([*cmd, "--games", "2"]) == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT agent, count(*) FROM games GROUP BY 1").fetchall() == [("llm:fake", 2)]


def test_play_and_watch_seat_an_entry_under_its_key(tmp_path: Path) -> None:
    from tcgtui.cli import build_parser
    from tcgtui.opponents.registry import make_agent
    from tcgtui.commands.options import settings_from

    models = tmp_path / "m.toml"
    models.write_text('[e]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m"\ntemperature = 0.3\n')
    args = build_parser("watch").parse_args(["watch", "--p1", "llm:e", "--p2", "random", "--models", str(models),
                                             "--game", "tictactoe", "--seed", "1"])
    settings = settings_from(args, ("llm:e", "random"))
    key = settings.seats[0]
    assert key.startswith("llm:e@") and settings.seats[1] == "random"
    agent = make_agent(key, **settings.agent_options)                 # the stored key builds the entry again
    assert agent.spec == key and agent.settings.temperature == 0.3 and agent.settings.entry == "e"


def test_counts_without_usage_are_marked_estimated(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import dataclasses

    from tcgtui.opponents.llm.testserver import game_policy
    policy = game_policy("tcg", think=True)
    db = tmp_path / "est.sqlite3"
    with ChatServer(policy=lambda request: dataclasses.replace(policy(request), usage=None)) as server:
        models = tmp_path / "m.toml"
        models.write_text(f'[e]\nbase_url = "{server.base_url}"\nmodel = "fake"\n')
        assert main(["bench", "--models", str(models), "--agent", "llm:e", "--vs", "random", "--games", "1",
                     "--db", str(db), "--max-retries", "0"]) == 0
    (row,) = _report(db, capsys)["tokens"]
    assert row["tokens_estimated"] is True and row["reasoning_per_decision"] > 0
    (cost,) = _report(db, capsys, "--table", "costs")["costs"]
    assert cost["tokens_estimated"] is True and cost["usd"] is None
