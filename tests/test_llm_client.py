"""Endpoint faults against a real local HTTP server: each is retried, bounded, never a move."""

from __future__ import annotations

import asyncio

import json
import random
import time
from email.utils import formatdate

import pytest

from tests.llm_support import run
from tcgtui.opponents.base import AgentError
from tcgtui.opponents.llm.client import ChatClient, EndpointDown, ThinkSplitter, retry_after_seconds
from tcgtui.opponents.llm.endpoint import settings_from_options
from tcgtui.opponents.llm.testserver import ChatServer, Fault, Reply

MOVE = "<BEGIN_MOVE>Frost Mage<END_MOVE>"
ASK = [{"role": "user", "content": "Your hand: Frost Mage, Stone Golem"}]
KEY = "sk-client-test-KEY-9f8e7d"
MODES = pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])


def make_client(server, *, real_sleep=False, key="", **options):
    settings = settings_from_options("fake", {"base_url": server.base_url, "backoff_base": 0.001,
                                              "backoff_max": 0.01, **options}, env={})
    if key:
        settings = settings.__class__(**{**settings.__dict__, "api_key": key})
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if real_sleep:
            import asyncio
            await asyncio.sleep(seconds)
    return ChatClient(settings, random.Random(1), sleep), waits


def ask(client, on_stream=None):
    async def go():
        try:
            return await client.complete(ASK, on_stream)
        finally:
            await client.aclose()
    return run(go())


@MODES
def test_a_plain_reply(stream):
    with ChatServer([MOVE]) as server:
        client, waits = make_client(server, stream=stream)
        done = ask(client)
    assert done.content == MOVE and done.faults == [] and waits == []
    assert done.usage and done.usage["completion_tokens"] > 0
    assert server.requests[0].path == "/v1/chat/completions"
    assert server.requests[0].json["model"] == "fake"
    assert server.requests[0].json.get("stream", False) is stream


def test_429_honours_retry_after_seconds():
    with ChatServer([MOVE], faults=[Fault.http(429, "3")]) as server:
        client, waits = make_client(server)
        done = ask(client)
    assert done.content == MOVE and done.faults == ["http_429"] and done.retries == 1
    assert waits == [3.0]


def test_429_honours_retry_after_as_an_http_date():
    when = formatdate(time.time() + 5, usegmt=True)
    with ChatServer([MOVE], faults=[Fault.http(429, when)]) as server:
        client, waits = make_client(server)
        ask(client)
    assert 3.5 < waits[0] <= 5.5


def test_retry_after_is_really_waited_for():
    with ChatServer([MOVE], faults=[Fault.http(429, "1")]) as server:
        client, _ = make_client(server, real_sleep=True)
        ask(client)
    first, second = server.requests
    assert second.at - first.at >= 0.95


def test_retry_after_parsing():
    assert retry_after_seconds("12") == 12.0
    assert retry_after_seconds("-3") == 0.0
    assert retry_after_seconds("soon") is None and retry_after_seconds(None) is None
    assert retry_after_seconds(formatdate(0, usegmt=True)) == 0.0


def test_a_very_long_retry_after_gives_up_at_once():
    with ChatServer([MOVE], faults=[Fault.http(429, "86400")]) as server:
        client, waits = make_client(server)
        with pytest.raises(EndpointDown, match="asks to wait 86400 s"):
            ask(client)
    assert len(server.requests) == 1 and waits == []


@pytest.mark.parametrize("status", [500, 502, 503])
@MODES
def test_server_errors_are_retried(status, stream):
    with ChatServer([MOVE], faults=[Fault.http(status), Fault.http(status)]) as server:
        client, waits = make_client(server, stream=stream)
        done = ask(client)
    assert done.content == MOVE and done.faults == [f"http_{status}"] * 2 and len(waits) == 2


@MODES
def test_a_slow_reply_past_the_timeout_is_retried(stream):
    with ChatServer([MOVE], faults=[Fault.delay(1.5)]) as server:
        client, _ = make_client(server, timeout=0.3, stream=stream)
        started = time.monotonic()
        done = ask(client)
    assert done.faults == ["timeout"] and done.content == MOVE
    assert time.monotonic() - started < 1.4       # it did not wait for the slow reply


@pytest.mark.parametrize("fault, kind", [
    (Fault.raw(b'{"choices": [{"message": '), "bad_json"),
    (Fault.raw(b"<html>502 Bad Gateway</html>", "text/html"), "bad_json"),
    (Fault.raw(b'{"choices": [{"message": {"content": "\xff\xfe<BEGIN_MOVE>"}}]}'), "bad_utf8"),
    (Fault.raw(b'{"error": {"message": "overloaded"}}'), "error_body"),
    (Fault.empty_choices(), "no_choices"),
    (Fault.null_content(), "null_content"),
    (Fault.drop(), "connection"),
    (Fault.cut(), "connection"),
], ids=["malformed-json", "html", "not-utf8", "error-body", "empty-choices", "null-content", "dropped",
        "cut-body"])
def test_broken_replies_are_faults_not_moves(fault, kind):
    with ChatServer([MOVE], faults=[fault]) as server:
        client, _ = make_client(server)
        done = ask(client)
    assert done.faults == [kind] and done.content == MOVE
    assert len(server.requests) == 2


@pytest.mark.parametrize("fault, kind", [
    (Fault.raw(b'data: {"choices": [{"delta": \n\n', "text/event-stream"), "bad_json"),
    (Fault.raw(b'data: {"choices": [{"delta": {"content": "\xc3\x28"}}]}\n\n', "text/event-stream"), "bad_utf8"),
    (Fault.raw(b'data: {"choices": [{"delta": {"content": "Frost"}}]}\n\n', "text/event-stream"),
     "stream_cut"),
    (Fault.raw(b'data: {"choices": [{"delta": {"content": "Frost"}}]}\n\ndata: [DONE]\n\n', "text/event-stream"),
     "stream_cut"),
    (Fault.raw(b"", "text/event-stream"), "empty_stream"),
    (Fault.drop(), "connection"),
], ids=["malformed-event", "not-utf8", "no-end", "done-without-finish-reason", "empty", "dropped"])
def test_broken_streams_are_faults(fault, kind):
    with ChatServer([MOVE], faults=[fault]) as server:
        client, _ = make_client(server, stream=True)
        done = ask(client)
    assert done.faults == [kind] and done.content == MOVE


def test_a_stream_cut_midway_is_retried_and_the_view_told_to_start_over():
    seen: list[tuple[str, str]] = []
    with ChatServer([Reply(MOVE, reasoning="Frost Mage freezes blockers. " * 4)],
                    faults=[Fault.cut()]) as server:
        client, _ = make_client(server, stream=True)
        done = ask(client, lambda kind, text: seen.append((kind, text)))
    assert done.faults == ["connection"] and done.content == MOVE
    attempts = [i for i, (kind, _) in enumerate(seen) if kind == "attempt"]
    assert [seen[i][1] for i in attempts] == ["1", "2"]
    assert attempts[1] > 1                         # something streamed before the cut
    after = seen[attempts[1] + 1:]
    assert "".join(t for k, t in after if k == "answer") == MOVE
    assert "".join(t for k, t in after if k == "reasoning") == "Frost Mage freezes blockers. " * 4


@MODES
def test_a_megabyte_reply_arrives_whole(stream):
    big = "a" * (1 << 20) + MOVE
    with ChatServer([big]) as server:
        client, _ = make_client(server, stream=stream)
        done = ask(client)
    assert done.content == big


@MODES
def test_a_reply_over_the_size_limit_is_a_fault(stream):
    with ChatServer(["a" * (1 << 20)] * 3) as server:
        client, _ = make_client(server, stream=stream, max_reply_bytes=100_000, max_retries=2)
        with pytest.raises(EndpointDown, match="too_large"):
            ask(client)


@MODES
def test_an_endpoint_that_stays_down_raises_agent_error(stream):
    with ChatServer(faults=lambda i, r: Fault.http(503)) as server:
        client, waits = make_client(server, stream=stream, max_retries=3)
        with pytest.raises(AgentError, match=r"4 failed requests \(last: http_503\).*errored"):
            ask(client)
    assert len(server.requests) == 4 and len(waits) == 3


def test_backoff_doubles_with_jitter_and_is_bounded():
    with ChatServer() as server:
        client, _ = make_client(server, backoff_base=1.0, backoff_max=8.0)
    delays = [client.backoff(k, None) for k in range(6)]
    for k, d in enumerate(delays):
        cap = min(8.0, 2.0 ** k)
        assert cap / 2 <= d <= cap
    assert client.backoff(0, 5.0) >= 5.0           # Retry-After is never cut short
    client.rng = random.Random(1)
    again = [client.backoff(k, None) for k in range(6)]
    client.rng = random.Random(1)
    assert again == [client.backoff(k, None) for k in range(6)]   # seeded: reproducible


def test_refusals_fail_at_once_and_never_echo_the_key():
    echo = json.dumps({"error": {"message": f"Incorrect API key provided: {KEY}"}}).encode()
    with ChatServer(faults=[Fault("status", status=401, body=echo)]) as server:
        client, waits = make_client(server, key=KEY)
        with pytest.raises(EndpointDown) as err:
            ask(client)
    assert len(server.requests) == 1 and waits == []
    assert "HTTP 401" in str(err.value) and KEY not in str(err.value)
    assert server.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert KEY.encode() not in server.requests[0].body

    bad = json.dumps({"error": {"message": f"model 'fake' not found (key {KEY})"}}).encode()
    with ChatServer(faults=[Fault("status", status=404, body=bad)]) as server:
        client, _ = make_client(server, key=KEY)
        with pytest.raises(EndpointDown, match="HTTP 404: model 'fake' not found") as err:
            ask(client)
    assert KEY not in str(err.value)


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
@MODES
def test_reasoning_fields_are_kept_apart(field, stream):
    reply = Reply(MOVE, reasoning="Trap: <BEGIN_MOVE>Stone Golem<END_MOVE>", reasoning_field=field)
    seen: list[tuple[str, str]] = []
    with ChatServer([reply]) as server:
        client, _ = make_client(server, stream=stream)
        done = ask(client, lambda kind, text: seen.append((kind, text)))
    assert done.content == MOVE and done.reasoning == reply.reasoning
    assert "".join(t for k, t in seen if k == "reasoning") == reply.reasoning
    assert "".join(t for k, t in seen if k == "answer") == MOVE


def test_think_tags_split_across_stream_chunks():
    text = "<think>maybe <BEGIN_MOVE>Stone Golem<END_MOVE></think>" + MOVE
    for size in (1, 3, 7, 64):
        splitter = ThinkSplitter()
        parts: list[tuple[str, str]] = []
        for i in range(0, len(text), size):
            parts += splitter.feed(text[i:i + size])
        parts += splitter.feed("", final=True)
        assert "".join(t for k, t in parts if k == "reasoning") == "maybe <BEGIN_MOVE>Stone Golem<END_MOVE>"
        assert "".join(t for k, t in parts if k == "answer") == MOVE


def test_agents_of_one_endpoint_share_one_http_client_until_the_last_lets_go(community):
    """64 concurrent games must not build 64 clients (each loading certificates): one per endpoint."""
    from tests.llm_support import first_turn, llm_agent

    async def go():
        with ChatServer() as server:
            agents = [llm_agent(server) for _ in range(3)]
            other = llm_agent(server, api_key="another-key")
            for a in (*agents, other):
                _, obs, events = first_turn(community, agent=a)
                await a.decide(obs, events)
            shared = {id(a.client._http) for a in agents}
            assert len(shared) == 1 and id(other.client._http) not in shared
            http = agents[0].client._http
            await agents[0].aclose()
            await agents[1].aclose()
            assert not http.is_closed                       # the third still uses it
            _, obs, events = first_turn(community, agent=agents[2])
            await agents[2].decide(obs, events)
            await agents[2].aclose()
            assert http.is_closed
            await other.aclose()
    asyncio.run(go())
