"""What a real model server (llama.cpp's, OpenAI's, vLLM's) answers, and what tcgtui makes of it.

Each case was seen against ``llama-cpp-python``'s server (tests/realserver/ plays against the real
one); here the fake endpoint replays the exact bytes, so the cases run everywhere in milliseconds.
"""

from __future__ import annotations

import json

import pytest

from tests.llm_support import first_turn, llm_agent, run
from tests.test_llm_client import ASK, MODES, MOVE, ask, make_client
from tcgtui.engine.tcg import TcgGame
from tcgtui.match import ERRORED, FINISHED, run_match
from tcgtui.opponents.llm.client import ContextOverflow, EndpointDown, context_overflow
from tcgtui.opponents.llm.testserver import ChatServer, Fault, Reply
from tcgtui.opponents.registry import make_agent

SSE = "text/event-stream"


def sse(*events: dict | str) -> bytes:
    return b"".join(b"data: " + (e if isinstance(e, str) else json.dumps(e)).encode() + b"\n\n"
                    for e in events)


def chunk(content: str | None = None, finish: str | None = None) -> dict:
    delta = {} if content is None else {"content": content}
    return {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta,
                                                             "finish_reason": finish}]}


async def closing(agent, coro):
    try:
        return await coro
    finally:
        await agent.aclose()


# 1. An empty reply is the model's answer: an invalid move, streamed or not.

EMPTY_STREAM_STOP = sse({"choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]},
                        chunk(finish="stop"), "[DONE]")
EMPTY_JSON_STOP = json.dumps({"object": "chat.completion", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": ""}, "finish_reason": "stop"}]}).encode()


@pytest.mark.parametrize("body, content_type, stream", [
    (EMPTY_STREAM_STOP, SSE, True), (EMPTY_JSON_STOP, "application/json", False),
    (None, None, True)], ids=["stream", "json", "stream-no-content-deltas"])
def test_an_empty_reply_that_stops_is_an_answer_not_a_fault(body, content_type, stream):
    fault = Fault.null_content() if body is None else Fault.raw(body, content_type)
    with ChatServer([MOVE], faults=[fault]) as server:
        client, waits = make_client(server, stream=stream)
        done = ask(client)
    assert done.content == "" and done.finish_reason == "stop"
    assert done.faults == [] and waits == [] and len(server.requests) == 1


@MODES
def test_an_empty_streamed_reply_is_an_invalid_move_and_the_game_goes_on(community, stream):
    faults = [Fault.raw(EMPTY_STREAM_STOP, SSE) if stream else Fault.raw(EMPTY_JSON_STOP)]
    with ChatServer(faults=faults) as server:
        agent = llm_agent(server, stream=stream)
        _, obs, events = first_turn(community, agent=agent)
        decision = run(closing(agent, agent.decide(obs, events)))
    assert decision.move in obs.legal_moves
    assert decision.info["retries"] == 0 and decision.info["faults"] == []
    assert decision.info["attempts"][0]["error"] == "empty"
    assert len(server.requests) == 2                      # one re-prompt, no retry


# 4. A stream is whole only when it says how it finished.

def test_a_stream_that_ends_without_finish_reason_is_cut_and_retried():
    cut = sse(chunk("<BEGIN_MOVE>Frost"), "[DONE]")
    with ChatServer([MOVE], faults=[Fault.raw(cut, SSE)]) as server:
        client, waits = make_client(server, stream=True)
        done = ask(client)
    assert done.faults == ["stream_cut"] and done.content == MOVE and len(waits) == 1


def test_streams_that_never_finish_end_as_a_fault_that_can_be_rerun():
    with ChatServer(faults=lambda i, r: Fault.raw(sse(chunk("Frost"), "[DONE]"), SSE)) as server:
        client, waits = make_client(server, stream=True, max_retries=2)
        with pytest.raises(EndpointDown, match=r"3 failed requests \(last: stream_cut.*can be rerun"):
            ask(client)
    assert len(waits) == 2


def test_an_empty_200_stream_is_asked_again_without_streaming():
    """llama-cpp-python answers a prompt longer than its context with 200 and no events when
    streaming, and with 400 context_length_exceeded when not: the retry asks unstreamed."""
    with ChatServer([MOVE], faults=[Fault.raw(b"", SSE)]) as server:
        client, waits = make_client(server, stream=True)
        seen: list[tuple[str, str]] = []
        done = ask(client, lambda kind, text: seen.append((kind, text)))
    assert done.faults == ["empty_stream"] and done.content == MOVE
    assert server.requests[0].json["stream"] is True and "stream" not in server.requests[1].json
    assert "".join(t for k, t in seen if k == "answer") == MOVE          # the view still sees it
    with ChatServer([MOVE, MOVE], faults=[Fault.raw(b"", SSE)]) as server:   # later requests stream again
        client, _ = make_client(server, stream=True)

        async def twice():
            try:
                await client.complete(ASK)
                return await client.complete(ASK)
            finally:
                await client.aclose()
        run(twice())
    assert [r.json.get("stream") for r in server.requests] == [True, None, True]


def test_an_empty_200_stream_then_a_context_error_is_the_context_error():
    with ChatServer(faults=[Fault.raw(b"", SSE), Fault("status", status=400, body=LLAMA_CPP_PYTHON)]) as server:
        client, waits = make_client(server, stream=True)
        with pytest.raises(ContextOverflow, match="--history-tokens"):
            ask(client)
    assert len(server.requests) == 2


# 3. A prompt longer than the server's context: say what to change, do not retry.

OPENAI = json.dumps({"error": {
    "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in "
               "9000 tokens. Please reduce the length of the messages.",
    "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}).encode()
LLAMA_CPP_PYTHON = json.dumps({"error": {
    "message": "This model's maximum context length is 4096 tokens. However, you requested 5001 tokens "
               "(5001 in the messages, None in the completion). Please reduce the length of the messages "
               "or completion.", "type": "invalid_request_error", "param": "messages",
    "code": "context_length_exceeded"}}).encode()
LLAMA_SERVER = json.dumps({"error": {
    "code": 400, "message": "the request exceeds the available context size, try increasing it",
    "type": "exceed_context_size_error", "n_prompt_tokens": 5001, "n_ctx": 4096}}).encode()
VLLM = json.dumps({"object": "error", "message": "This model's maximum context length is 4096 tokens. "
                   "However, you requested 5001 tokens in the messages, Please reduce the length of the "
                   "messages.", "type": "BadRequestError", "param": None, "code": 400}).encode()


@pytest.mark.parametrize("body, n_ctx", [(OPENAI, 8192), (LLAMA_CPP_PYTHON, 4096), (LLAMA_SERVER, 4096),
                                         (VLLM, 4096)], ids=["openai", "llama-cpp-python", "llama-server",
                                                             "vllm"])
@MODES
def test_a_context_overflow_fails_at_once_saying_what_to_change(body, n_ctx, stream):
    with ChatServer(faults=[Fault("status", status=400, body=body)]) as server:
        client, waits = make_client(server, stream=stream, history_tokens=12000)
        with pytest.raises(ContextOverflow) as err:
            ask(client)
    message = str(err.value)
    assert len(server.requests) == 1 and waits == []
    assert "--history-tokens" in message and "12000" in message and f"{n_ctx} tokens" in message
    assert "context" in message and "can be rerun" not in message


def test_the_suggested_budget_is_never_higher_than_the_one_in_use():
    with ChatServer(faults=[Fault("status", status=400, body=OPENAI)]) as server:
        client, _ = make_client(server, history_tokens=2000)
        with pytest.raises(ContextOverflow, match=r"lower --history-tokens or --max-tokens \(now 2000\)"):
            ask(client)
    with ChatServer(faults=[Fault("status", status=400, body=OPENAI)]) as server:
        client, _ = make_client(server)
        with pytest.raises(ContextOverflow, match=r"try --history-tokens 4096 \(now 12000\)"):
            ask(client)


def test_a_context_error_inside_a_stream_is_recognised():
    body = sse({"error": {"message": "the request exceeds the available context size, try increasing it",
                          "type": "exceed_context_size_error"}})
    with ChatServer(faults=[Fault.raw(body, SSE)]) as server:
        client, _ = make_client(server, stream=True)
        with pytest.raises(ContextOverflow, match="--history-tokens"):
            ask(client)
    assert len(server.requests) == 1


def test_context_overflow_wordings():
    assert context_overflow({"code": "context_length_exceeded", "message": "x"}) == (True, None)
    assert context_overflow("Requested tokens (5000) exceed context window of 2048") == (True, 2048)
    assert context_overflow({"message": "prompt is too long: 9000 tokens > 8192 maximum"})[0]
    assert context_overflow({"message": "Input is longer than the model's context length (4096)"})[0]
    assert context_overflow({"message": "rate limited"}) == (False, None)
    assert context_overflow({"message": "max_tokens must be at least 1"}) == (False, None)


def test_a_context_overflow_errors_the_game_with_the_remedy(community):
    """An overflow with no history left to drop (the first turn) errors the game, saying what to change."""
    with ChatServer(faults=lambda i, r: Fault("status", status=400, body=LLAMA_CPP_PYTHON)) as server:
        agent = llm_agent(server)
        result = run(closing(agent, run_match(TcgGame(community), 3, (agent, make_agent("random")), lang="en")))
    assert result.status == ERRORED and len(server.requests) == 1
    assert "without any earlier one (5001 tokens)" in result.error and "context of 4096 tokens" in result.error
    assert "bigger context" in result.error and "can be rerun" not in result.error


def test_an_empty_streamed_reply_never_errors_a_game(community):
    """The whole game on a server whose every streamed reply is empty: invalid moves, then fallback."""
    with ChatServer(faults=lambda i, r: Fault.raw(EMPTY_STREAM_STOP, SSE)) as server:
        agent = llm_agent(server, stream=True)
        result = run(closing(agent, run_match(TcgGame(community), 3, (agent, make_agent("random")), lang="ar")))
    assert result.status == FINISHED
    mine = [d for d in result.decisions if d.seat == 0]
    assert mine and all(d.info["fallback"] == "random" and d.info["retries"] == 0 for d in mine)


def test_reply_marks_do_not_misfire_on_a_move():
    """A reply that mentions context is a move, not an error."""
    with ChatServer([Reply("context matters: " + MOVE)]) as server:
        client, _ = make_client(server)
        assert ask(client).content.endswith(MOVE)
