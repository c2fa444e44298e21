"""A local stand-in for an OpenAI-compatible endpoint: scripted replies, faults on cue.

Tests of the LLM path, the TUI and the bench use it, and so can anyone who
wants to try ``llm:`` without a model::

    python -m tcgtui.opponents.llm.testserver --port 8765
    tcgtui play --vs llm:fake --base-url http://127.0.0.1:8765/v1

It speaks ``POST /v1/chat/completions`` (JSON or a server-sent event stream)
with the Python standard library only, and ``GET /v1/models`` (with vLLM's
``max_model_len`` when given a ``context_length``) and, as llama.cpp's server,
``GET /props`` (its ``n_ctx``) when ``props`` is set.  Request ``i`` meets ``faults[i]`` (if
any); requests that get through take the next scripted reply, else ask
``policy`` (by default: the default game's fake model).  ``game_policy(GAME, seed, **options)``
answers as a game's package says (``GameSpec.fake_model``: the server names no game), and
``invalid_replies`` puts scripted unusable replies of that game in front of another policy.
A fault never uses up a scripted reply, so a script lists only what succeeds.
Every request is recorded, headers included, so tests can check what was sent.

Like llama.cpp's server it can have a context (``n_ctx``: a longer prompt gets llama.cpp's 400,
``exceed_context_size_error``), say it (``says_context``: ``GET /props`` as llama.cpp, or
``max_model_len`` in ``GET /v1/models`` as vLLM) and count tokens (``tokenizer``: ``POST /tokenize``
as llama.cpp, unless ``exposes_tokenizer`` is False; ``usage`` then counts with it, plus a chat
template's tokens per message).
``fake_tokens`` is a tokenizer like a small model's that has no Arabic merges: a token per
four ASCII characters, one per other character.  These side requests are kept in ``side``.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.opponents.llm.prompts import content_text

REALISTIC_PACE = 40.0  # tokens a second: a small local model on a laptop
CHARS_PER_TOKEN = 4  # a paced stream sends about a token per event


@dataclass
class Reply:
    """One model reply; ``usage="auto"`` counts characters / 4, None leaves usage out."""

    content: str | None
    reasoning: str | None = None
    reasoning_field: str = "reasoning_content"
    usage: dict[str, Any] | str | None = "auto"
    finish_reason: str = "stop"


@dataclass
class Fault:
    """What goes wrong with one request."""

    kind: str  # status | delay | raw | drop | cut | empty_choices | null_content
    status: int = 500
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    seconds: float = 0.0
    content_type: str = "application/json"

    @classmethod
    def http(cls, status: int, retry_after: str | None = None) -> Fault:
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        body = json.dumps({"error": {"message": f"fake error {status}", "code": status}}).encode()
        return cls("status", status=status, headers=headers, body=body)

    @classmethod
    def delay(cls, seconds: float) -> Fault:
        return cls("delay", seconds=seconds)

    @classmethod
    def raw(cls, body: bytes, content_type: str = "application/json") -> Fault:
        return cls("raw", body=body, content_type=content_type)

    @classmethod
    def drop(cls) -> Fault:
        return cls("drop")

    @classmethod
    def cut(cls) -> Fault:
        return cls("cut")

    @classmethod
    def empty_choices(cls) -> Fault:
        return cls("empty_choices")

    @classmethod
    def null_content(cls) -> Fault:
        return cls("null_content")


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any
    at: float


Policy = Callable[[dict[str, Any]], "str | Reply"]


def has_image(request: dict[str, Any]) -> bool:
    """Whether some message of the request carries an ``image_url`` part with a data URL."""
    for m in request.get("messages", []):
        content = m.get("content")
        if isinstance(content, list):
            for p in content:
                if (
                    isinstance(p, dict)
                    and p.get("type") == "image_url"
                    and str((p.get("image_url") or {}).get("url", "")).startswith("data:image/")
                ):
                    return True
    return False


def catalogs() -> list[locales.Catalog]:
    """The prompts' text in every language: a fake reply reads a prompt written in any of them."""
    return [locales.load(code) for code in locales.available()]


def prompt_of(request: dict[str, Any]) -> str:
    """The text of the last user message of a request ("" if there is none)."""
    messages = [m for m in request.get("messages", []) if m.get("role") == "user"]
    return content_text(messages[-1].get("content")) if messages else ""


def game_policy(game: str = "", seed: int = 0, **options: Any) -> Policy:
    """A fake model for ``game`` (default: the default game), seeded: the replies its package gives
    (``GameSpec.fake_model``) with its own ``options`` (its ``player``'s keyword arguments).  Safe to
    call from the server's threads."""
    spec = registry.get(game or registry.DEFAULT)
    if spec.fake_model is None:
        raise ValueError(f"{spec.id} gives no fake replies")
    reply = spec.fake_model.player(spec.id, catalogs(), random.Random(seed), **options)
    lock = threading.Lock()

    def answer(request: dict[str, Any]) -> Reply:
        with lock:
            out = reply(prompt_of(request), has_image(request))
        return Reply(*out) if isinstance(out, tuple) else Reply(out)

    return answer


def invalid_replies(schedule: dict[int, str] | list[str], then: Policy, game: str, **options: Any) -> Policy:
    """``then``, except that request ``i`` (from 0) gets an unusable reply of the kind ``schedule[i]``
    (a list: the first requests, in order), as ``game``'s package writes it (``FakeModel.invalid``, one
    of its ``invalid_kinds``).  Every request counts, whichever of the two
    answered it."""
    spec = registry.get(game)
    model = spec.fake_model
    if model is None or model.invalid is None:
        raise ValueError(f"{spec.id} gives no invalid replies")
    invalid = model.invalid
    plan = dict(enumerate(schedule)) if isinstance(schedule, list) else dict(schedule)
    unknown = sorted(set(plan.values()) - set(model.invalid_kinds))
    if unknown:
        raise ValueError(f"no invalid reply of kind {unknown[0]!r}; expected one of {', '.join(model.invalid_kinds)}")
    seen = [0]
    lock = threading.Lock()

    def answer(request: dict[str, Any]) -> str | Reply:
        with lock:
            index = seen[0]
            seen[0] += 1
        kind = plan.get(index)
        if kind is None:
            return then(request)
        try:
            return Reply(invalid(spec.id, kind, prompt_of(request), has_image(request), **options))
        except ValueError as exc:
            raise ValueError(f"request {index}: {exc}") from None

    return answer


TEMPLATE_TOKENS = 5  # the fake chat template's tokens around each message (as ChatML's)


def fake_tokens(text: str) -> int:
    """A small model's count without Arabic merges: a token per 4 ASCII characters, 1 per other."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    return -(-ascii_chars // 4) + len(text) - ascii_chars


Tokenizer = Callable[[str], int]


def prompt_tokens(request: dict[str, Any], tokenizer: Tokenizer | None) -> int:
    """The prompt's tokens: with a tokenizer, its count of each message plus the template's;
    without, all the characters / 4."""
    messages = request.get("messages", [])
    if tokenizer is None:
        return sum(len(content_text(m.get("content"))) for m in messages) // 4
    return sum(tokenizer(content_text(m.get("content"))) + TEMPLATE_TOKENS for m in messages) + 3


def _usage(reply: Reply, request: dict[str, Any], tokenizer: Tokenizer | None = None) -> dict[str, Any] | None:
    if reply.usage != "auto":
        return reply.usage  # type: ignore[return-value]
    prompt = prompt_tokens(request, tokenizer) * 4
    out = len(reply.content or "") + len(reply.reasoning or "")
    return {
        "prompt_tokens": prompt // 4,
        "completion_tokens": out // 4 + 1,
        "total_tokens": (prompt + out) // 4 + 1,
        "completion_tokens_details": {"reasoning_tokens": len(reply.reasoning or "") // 4},
    }


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16  # headers and body leave in one write, flushed per reply or chunk
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(
        self, status: int, body: bytes, content_type: str = "application/json", headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _hang_up(self) -> None:
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def do_GET(self) -> None:
        owner = self.server.owner
        with owner._lock:
            owner.gets.append(self.path)
        owner.side.append(
            Received(self.path, {k.lower(): v for k, v in self.headers.items()}, b"", None, time.monotonic())
        )
        path = self.path.split("?")[0].rstrip("/")
        ctx = owner.context_length if owner.context_length is not None else owner.n_ctx
        props = owner.props or owner.says_context == "props"
        in_models = (owner.context_length is not None and not owner.props) or owner.says_context == "models"
        if path.endswith("/models"):
            model: dict[str, Any] = {"id": owner.model_id, "object": "model", "owned_by": "tcgtui-test"}
            if ctx is not None and in_models:
                model["max_model_len"] = ctx
            self._send(200, json.dumps({"object": "list", "data": [model]}).encode())
        elif path.endswith("/props") and props and ctx is not None:
            self._send(200, json.dumps({"default_generation_settings": {"n_ctx": ctx}, "total_slots": 1}).encode())
        else:
            self._send(404, b'{"error": {"message": "not found"}}')

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            request = json.loads(raw)
        except ValueError:
            request = None
        owner = self.server.owner
        if not self.path.rstrip("/").endswith("/chat/completions"):  # /tokenize, or nothing this serves
            owner.side.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, raw, request, time.monotonic())
            )
            if (
                owner.tokenizer is None
                or not owner.exposes_tokenizer
                or self.path.rstrip("/") != "/tokenize"
                or not isinstance(request, dict)
                or not isinstance(request.get("content"), str)
            ):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            self._send(200, json.dumps({"tokens": list(range(owner.tokenizer(request["content"])))}).encode())
            return
        received = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, raw, request, time.monotonic())
        if owner.n_ctx is not None and isinstance(request, dict) and "messages" in request:
            n = prompt_tokens(request, owner.tokenizer)
            if n >= owner.n_ctx:  # llama.cpp's answer to a prompt over its context; no reply used up
                with owner._lock:
                    owner.requests.append(received)
                self._send(
                    400,
                    json.dumps(
                        {
                            "error": {
                                "code": 400,
                                "message": f"request ({n} tokens) exceeds the available context size "
                                f"({owner.n_ctx} tokens), try increasing it",
                                "type": "exceed_context_size_error",
                                "n_prompt_tokens": n,
                                "n_ctx": owner.n_ctx,
                            }
                        }
                    ).encode(),
                )
                return
        fault, reply = owner._next(received)
        with owner._lock:
            owner.in_flight += 1
            owner.most_in_flight = max(owner.most_in_flight, owner.in_flight)
        try:
            self._answer(request or {}, fault, reply)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            with owner._lock:
                owner.in_flight -= 1

    def _answer(self, request: dict[str, Any], fault: Fault | None, reply: Reply | None) -> None:
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, b'{"error": {"message": "not found"}}')
            return
        stream = bool(request.get("stream"))
        if fault is not None:
            if fault.kind == "status":
                self._send(fault.status, fault.body, headers=fault.headers)
                return
            if fault.kind == "raw":
                self._send(200, fault.body, fault.content_type)
                return
            if fault.kind == "drop":
                self._hang_up()
                return
            if fault.kind == "delay":
                time.sleep(fault.seconds)
            if fault.kind == "empty_choices":
                self._send(200, json.dumps({"id": "fake", "object": "chat.completion", "choices": []}).encode())
                return
            if fault.kind == "null_content":
                reply = Reply(None)
        assert reply is not None
        cut = fault is not None and fault.kind == "cut"
        if stream:
            self._stream(request, reply, cut)
            return
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.reasoning is not None:
            message[reply.reasoning_field] = reply.reasoning
        body: dict[str, Any] = {
            "id": "fake",
            "object": "chat.completion",
            "model": request.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
        }
        usage = _usage(reply, request, self.server.owner.tokenizer)
        if usage is not None:
            body["usage"] = usage
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        if cut:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self._hang_up()
            return
        self._send(200, data)

    def _stream(self, request: dict[str, Any], reply: Reply, cut: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def event(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> None:
            obj = {
                "id": "fake",
                "object": "chat.completion.chunk",
                "model": request.get("model"),
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                **extra,
            }
            self._chunk(b"data: " + json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n\n")

        event({"role": "assistant"})
        pace = self.server.owner.tokens_per_second
        pieces: list[tuple[str, str]] = []
        for fld, text in ((reply.reasoning_field, reply.reasoning), ("content", reply.content)):
            if text:
                size = CHARS_PER_TOKEN if pace > 0 else max(8, len(text) // 64)  # paced: a token per event
                pieces += [(fld, text[i : i + size]) for i in range(0, len(text), size)]
        for n, (fld, text) in enumerate(pieces):
            if cut and n >= max(1, len(pieces) // 2):
                self._hang_up()
                return
            if pace > 0:
                time.sleep(1 / pace)
            event({fld: text})
        if cut:
            self._hang_up()
            return
        event({}, reply.finish_reason)
        usage = _usage(reply, request, self.server.owner.tokenizer)
        if usage is not None and (request.get("stream_options") or {}).get("include_usage"):
            obj = {"id": "fake", "object": "chat.completion.chunk", "choices": [], "usage": usage}
            self._chunk(b"data: " + json.dumps(obj).encode() + b"\n\n")
        self._chunk(b"data: [DONE]\n\n")
        self._chunk(b"")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: ChatServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-reply (a cut stream, a timeout under test) is what the tests
        make happen, not a server fault: no traceback for it."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ChatServer:
    """A fake endpoint on 127.0.0.1 (port 0: any free port), served from a background thread.

    ``tokens_per_second`` paces a streamed reply like a model writing it (0: all at once,
    what tests want; the command line defaults to ``REALISTIC_PACE`` so streaming is seen)."""

    def __init__(
        self,
        script: Iterable[str | Reply] = (),
        policy: Policy | None = None,
        faults: Iterable[Fault | None] | Callable[[int, Received], Fault | None] = (),
        host: str = "127.0.0.1",
        port: int = 0,
        tokens_per_second: float = 0.0,
        context_length: int | None = None,
        props: bool = False,
        model_id: str = "fake",
        n_ctx: int | None = None,
        says_context: str | None = None,
        tokenizer: Tokenizer | None = None,
        exposes_tokenizer: bool = True,
    ) -> None:
        if not tokens_per_second >= 0:
            raise ValueError(f"tokens_per_second: {tokens_per_second} is not a pace; expected 0 or more")
        self.tokens_per_second = tokens_per_second
        self.script = [r if isinstance(r, Reply) else Reply(r) for r in script]
        self.policy = policy or game_policy()
        self.faults = faults if callable(faults) else list(faults)
        self.requests: list[Received] = []
        self.side: list[Received] = []  # /props, /v1/models, /tokenize
        self.n_ctx, self.says_context, self.tokenizer = n_ctx, says_context, tokenizer
        self.exposes_tokenizer = exposes_tokenizer  # False: usage counts with it, /tokenize is absent
        self.gets: list[str] = []  # paths of GET requests (/v1/models, /props)
        self.in_flight = self.most_in_flight = 0  # chat requests being answered; the most at once
        self.context_length, self.props, self.model_id = context_length, props, model_id
        self._lock = threading.Lock()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.owner = self
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        assert isinstance(host, str)  # an AF_INET server's address
        return f"http://{host}:{port}/v1"

    def _next(self, received: Received) -> tuple[Fault | None, Reply | None]:
        with self._lock:
            index = len(self.requests)
            self.requests.append(received)
            if callable(self.faults):
                fault = self.faults(index, received)
            else:
                fault = self.faults[index] if index < len(self.faults) else None
            if fault is not None and fault.kind not in ("delay", "cut", "null_content"):
                return fault, None
            if self.script:  # a faulted request shows the next reply without using it up
                return fault, self.script[0] if fault is not None else self.script.pop(0)
            policy = self.policy
        answer = policy(received.json or {})
        return fault, answer if isinstance(answer, Reply) else Reply(answer)

    def start(self) -> ChatServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True, name="fake-chat-server"
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ChatServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    text = locales.load()
    parser = argparse.ArgumentParser(
        prog="python -m tcgtui.opponents.llm.testserver", description=text.t("llm_options.testserver.help")
    )
    parser.add_argument("--port", type=int, default=8765, help=text.t("llm_options.testserver.port"))
    parser.add_argument("--seed", type=int, default=0, help=text.t("llm_options.testserver.seed"))
    parser.add_argument("--think", action="store_true", help=text.t("llm_options.testserver.think"))
    parser.add_argument(
        "--tokens-per-second",
        type=float,
        default=REALISTIC_PACE,
        metavar="N",
        help=text.t("llm_options.testserver.pace", default=REALISTIC_PACE),
    )
    args = parser.parse_args(argv)
    if not args.tokens_per_second >= 0:
        parser.error(text.t("llm_options.testserver.bad_pace", value=args.tokens_per_second))
    server = ChatServer(
        policy=game_policy(seed=args.seed, think=args.think), port=args.port, tokens_per_second=args.tokens_per_second
    )
    print(text.t("llm_options.testserver.ready", url=server.base_url), flush=True)
    try:
        server._httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._httpd.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
