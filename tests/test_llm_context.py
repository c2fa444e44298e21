"""Prompts that fit the model's context (issue 23 §3), against the local test server acting as
llama.cpp (``/props``, ``/tokenize``), vLLM (``max_model_len``), llama-cpp-python (a tokenizer, the
context only in its overflow error) and an API that says nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.engine.tcg import TcgGame
from tcgtui.match import run_match
from tcgtui.opponents.llm.client import ContextOverflow, EndpointDown
from tcgtui.opponents.llm.context import REPLY_RESERVE, context_from_models, context_from_props
from tcgtui.opponents.llm.testserver import ChatServer, fake_tokens, prompt_tokens
from tcgtui.opponents.registry import make_agent
from tcgtui.store import FINISHED
from tests.llm_support import llm_agent, run


async def closing(agent, coro):
    try:
        return await coro
    finally:
        await agent.aclose()


def play(server: ChatServer, community, lang: str, seed: int = 3, **options):
    agent = llm_agent(server, **options)
    result = run(closing(agent, run_match(TcgGame(community), seed, (agent, make_agent("random")), lang=lang)))
    return result, [d.info for d in result.decisions if d.seat == 0]


def chat_prompts(server: ChatServer) -> list[int]:
    return [prompt_tokens(r.json, server.tokenizer) for r in server.requests]


def test_the_context_and_counts_come_from_llama_cpp_s_props_and_tokenizer(community):
    """Default settings (a 12,000-token history budget) against an 8,192-token llama.cpp server whose
    tokenizer counts Arabic at twice the estimate: the game finishes, no prompt is ever refused,
    every prompt leaves the reply its room, and each text is tokenized once."""
    with ChatServer(n_ctx=8192, says_context="props", tokenizer=fake_tokens) as server:
        result, infos = play(server, community, "ar")
        sizes = chat_prompts(server)
        tokenized = [r.json["content"] for r in server.side if r.path == "/tokenize"]
    assert result.status == FINISHED, result.error
    assert all(i["overflow_retries"] == 0 for i in infos)
    assert max(sizes) <= 8192 - REPLY_RESERVE and max(sizes) > 8192 // 2      # trimmed, not starved
    assert any(i["history_turns"] < k for k, i in enumerate(infos))            # older turns went
    assert len(tokenized) == len(set(tokenized))
    assert sum(1 for r in server.side if r.path == "/props") == 1


def test_vllm_s_max_model_len_is_the_context(community):
    with ChatServer(n_ctx=6000, says_context="models", tokenizer=fake_tokens) as server:
        result, infos = play(server, community, "ar", max_tokens=500)
        sizes = chat_prompts(server)
    assert result.status == FINISHED, result.error
    assert max(sizes) <= 6000 - 500 and all(i["overflow_retries"] == 0 for i in infos)


def test_an_overflow_shrinks_the_history_and_asks_again(community):
    """A server that says nothing of its context nor counts tokens (an API): the conversation
    outgrows 2,400 tokens, the server refuses, the older history goes and the turn is asked again;
    the context learned from the error keeps later prompts inside it.  The game finishes."""
    with ChatServer(n_ctx=2400) as server:
        result, infos = play(server, community, "en")
        refused = [r for r, size in zip(server.requests, chat_prompts(server)) if size >= 2400]
    assert result.status == FINISHED, result.error
    shrunk = [i for i in infos if i["overflow_retries"]]
    assert shrunk and len(refused) == sum(i["overflow_retries"] for i in infos)
    assert len(refused) <= 2                # learned from the first error, not met every turn


def test_without_a_tokenizer_the_estimate_is_calibrated_by_the_server_s_usage(community):
    """The server says its context (/props) and counts Arabic at about twice the estimate, but offers
    no tokenizer: once a reply's ``usage`` is seen the estimate is scaled, and no prompt is refused."""
    with ChatServer(n_ctx=6000, says_context="props", tokenizer=fake_tokens, exposes_tokenizer=False) as server:
        result, infos = play(server, community, "ar", seed=5, max_tokens=400)
        sizes = chat_prompts(server)
    assert result.status == FINISHED, result.error
    assert all(i["overflow_retries"] == 0 for i in infos) and max(sizes) < 6000
    assert max(sizes) > 6000 // 2                # the history was kept as far as it fits
    assert len([r for r in server.side if r.path == "/tokenize"]) == 2     # llama.cpp's and vLLM's forms, once


def test_props_and_models_parsing():
    assert context_from_props({"default_generation_settings": {"n_ctx": 8192}, "n_ctx": 32768}) == 8192
    assert context_from_props({"n_ctx": 4096}) == 4096
    assert context_from_props({"default_generation_settings": {"n_ctx": True}}) is None
    assert context_from_props("nope") is None
    models = {"data": [{"id": "a", "max_model_len": 4096}, {"id": "b", "max_model_len": 32768}]}
    assert context_from_models(models, "b") == 32768
    assert context_from_models(models, "c") is None                 # two entries, neither named
    assert context_from_models({"data": [{"id": "x", "max_model_len": 2048}]}, "c") == 2048
    assert context_from_models({"data": [{"id": "x"}]}, "x") is None


def _bench(db: Path, url: str, *extra: str) -> int:
    return main(["bench", "--agent", "llm:fake", "--vs", "random", "--games", "2", "--db", str(db),
                 "--base-url", url, "--max-retries", "0", "--lang", "ar", *extra])


@pytest.mark.parametrize("says", ["props", None], ids=["llama.cpp", "llama-cpp-python"])
def test_a_context_too_small_for_the_rules_and_cards_refuses_before_the_first_game(
        tmp_path: Path, capsys: pytest.CaptureFixture, says: str | None) -> None:
    """Where the server says its context (llama.cpp), or only a request over it tells (a tokenizer but
    no /props: one request padded to what the game needs, with a one-token reply), a context that
    cannot hold the Arabic rules, the cards and the reply refuses the run in one line, before any game."""
    db = tmp_path / "small.sqlite3"
    with ChatServer(n_ctx=3000, says_context=says, tokenizer=fake_tokens) as server:
        assert _bench(db, server.base_url) == 2
        probes = [r.json for r in server.requests]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a context of at least" in err and "has 3000" in err
    need = int(err.split("at least ")[1].split()[0])
    assert need > 3000 and f"{REPLY_RESERVE} for the reply" in err
    if says is None:
        assert len(probes) == 1 and probes[0]["max_tokens"] == 1
    else:
        assert probes == []
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_a_context_that_fits_lets_the_run_go_on(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The padded request fits: the games are played; the context, still unknown, is learned from the
    first overflow (llama-cpp-python says it only then), which shrinks the history instead of failing."""
    db = tmp_path / "fits.sqlite3"
    with ChatServer(n_ctx=8192, says_context=None, tokenizer=fake_tokens) as server:
        assert _bench(db, server.base_url) == 0
        first = server.requests[0].json
    capsys.readouterr()
    assert first["max_tokens"] == 1 and prompt_tokens(first, fake_tokens) >= 3000     # the padded probe
    with sqlite3.connect(db) as conn:
        rows = [json.loads(r[0]) for r in conn.execute("SELECT info_json FROM decisions WHERE agent = 'llm:fake'")]
        assert conn.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0] == 2
    assert rows and sum(r["overflow_retries"] for r in rows) <= 2


def test_context_length_given_wins_and_is_recorded(community):
    with ChatServer(n_ctx=100000, says_context="props", tokenizer=fake_tokens) as server:
        result, infos = play(server, community, "ar", context_length=6000, max_tokens=300)
        sizes = chat_prompts(server)
        agent = llm_agent(server, context_length=6000)
    assert result.status == FINISHED and max(sizes) <= 6000 - 300
    assert agent.describe()["context_length"] == 6000
    assert llm_agent(server).describe()["context_length"] is None


def test_an_overflow_tells_the_size_and_the_prompt():
    body = {"error": {"code": 400, "message": "request (9000 tokens) exceeds the available context size "
                      "(8192 tokens), try increasing it", "type": "exceed_context_size_error",
                      "n_prompt_tokens": 9000, "n_ctx": 8192}}
    from tcgtui.opponents.llm.testserver import Fault
    with ChatServer(faults=[Fault("status", status=400, body=json.dumps(body).encode())]) as server:
        agent = llm_agent(server)
        with pytest.raises(ContextOverflow) as err:
            run(closing(agent, agent.client.complete([{"role": "user", "content": "hi"}])))
    assert isinstance(err.value, EndpointDown) and (err.value.size, err.value.prompt_tokens) == (8192, 9000)


def test_watch_refuses_before_the_screen_opens(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with ChatServer(n_ctx=2500, says_context="props", tokenizer=fake_tokens) as server:
        rc = main(["watch", "--p1", "llm:fake", "--p2", "random", "--lang", "ar", "--seed", "1",
                   "--base-url", server.base_url, "--db", str(tmp_path / "w.sqlite3")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "has 2500" in err


def test_a_server_that_cannot_be_reached_is_not_asked_again_and_nothing_is_refused() -> None:
    """No context learned, no tokenizer: the check lets the run go on (its games will meet the fault)."""
    import asyncio
    import socket

    from tcgtui.context_check import check_contexts
    from tcgtui.games.tcg.packs import DEFAULT_PACK, load_pack
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]                  # closed again: nothing listens there
    game = TcgGame(load_pack(DEFAULT_PACK))
    asyncio.run(check_contexts(game, ["llm:gone", "random"], {"base_url": f"http://127.0.0.1:{port}/v1"},
                               ["en", "ar"]))
