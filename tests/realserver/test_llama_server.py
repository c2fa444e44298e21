"""tcgtui against a real model server: llama.cpp's OpenAI-compatible server (llama-cpp-python)
serving a tiny LLaMA with random weights that the tests write themselves (tiny_model.py).

Its replies are random text, so the games get through on re-prompts and the random fallback; what
is tested is everything around the model: real HTTP, real streaming, a server that never sends
``usage`` when streaming, a server killed and restarted mid-game, and a prompt longer than its
context (the history shrunk and the turn asked again).  About a minute on 2 cores.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tcgtui.bench.plan import Cell, build_config, identity, open_run
from tcgtui.bench.runner import Sweep, SweepResult, run_sweep
from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.registry import make_agent
from tcgtui.store import ERRORED, FINISHED, Store
from tests.llm_support import run
from tests.realserver.server import LlamaServer, llama_python, make_model

PYTHON, WHY = llama_python()
pytestmark = [pytest.mark.realserver, pytest.mark.skipif(PYTHON is None, reason=WHY)]

AGENT = "llm:tiny"
FAST = {"max_tokens": 24, "temperature": 1.0, "backoff_base": 0.2, "backoff_max": 1.0, "timeout": 60.0}


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert PYTHON is not None
    return make_model(PYTHON, tmp_path_factory.mktemp("model") / "tiny.gguf")


@pytest.fixture(scope="module")
def server(model: Path, tmp_path_factory: pytest.TempPathFactory):
    log = tmp_path_factory.mktemp("server") / "server.log"
    with LlamaServer(PYTHON, model, n_ctx=16384, log=log) as s:
        yield s


def sweep(store: Store, game: TcgGame, base_url: str, lang: str, games: int, run_name: str = "real",
          retry_errored: bool = False, **options: Any) -> SweepResult:
    cells = [Cell(AGENT, "random", lang)]
    config = build_config(identity(game, 0), cells, {}, games, {})
    plan = Sweep(open_run(store, run_name, config), game, cells, games, seed=0, concurrency=1,
                 retry_errored=retry_errored)
    opts = {**FAST, "base_url": base_url, **options}
    return run(run_sweep(store, plan, lambda spec: make_agent(spec, **opts)))


def agent_decisions(store: Store) -> list[dict[str, Any]]:
    return [d.info for g in store.games() for d in store.decisions(g.id) if d.agent == AGENT]


@pytest.mark.parametrize("stream, lang", [(True, "en"), (False, "ar")], ids=["stream-en", "json-ar"])
def test_a_whole_game_against_the_real_server(server, community, tmp_path, stream, lang):
    with Store(tmp_path / "g.sqlite3") as store:
        result = sweep(store, TcgGame(community), server.base_url, lang, 1, stream=stream)
        (game,) = store.games()
        infos = agent_decisions(store)
    assert game.status == FINISHED, game.error
    assert result.errors == [] and infos
    attempts = [a for i in infos for a in i["attempts"]]
    assert all(a["finish_reason"] in ("stop", "length") for a in attempts)
    assert all("reply" in a for a in attempts)                  # replies are kept without --log-prompts
    assert any(i["fallback"] == "random" or i["invalid"] for i in infos)    # random text: re-prompts
    assert all(i["retries"] == 0 for i in infos)
    # This server never sends usage in a stream: streamed counts are estimates, and say so.
    assert all(i["tokens_estimated"] is stream for i in infos)
    assert all(i["prompt_tokens"] > 0 for i in infos)


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "json"])
def test_empty_replies_are_invalid_moves_streamed_or_not(server, community, tmp_path, stream):
    """A bias on the end-of-turn token makes every reply empty: ``content`` "" and ``finish_reason``
    "stop" unstreamed; a role event, then an empty delta with "stop", then [DONE] streamed.  Both are
    the model's (invalid) answer: no retries, the game goes on to its end on the fallback."""
    end_of_turn = {"4": 100}                              # <|im_end|>, tiny_model.py's EOS
    with Store(tmp_path / "e.sqlite3") as store:
        sweep(store, TcgGame(community), server.base_url, "en", 1, stream=stream, invalid_retries=0,
              extra_body={"logit_bias": end_of_turn})
        (game,) = store.games()
        infos = agent_decisions(store)
    assert game.status == FINISHED, game.error
    assert infos and all(i["retries"] == 0 and i["fallback"] == "random" for i in infos)
    assert all(a["error"] == "empty" and a["reply"] == "" and a["finish_reason"] == "stop"
               for i in infos for a in i["attempts"])


def test_a_server_killed_and_restarted_mid_game(model, community, tmp_path):
    game = TcgGame(community)
    with LlamaServer(PYTHON, model, n_ctx=16384, log=tmp_path / "server.log") as srv, \
            Store(tmp_path / "k.sqlite3") as store:
        first = sweep(store, game, srv.base_url, "en", 1, stream=True)
        assert first.errors == [] and [g.status for g in store.games()] == [FINISHED]
        requests = 0
        restarted: list[threading.Thread] = []

        def on_stream(kind: str, text: str) -> None:
            nonlocal requests
            requests += kind == "attempt"
            if requests == 4 and kind in ("answer", "reasoning") and not restarted:
                srv.kill()                                   # mid-stream, as a crash would
                t = threading.Thread(target=srv.start)       # back a moment later, on the same port
                t.start()
                restarted.append(t)
        # A history budget well inside the server's context: this test is about the kill, and the
        # byte-level vocabulary of the tiny model can spend more tokens than the estimate.
        second = sweep(store, game, srv.base_url, "en", 2, stream=True, on_stream=on_stream,
                       max_retries=8, history_tokens=4000)
        for t in restarted:
            t.join(120)
        games = sorted(store.games(), key=lambda g: g.game_index)
        assert restarted, "the server was never killed"
        print(f"killed mid-stream; game 1: {games[1].status} {games[1].error or ''}")
        assert games[0].status == FINISHED and games[0].moves > 0          # nothing finished is lost
        if games[1].status == ERRORED:                                      # allowed, if it says so
            assert "can be rerun" in (games[1].error or "") and second.errors
            sweep(store, game, srv.base_url, "en", 2, retry_errored=True, stream=True, history_tokens=4000)
            games = sorted(store.games(), key=lambda g: g.game_index)
        assert [g.status for g in games] == [FINISHED, FINISHED]
        faults = [f for i in agent_decisions(store) for f in i["faults"]]
    assert faults and set(faults) <= {"connection", "stream_cut", "empty_stream", "timeout"}


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "json"])
def test_a_prompt_longer_than_the_context_shrinks_the_history_and_the_game_goes_on(model, community, tmp_path,
                                                                                  stream):
    """The default history budget against a 4,096-token server, which says its context only when a
    prompt is over it (streaming: 200 and no events; asked again unstreamed: 400
    context_length_exceeded): the older half of the history goes, the turn is asked again, later
    prompts are fitted to the context learned, and the game finishes."""
    with LlamaServer(PYTHON, model, n_ctx=4096, log=tmp_path / "server.log") as srv, \
            Store(tmp_path / "c.sqlite3") as store:
        result = sweep(store, TcgGame(community), srv.base_url, "en", 1, stream=stream)
        (game,) = store.games()
        infos = agent_decisions(store)
    assert game.status == FINISHED, game.error
    assert result.errors == [] and infos
    assert sum(i["overflow_retries"] for i in infos) >= 1
    assert any(i["history_turns"] < k for k, i in enumerate(infos))
