"""One Chat Completions request, made to survive a real endpoint.

Faults are not moves: a 429, a 5xx, a timeout, a dropped connection, a body
that is not JSON or not UTF-8, no choices, no content, a stream cut before its
end are all retried with exponential backoff and jitter (Retry-After wins when
given), a bounded number of times; then ``EndpointDown`` ends the game as
errored.  Anything else the server refuses (400, 401, 404...) will not get
better by asking again and fails at once.  The API key is sent in a header and
scrubbed from every message this module writes.

A stream is whole only when its last choice says how it finished
(``finish_reason``); a stream without one was cut and is retried.  A stream with
no events at all is retried once without streaming: llama.cpp's Python server
answers a prompt longer than its context that way when streaming, and with a
400 that says so when not.  A prompt longer than the server's context
(``ContextOverflow``) fails at once with what to change: asking again sends the
same prompt.  An empty answer that says how it finished is the model's answer
(an invalid move), streamed or not.
"""

from __future__ import annotations

import asyncio
import codecs
import importlib.metadata
import json
import random
import re
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from tcgtui.opponents.base import AgentError
from tcgtui.opponents.llm.endpoint import EndpointSettings, redact_url
from tcgtui.opponents.llm.limits import limiter
from tcgtui.opponents.llm.prompts import content_text
from tcgtui.opponents.llm.reasoning import split_reasoning
from tcgtui.opponents.llm.spend import METER, usage_counts
from tcgtui.opponents.llm.tokens import estimate_tokens

StreamHook = Callable[[str, str], None]
Sleep = Callable[[float], Awaitable[None]]
RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
RETRY_AFTER_LIMIT = 600.0  # a server asking for a longer pause is down for this game


def _version() -> str:
    """tcgtui's version for the User-Agent, from the installed package's metadata."""
    try:
        return importlib.metadata.version("tcgtui")
    except importlib.metadata.PackageNotFoundError:
        return "dev"


class EndpointDown(AgentError):
    """The endpoint failed past the retry budget, or refused the request outright."""


class ContextOverflow(EndpointDown):
    """The prompt is longer than the server's context: the same settings fail the same way.
    ``size`` is the context and ``prompt_tokens`` the prompt's length, when the server said."""

    def __init__(self, message: str, size: int | None = None, prompt_tokens: int | None = None) -> None:
        super().__init__(message)
        self.size, self.prompt_tokens = size, prompt_tokens


# How servers say a prompt does not fit: OpenAI and llama-cpp-python ("context_length_exceeded",
# "maximum context length is N tokens"), llama.cpp's llama-server ("exceeds the available context
# size", type exceed_context_size_error, n_ctx), vLLM ("maximum context length", "longer than the
# model's context length"), Anthropic-compatible proxies ("prompt is too long"), llama_cpp itself
# ("Requested tokens (N) exceed context window of M").
CONTEXT_CODES = frozenset(
    {"context_length_exceeded", "exceed_context_size_error", "context_window_exceeded", "string_above_max_length"}
)
CONTEXT_WORDS = re.compile(
    r"context_length_exceeded|exceed(?:s|ed)? the available context|maximum context length"
    r"|exceed(?:s|ed)? (?:the )?context (?:window|length|size)|context window of \d+"
    r"|longer than the model'?s (?:maximum )?context|prompt is too long|too many tokens in the prompt"
    r"|input (?:is )?too long for the model|n_ctx",
    re.I,
)
PROMPT_SIZE = re.compile(r"\((\d+) in the messages|request \((\d+) tokens\)|Requested tokens \((\d+)\)", re.I)
CONTEXT_SIZE = re.compile(
    r"(?:maximum context length is|context window of|context length of|"
    r"n_ctx\W{0,3}|context (?:size|length) \(?)\s*(\d{3,8})",
    re.I,
)


def context_overflow(error: Any) -> tuple[bool, int | None]:
    """Whether a server's error (its ``error`` object, or text) says the prompt is too long
    for its context, and the context size when it says that too."""
    if isinstance(error, dict):
        kinds = {str(error.get(k) or "").lower() for k in ("code", "type")}
        text = str(error.get("message") or "")
        size = error.get("n_ctx") if isinstance(error.get("n_ctx"), int) else None
        hit = bool(kinds & CONTEXT_CODES) or bool(CONTEXT_WORDS.search(text))
    else:
        text, size = str(error or ""), None
        hit = bool(CONTEXT_WORDS.search(text))
    if not hit:
        return False, None
    if size is None and (m := CONTEXT_SIZE.search(text)):
        size = int(m.group(1))
    return True, size


def _error_object(obj: Any) -> dict[str, Any] | None:
    """The error a body carries: ``{"error": {...}}``, ``{"error": "text"}`` or vLLM's top level."""
    if not isinstance(obj, dict):
        return None
    err = obj.get("error")
    if isinstance(err, dict):
        return err
    if isinstance(err, str) and err:
        return {"message": err}
    if obj.get("object") == "error":
        return obj
    return None


class Fault(Exception):
    """A retryable endpoint failure; ``kind`` is recorded, ``retry_after`` honoured."""

    def __init__(self, kind: str, detail: str = "", retry_after: float | None = None) -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind, self.retry_after = kind, retry_after


@dataclass
class Completion:
    """A usable reply: raw content (may still hold <think> blocks) and reasoning fields."""

    content: str
    reasoning: str = ""
    usage: dict[str, Any] | None = None
    finish_reason: str | None = None
    latency_s: float = 0.0  # the successful request only
    faults: list[str] = field(default_factory=list)  # kinds retried before it
    # (prompt, completion, reasoning tokens, estimated, reasoning estimated): what it spent (spend.usage_counts)
    counts: tuple[int, int, int, bool, bool] = (0, 0, 0, False, False)

    @property
    def retries(self) -> int:
        return len(self.faults)


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Retry-After as seconds: a number, or an HTTP-date in the future; None if absent or odd."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


class ThinkSplitter:
    """Sorts streamed content into reasoning and answer as it arrives, across chunk edges."""

    OPEN, CLOSE = ("<think>", "<thinking>"), ("</think>", "</thinking>")

    def __init__(self) -> None:
        self.inside = False
        self.pending = ""

    def feed(self, text: str, final: bool = False) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        buf = self.pending + text
        self.pending = ""
        while buf:
            tags = self.CLOSE if self.inside else self.OPEN
            low = buf.lower()
            hits = [(low.find(t), t) for t in tags if low.find(t) >= 0]
            if hits:
                at, tag = min(hits)
                if at:
                    out.append(("reasoning" if self.inside else "answer", buf[:at]))
                self.inside = not self.inside
                buf = buf[at + len(tag) :]
                continue
            cut = buf.rfind("<")
            if not final and cut >= 0 and any(t.startswith(low[cut:]) for t in tags):
                self.pending, buf = buf[cut:], buf[:cut]
            if buf:
                out.append(("reasoning" if self.inside else "answer", buf))
            break
        return out


class _SharedClients:
    """One httpx client per endpoint and event loop, shared by every agent that talks to it.

    A sweep of 64 concurrent model games would otherwise build 64 clients (each loading the
    certificate bundle, about 30 ms); an httpx client belongs to the loop it was made on, so the
    clients are kept per loop (weakly: a finished loop takes its entries with it) and closed when
    the last agent using one lets it go.
    """

    def __init__(self) -> None:
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple, list[Any]]] = (
            weakref.WeakKeyDictionary()
        )

    def take(self, key: tuple, make: Callable[[], httpx.AsyncClient]) -> httpx.AsyncClient:
        clients = self._by_loop.setdefault(asyncio.get_running_loop(), {})
        entry = clients.get(key)
        if entry is None or entry[0].is_closed:
            entry = clients[key] = [make(), 0]
        entry[1] += 1
        return entry[0]

    async def give_back(self, client: httpx.AsyncClient) -> None:
        clients = self._by_loop.get(asyncio.get_running_loop(), {})
        for key, entry in list(clients.items()):
            if entry[0] is client:
                entry[1] -= 1
                if entry[1] > 0:
                    return
                del clients[key]
                break
        await client.aclose()


SHARED = _SharedClients()


class ChatClient:
    """An endpoint's shared httpx client, with the retry policy above."""

    def __init__(self, settings: EndpointSettings, rng: random.Random, sleep: Sleep = asyncio.sleep) -> None:
        self.settings = settings
        self.rng = rng
        self.sleep = sleep
        self._http: httpx.AsyncClient | None = None
        self._unstreamed = False  # the next attempt asks without streaming (after an empty stream)

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            s = self.settings
            secure = s.url.startswith("https:")

            def make() -> httpx.AsyncClient:
                headers = {"User-Agent": f"tcgtui/{_version()}", "X-Title": "tcgtui"}
                if s.api_key:
                    headers["Authorization"] = f"Bearer {s.api_key}"
                # Plain http never needs the certificate bundle: do not load it.
                return httpx.AsyncClient(
                    headers=headers,
                    timeout=httpx.Timeout(s.timeout),
                    verify=secure,
                    limits=httpx.Limits(max_connections=None, max_keepalive_connections=32),
                )

            self._http = SHARED.take((s.url, s.api_key, s.timeout), make)
        return self._http

    async def aclose(self) -> None:
        if self._http is not None:
            http, self._http = self._http, None
            await SHARED.give_back(http)

    async def get_json(self, url: str, body: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
        """A side request (``/props``, ``/tokenize``): GET, or POST ``body``; its JSON, or None for
        anything but a 200 with JSON (the server may not offer it; the game does not depend on it).
        A server that cannot be reached raises ``httpx.TransportError``."""
        if body is None:
            resp = await self._client().get(url, timeout=timeout)
        else:
            resp = await self._client().post(url, json=body, timeout=timeout)
        if resp.status_code != 200 or len(resp.content) > self.settings.max_reply_bytes:
            return None
        try:
            return resp.json()
        except ValueError:
            return None

    def scrub(self, text: str) -> str:
        key = self.settings.api_key
        return text.replace(key, "[key]") if key else text

    def body(self, messages: list[dict[str, Any]], stream: bool | None = None) -> dict[str, Any]:
        """The request body; messages go as they are (a content may be a list of text and image parts)."""
        s = self.settings
        body: dict[str, Any] = {"model": s.model, "messages": messages}
        if s.temperature is not None:
            body["temperature"] = s.temperature
        if s.top_p is not None:
            body["top_p"] = s.top_p
        if s.max_tokens is not None:
            body["max_tokens"] = s.max_tokens
        if s.stream if stream is None else stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        body.update(s.extra_body)
        return body

    def backoff(self, retry: int, retry_after: float | None) -> float:
        s = self.settings
        delay = min(s.backoff_max, s.backoff_base * 2**retry)
        delay *= 0.5 + 0.5 * self.rng.random()
        return max(delay, retry_after) if retry_after is not None else delay

    async def complete(
        self, messages: list[dict[str, Any]], on_stream: StreamHook | None = None, first_request: int = 1
    ) -> Completion:
        """A reply, after as many retries as the budget allows; raises EndpointDown."""
        faults: list[str] = []
        where = f"{self.settings.model} at {redact_url(self.settings.base_url)}"
        meter = METER.get()
        while True:
            if meter is not None:
                meter.check()  # a budget reached: no request starts (BudgetSpent)
            if on_stream is not None:
                on_stream("attempt", str(first_request + len(faults)))
            started = time.perf_counter()
            stream = self.settings.stream and not self._unstreamed
            self._unstreamed = False
            try:
                limit = limiter(self.settings)
                if limit is None:
                    done = await self._request(self.body(messages, stream), on_stream, stream, messages)
                else:
                    async with limit.slot():
                        started = time.perf_counter()  # the wait for a slot is not the model's latency
                        done = await self._request(self.body(messages, stream), on_stream, stream, messages)
            except Fault as fault:
                faults.append(fault.kind)
                self._unstreamed = fault.kind == "empty_stream"
                if fault.retry_after is not None and fault.retry_after > RETRY_AFTER_LIMIT:
                    raise EndpointDown(
                        self.scrub(f"{where}: asks to wait {fault.retry_after:.0f} s ({fault}); the game is errored")
                    ) from None
                if len(faults) > self.settings.max_retries:
                    raise EndpointDown(
                        self.scrub(
                            f"{where}: {len(faults)} failed requests (last: {fault}); "
                            "the game is errored and can be rerun"
                        )
                    ) from None
                await self.sleep(self.backoff(len(faults) - 1, fault.retry_after))
                continue
            done.latency_s = time.perf_counter() - started
            done.faults = faults
            answer, think = split_reasoning(done.content)
            done.counts = usage_counts(
                done.usage, messages, answer, "\n".join(r for r in (done.reasoning.strip(), think) if r)
            )
            if meter is not None:
                meter.charge(self.settings.prices, *done.counts[:3])
            return done

    async def probe(self, messages: list[dict[str, Any]]) -> None:
        """One unstreamed request for a one-token reply: raises ContextOverflow when ``messages`` do
        not fit; any other failure is ignored (the games will meet it, with their retries)."""
        body = self.body(messages, stream=False)
        body.pop("stream", None)
        body.pop("stream_options", None)
        body["max_tokens"] = 1
        try:
            await self._request(body, None, False, messages)
        except (Fault, EndpointDown) as exc:
            if isinstance(exc, ContextOverflow):
                raise

    async def _request(
        self, body: dict[str, Any], on_stream: StreamHook | None, stream: bool, messages: list[dict[str, str]]
    ) -> Completion:
        s = self.settings
        self._messages = messages
        try:
            async with asyncio.timeout(None if stream else s.timeout):
                async with self._client().stream("POST", s.url, json=body) as resp:
                    if resp.status_code != 200:
                        raw = await self._read(resp)
                        self._refuse(resp, raw)
                    if stream and resp.headers.get("content-type", "").startswith("text/event-stream"):
                        return await self._read_stream(resp, on_stream)
                    done = self._parse_body(await self._read(resp))
        except (TimeoutError, httpx.TimeoutException):
            raise Fault("timeout", f"no reply within {s.timeout:g} s") from None
        except httpx.TransportError as exc:
            raise Fault("connection", type(exc).__name__) from None
        if on_stream is not None:
            if done.reasoning:
                on_stream("reasoning", done.reasoning)
            for kind, text in ThinkSplitter().feed(done.content, final=True):
                on_stream(kind, text)
        return done

    async def _read(self, resp: httpx.Response) -> bytes:
        chunks, size = [], 0
        async for chunk in resp.aiter_bytes():
            size += len(chunk)
            if size > self.settings.max_reply_bytes:
                raise Fault("too_large", f"reply over {self.settings.max_reply_bytes} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    def _refuse(self, resp: httpx.Response, raw: bytes) -> None:
        status = resp.status_code
        err: dict[str, Any] = {}
        if status not in (401, 403):  # auth errors may echo part of the key
            try:
                err = _error_object(json.loads(raw.decode("utf-8"))) or {}
            except (ValueError, AttributeError):
                err = {"message": raw.decode("utf-8", "replace")[:400]} if raw else {}
            self._check_overflow(err)  # whatever the status: a 500 saying so is no better next time
        if status in RETRYABLE_STATUS:
            raise Fault(f"http_{status}", retry_after=retry_after_seconds(resp.headers.get("retry-after")))
        detail = str(err.get("message") or "")
        detail = f": {detail[:200]}" if detail else ""
        hint = " (check the API key variable)" if status in (401, 403) else ""
        raise EndpointDown(
            self.scrub(f"{self.settings.model} at {redact_url(self.settings.base_url)}: HTTP {status}{detail}{hint}")
        )

    def _check_overflow(self, err: Any) -> None:
        """Raise ContextOverflow, saying what to change, when ``err`` says the prompt is too long."""
        hit, size = context_overflow(err)
        if not hit:
            return
        said = err.get("n_prompt_tokens") if isinstance(err, dict) else None
        if not isinstance(said, int) and (
            m := PROMPT_SIZE.search(str(err.get("message") or "") if isinstance(err, dict) else str(err))
        ):
            said = int(next(g for g in m.groups() if g))
        prompt = sum(estimate_tokens(content_text(m.get("content"))) + 4 for m in getattr(self, "_messages", []))
        context = f"the server's context of {size} tokens" if size else "the server's context"
        budget = self.settings.history_tokens
        if size and size // 2 < budget:
            hint = f"try --history-tokens {max(500, size // 2)}"
        else:  # the budget is already small: the first message or the reply is what is long
            hint = "lower --history-tokens or --max-tokens"
        raise ContextOverflow(
            self.scrub(
                f"{self.settings.model} at {redact_url(self.settings.base_url)}: context overflow: the prompt "
                f"(about {prompt} estimated tokens) does not fit {context}; {hint} (now {budget}) or give the "
                "server a bigger context (llama.cpp: -c/--ctx-size; llama-cpp-python: --n_ctx; "
                "vLLM: --max-model-len); the game is errored, and rerunning it unchanged fails the same way"
            ),
            size,
            said if isinstance(said, int) else None,
        )

    @staticmethod
    def _decode(raw: bytes) -> Any:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Fault("bad_utf8", "reply is not UTF-8") from None
        try:
            return json.loads(text)
        except ValueError:
            raise Fault("bad_json", "reply is not JSON") from None

    def _parse_body(self, raw: bytes) -> Completion:
        obj = self._decode(raw)
        if not isinstance(obj, dict):
            raise Fault("bad_json", "reply is not a JSON object")
        if (err := _error_object(obj)) is not None:
            self._check_overflow(err)
            raise Fault("error_body", "reply carries an error")
        choices = obj.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise Fault("no_choices", "reply has no choices")
        choice = choices[0]
        msg = given if isinstance(given := choice.get("message"), dict) else {}
        content = content_text(msg.get("content"))
        reasoning = content_text(msg.get("reasoning_content")) or content_text(msg.get("reasoning"))
        finish = choice.get("finish_reason")
        if msg.get("content") is None and not reasoning and finish != "length":
            raise Fault("null_content", "reply has no content")
        usage = obj.get("usage") if isinstance(obj.get("usage"), dict) else None
        return Completion(content, reasoning, usage, finish)

    async def _read_stream(self, resp: httpx.Response, on_stream: StreamHook | None) -> Completion:
        decoder = codecs.getincrementaldecoder("utf-8")("strict")
        splitter = ThinkSplitter()
        content: list[str] = []
        reasoning: list[str] = []
        usage: dict[str, Any] | None = None
        finish: str | None = None
        ended = False
        events = 0
        size = 0
        buffer = ""

        def emit(kind: str, text: str) -> None:
            if on_stream is not None and text:
                on_stream(kind, text)

        def line(text: str) -> None:
            nonlocal usage, finish, ended, events
            text = text.rstrip("\r")
            if not text.startswith("data:"):
                return
            data = text[5:].strip()
            if data == "[DONE]":
                ended = True
                return
            obj = self._decode(data.encode("utf-8"))
            events += 1
            if not isinstance(obj, dict):
                raise Fault("bad_json", "stream event is not a JSON object")
            if (err := _error_object(obj)) is not None:
                self._check_overflow(err)
                raise Fault("error_body", "stream carries an error")
            if isinstance(obj.get("usage"), dict):
                usage = obj["usage"]
            for choice in obj.get("choices") or []:
                delta = choice.get("delta") or {}
                think = content_text(delta.get("reasoning_content")) or content_text(delta.get("reasoning"))
                if think:
                    reasoning.append(think)
                    emit("reasoning", think)
                piece = content_text(delta.get("content"))
                if piece:
                    content.append(piece)
                    for kind, part in splitter.feed(piece):
                        emit(kind, part)
                finish = choice.get("finish_reason") or finish

        async for chunk in resp.aiter_bytes():
            size += len(chunk)
            if size > self.settings.max_reply_bytes:
                raise Fault("too_large", f"stream over {self.settings.max_reply_bytes} bytes")
            try:
                buffer += decoder.decode(chunk)
            except UnicodeDecodeError:
                raise Fault("bad_utf8", "stream is not UTF-8") from None
            *lines, buffer = buffer.split("\n")
            for text in lines:
                line(text)
            if ended:
                break
        if not ended:
            try:
                buffer += decoder.decode(b"", final=True)
            except UnicodeDecodeError:
                raise Fault("bad_utf8", "stream is not UTF-8") from None
            line(buffer)
        for kind, part in splitter.feed("", final=True):
            emit(kind, part)
        if finish is None:
            if not events:  # llama-cpp-python, on a prompt over its context: ask unstreamed
                raise Fault("empty_stream", "200 with no events (the next try asks without streaming)")
            raise Fault("stream_cut", "stream ended without a finish_reason" + ("" if ended else " or [DONE]"))
        # An empty answer that finished is the model's answer (an invalid move), as unstreamed.
        return Completion("".join(content), "".join(reasoning), usage, finish)
