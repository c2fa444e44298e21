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
``policy`` (by default: a random card from the hand line of the last prompt;
``grid_policy`` plays grid games, reading the board from the prompt, ``eleusis_policy``
plays Eleusis and translates its guesses, ``duel_policy`` proposes and solves puzzle duels, and
``invalid_replies`` puts scripted invalid moves in front of another policy).
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
import re
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterable

from tcgtui import locales


REALISTIC_PACE = 40.0      # tokens a second: a small local model on a laptop
CHARS_PER_TOKEN = 4        # a paced stream sends about a token per event


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

    kind: str                       # status | delay | raw | drop | cut | empty_choices | null_content
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


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of parts (images left out)."""
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def has_image(request: dict[str, Any]) -> bool:
    """Whether some message of the request carries an ``image_url`` part with a data URL."""
    for m in request.get("messages", []):
        content = m.get("content")
        if isinstance(content, list):
            for p in content:
                if isinstance(p, dict) and p.get("type") == "image_url" and \
                        str((p.get("image_url") or {}).get("url", "")).startswith("data:image/"):
                    return True
    return False


def hand_labels() -> dict[str, str]:
    """The hand line's label in every language, e.g. ``Your hand:``."""
    out = {}
    for code in locales.available():
        text = locales.load(code)
        out[code] = text.t("prompts.turn.hand", list="").strip()
    return out


def hand_of(request: dict[str, Any]) -> list[str]:
    """Card names on the last hand line of the last user message (empty if none)."""
    messages = [m for m in request.get("messages", []) if m.get("role") == "user"]
    if not messages:
        return []
    for line in reversed(_text(messages[-1].get("content")).splitlines()):
        for code, label in hand_labels().items():
            if line.startswith(label):
                sep = locales.load(code).t("prompts.list_sep")
                return [n.strip() for n in line[len(label):].split(sep) if n.strip()]
    return []


def hand_policy(seed: int = 0, think: bool = False) -> Policy:
    """A fake model that plays a random card of its hand, seeded, optionally thinking first."""
    rng = random.Random(seed)

    def answer(request: dict[str, Any]) -> Reply:
        hand = hand_of(request)
        if not hand:
            return Reply("I cannot see my hand.")
        name = rng.choice(hand)
        return Reply(f"<BEGIN_MOVE>{name}<END_MOVE>",
                     reasoning=f"My hand is {', '.join(hand)}; I pick {name}." if think else None)
    return answer


# --- Eleusis ----------------------------------------------------------------------------------------

def _last_user(request: dict[str, Any]) -> str:
    messages = [m for m in request.get("messages", []) if m.get("role") == "user"]
    return _text(messages[-1].get("content")) if messages else ""


def eleusis_hand(request: dict[str, Any]) -> list[str]:
    """The cards of the hand line (``Your hand: 2♥ 5♠ ...``, in any language) of the last prompt."""
    labels = [locales.load(code).t("eleusis.prompts.hand") for code in locales.available()]
    for line in reversed(_last_user(request).splitlines()):
        for label in labels:
            if line.startswith(label):
                return line[len(label):].split()
    return []


def eleusis_policy(seed: int = 0, rule: str = "return True", guess_from: int = 0, confidence: int = 3,
                   translations: dict[str, str] | None = None) -> Policy:
    """A fake Eleusis scientist: a random card of its hand, the tentative ``rule`` every turn, a formal
    guess from its ``guess_from``-th reply on (0: never).  As a translator (``--judge``) it answers
    from ``translations`` (rule text -> code), ``return False`` for text it does not know."""
    rng = random.Random(seed)
    intros = [locales.load(code).t("eleusis.prompts.translate.intro") for code in locales.available()]
    rule_lines = [locales.load(code).t("eleusis.prompts.translate.rule", rule="") for code in locales.available()]
    turns = [0]

    def answer(request: dict[str, Any]) -> Reply:
        prompt = _last_user(request)
        if any(prompt.startswith(intro) for intro in intros):
            asked = next((line[len(lead):] for line in prompt.splitlines() for lead in rule_lines
                          if line.startswith(lead)), "")
            return Reply(f"<CODE>{(translations or {}).get(asked.strip(), 'return False')}</CODE>")
        hand = eleusis_hand(request)
        if not hand:
            return Reply("I cannot see my hand.")
        turns[0] += 1
        action = {"reasoning_summary": f"turn {turns[0]}", "card": rng.choice(hand), "tentative_rule": rule,
                  "confidence_level": confidence, "guess_rule": bool(guess_from) and turns[0] >= guess_from}
        return Reply(f"Thinking done.\n<ACTION>{json.dumps(action, ensure_ascii=False)}</ACTION>")
    return answer


# --- the deck-completion quiz ------------------------------------------------------------------------

_OPTION_LINE = re.compile(r"^([A-F])\. ", re.MULTILINE)
DECK_FORMS = ("answer", "letter", "boxed", "none")


def deck_policy(seed: int = 0, forms: tuple[str, ...] = ("answer",)) -> Policy:
    """A fake model that picks a random option letter it read in the quiz prompt (seeded) and
    writes it in each of ``forms`` in turn: ``answer`` (reasoning then ``ANSWER: X``),
    ``letter`` (the letter alone), ``boxed`` (``\\boxed{X}``) or ``none`` (no letter at all)."""
    rng = random.Random(seed)
    turn = iter(range(1 << 62))

    def answer(request: dict[str, Any]) -> Reply:
        messages = [m for m in request.get("messages", []) if m.get("role") == "user"]
        letters = _OPTION_LINE.findall(_text(messages[-1].get("content")) if messages else "")
        if len(letters) != 6:
            return Reply("I cannot see six options.")
        letter = rng.choice(letters)
        form = forms[next(turn) % len(forms)]
        return Reply({"answer": f"Option {letter} fits the curve best.\nANSWER: {letter}", "letter": letter,
                      "boxed": f"The best is \\boxed{{{letter}}}", "none": "They all look good to me."}[form])
    return answer


# --- grid games -------------------------------------------------------------------------------------

_EMPTY_MARKS = set("e.-_·")
_STONE = re.compile(r"^[A-Za-z]$")
_PAIR = re.compile(r"\(?\s*(\d+)\s*,\s*(\d+)\s*\)?")


@dataclass(frozen=True)
class GridShape:
    """What the fake model knows of the grid game it plays: the board's size and whether discs drop."""

    rows: int
    cols: int
    gravity: bool = False

    @classmethod
    def of(cls, game: str) -> GridShape:
        return {"tictactoe": cls(3, 3), "connect4": cls(6, 7, True), "gomoku": cls(15, 15)}[game]


def _cells(line: str) -> list[str] | None:
    """The cells of an illustration row (``| X | e | O |``, ``X . O``, ``3 | X | e |``), or None."""
    line = line.strip()
    if not line:
        return None
    tokens = [t.strip() for t in (line.split("|") if "|" in line else line.split())]
    tokens = [t for t in tokens if t]
    if len(tokens) == 1 and len(tokens[0]) > 1 and not tokens[0].isdigit():
        tokens = list(tokens[0])                   # one letter per cell, nothing between: "XeO"
    while tokens and tokens[0].isdigit():          # a row label
        tokens.pop(0)
    if not tokens or not all(len(t) == 1 and (t in _EMPTY_MARKS or _STONE.match(t)) for t in tokens):
        return None
    return tokens


def grid_board(request: dict[str, Any], shape: GridShape) -> set[tuple[int, int]] | None:
    """The occupied cells (0-based) of the board in the last user message; None if it is a picture.

    An illustration is ``rows`` consecutive lines of ``cols`` one-letter cells (``e`` or ``.``
    empty; ``XeO``, ``X e O`` or ``| X | e | O |``); the last one in the message counts.
    Otherwise the list form: every ``r,c`` pair (1-based) on a line holding ``:`` or ``;``
    that is not JSON (an echoed reply) is an occupied cell.
    """
    users = [m for m in request.get("messages", []) if m.get("role") == "user"]
    if not users or has_image(request):
        return None
    lines = _text(users[-1].get("content")).splitlines()
    found: list[list[str]] | None = None
    run: list[list[str]] = []
    for line in lines + [""]:
        cells = _cells(line)
        if cells is not None and len(cells) == shape.cols:
            run.append(cells)
            continue
        if len(run) >= shape.rows:
            found = run[-shape.rows:]
        run = []
    if found is not None:
        return {(r, c) for r, row in enumerate(found) for c, v in enumerate(row) if v not in _EMPTY_MARKS}
    taken: set[tuple[int, int]] = set()
    for line in lines:
        if "{" in line or "}" in line or not (";" in line or ":" in line):
            continue
        for r, c in _PAIR.findall(line):
            if 1 <= int(r) <= shape.rows and 1 <= int(c) <= shape.cols:
                taken.add((int(r) - 1, int(c) - 1))
    return taken


def grid_free(shape: GridShape, taken: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The 0-based cells a move may take (with gravity: each column's lowest empty cell)."""
    if shape.gravity:
        out = []
        for c in range(shape.cols):
            rows = [r for r in range(shape.rows) if (r, c) not in taken]
            if rows:
                out.append((max(rows), c))
        return out
    return [(r, c) for r in range(shape.rows) for c in range(shape.cols) if (r, c) not in taken]


def grid_answer(shape: GridShape, cell: tuple[int, int]) -> str:
    """The JSON answer naming a 0-based cell: ``{"row": r, "column": c}`` or ``{"column": c}``, 1-based."""
    if shape.gravity:
        return json.dumps({"column": cell[1] + 1})
    return json.dumps({"row": cell[0] + 1, "column": cell[1] + 1})


Board = Callable[[], "set[tuple[int, int]] | None"]


def grid_policy(game: str | GridShape, seed: int = 0, board: Board | None = None) -> Policy:
    """A fake model that plays a random legal move of a grid game, read from the prompt.

    ``board``: a callable giving the occupied cells when the prompt shows none in text
    (image prompts, whose board is a picture).
    """
    shape = game if isinstance(game, GridShape) else GridShape.of(game)
    rng = random.Random(seed)

    def answer(request: dict[str, Any]) -> Reply:
        taken = grid_board(request, shape)
        if taken is None and board is not None:
            taken = board()
        if taken is None:
            return Reply("I cannot see the board.")
        free = grid_free(shape, taken)
        if not free:
            return Reply("The board is full.")
        return Reply(grid_answer(shape, rng.choice(free)))
    return answer


def duel_solver_prompt(request: dict[str, Any]) -> str | None:
    """The puzzle code of a duel's solver prompt (in any language), or None for a proposer's prompt."""
    messages = request.get("messages") or []
    last = _text(messages[-1].get("content")) if messages else ""
    tasks = [locales.load(code).t("duel.prompts.solve.task") for code in locales.available()]
    if not any(task in last for task in tasks):
        return None
    found = re.search(r"```python\n(.*?)```", last, re.DOTALL)
    return found.group(1) if found else ""


def duel_policy(seed: int = 0, wrong: float = 0.0) -> Policy:
    """A fake model for puzzle duels: as proposer, a puzzle of the reference player's set in a
    markdown reply (its sample made wrong with probability ``wrong``); as solver, the reference
    player's guess from the code, with the SOLUTION line dressed in markdown now and then."""
    # start-up time: the duel's players only when a duel puzzle is asked
    from tcgtui.engine.duel.players import BUILTIN, guess
    rng = random.Random(seed)
    lock = threading.Lock()

    def answer(request: dict[str, Any]) -> Reply:
        code = duel_solver_prompt(request)
        with lock:
            if code is not None:
                value = guess(code, rng)
                line = rng.choice(("SOLUTION: {v}", "**SOLUTION:** `{v}`", "`SOLUTION: {v}`")).format(v=value)
                return Reply(f"Let me look at the constraints.\n\n{line}")
            puzzle = rng.choice(BUILTIN)
            sample = puzzle.solution if rng.random() >= wrong else puzzle.solution + " + 1"
        return Reply(f"Here is my puzzle.\n\n```python\n{puzzle.code}```\n\nPrivate: {puzzle.explanation}.\n\n"
                     f"SOLUTION: {sample}")
    return answer


INVALID_KINDS = ("format", "out_of_bounds", "taken")


def invalid_replies(schedule: dict[int, str] | list[str], then: Policy, game: str | GridShape = "tictactoe",
                    board: Board | None = None) -> Policy:
    """``then``, except that request ``i`` (from 0) gets an invalid reply of the kind ``schedule[i]``
    (a list: the first requests, in order): ``format`` (text with no move), ``out_of_bounds``
    (a cell off the board) or ``taken`` (an occupied cell; with gravity a full column if there
    is one).  Every request counts, whichever of the two answered it."""
    shape = game if isinstance(game, GridShape) else GridShape.of(game)
    plan = dict(enumerate(schedule)) if isinstance(schedule, list) else dict(schedule)
    seen = [0]
    lock = threading.Lock()

    def answer(request: dict[str, Any]) -> str | Reply:
        with lock:
            index = seen[0]
            seen[0] += 1
        kind = plan.get(index)
        if kind is None:
            return then(request)
        if kind == "format":
            return Reply("Hmm, the middle looks nice. I will go there, I think.")
        if kind == "out_of_bounds":
            if shape.gravity:
                return Reply(json.dumps({"column": shape.cols + 2}))
            return Reply(grid_answer(shape, (shape.rows + 1, shape.cols + 1)))
        if kind == "taken":
            taken = grid_board(request, shape)
            if taken is None and board is not None:
                taken = board()
            if not taken:
                raise ValueError(f"request {index}: no occupied cell to answer with")
            if shape.gravity:
                full = [c for c in range(shape.cols) if all((r, c) in taken for r in range(shape.rows))]
                if full:
                    return Reply(json.dumps({"column": full[0] + 1}))
            return Reply(grid_answer(shape, sorted(taken)[0]))
        raise ValueError(f"no invalid reply of kind {kind!r}; expected one of {', '.join(INVALID_KINDS)}")
    return answer


TEMPLATE_TOKENS = 5          # the fake chat template's tokens around each message (as ChatML's)


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
        return sum(len(_text(m.get("content"))) for m in messages) // 4
    return sum(tokenizer(_text(m.get("content"))) + TEMPLATE_TOKENS for m in messages) + 3


def _usage(reply: Reply, request: dict[str, Any], tokenizer: Tokenizer | None = None) -> dict[str, Any] | None:
    if reply.usage != "auto":
        return reply.usage  # type: ignore[return-value]
    prompt = prompt_tokens(request, tokenizer) * 4
    out = len(reply.content or "") + len(reply.reasoning or "")
    return {"prompt_tokens": prompt // 4, "completion_tokens": out // 4 + 1,
            "total_tokens": (prompt + out) // 4 + 1,
            "completion_tokens_details": {"reasoning_tokens": len(reply.reasoning or "") // 4}}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16        # headers and body leave in one write, flushed per reply or chunk
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:   # quiet
        pass

    def _send(self, status: int, body: bytes, content_type: str = "application/json",
              headers: dict[str, str] | None = None) -> None:
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
        owner.side.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, b"", None,
                                   time.monotonic()))
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
        if not self.path.rstrip("/").endswith("/chat/completions"):     # /tokenize, or nothing this serves
            owner.side.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, raw, request,
                                       time.monotonic()))
            if owner.tokenizer is None or not owner.exposes_tokenizer or self.path.rstrip("/") != "/tokenize" \
                    or not isinstance(request, dict) \
                    or not isinstance(request.get("content"), str):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            self._send(200, json.dumps({"tokens": list(range(owner.tokenizer(request["content"])))}).encode())
            return
        received = Received(self.path, {k.lower(): v for k, v in self.headers.items()}, raw, request,
                            time.monotonic())
        if owner.n_ctx is not None and isinstance(request, dict) and "messages" in request:
            n = prompt_tokens(request, owner.tokenizer)
            if n >= owner.n_ctx:         # llama.cpp's answer to a prompt over its context; no reply used up
                with owner._lock:
                    owner.requests.append(received)
                self._send(400, json.dumps({"error": {
                    "code": 400, "message": f"request ({n} tokens) exceeds the available context size "
                    f"({owner.n_ctx} tokens), try increasing it", "type": "exceed_context_size_error",
                    "n_prompt_tokens": n, "n_ctx": owner.n_ctx}}).encode())
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
        body: dict[str, Any] = {"id": "fake", "object": "chat.completion", "model": request.get("model"),
                                "choices": [{"index": 0, "message": message,
                                             "finish_reason": reply.finish_reason}]}
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
            obj = {"id": "fake", "object": "chat.completion.chunk", "model": request.get("model"),
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}
            self._chunk(b"data: " + json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n\n")

        event({"role": "assistant"})
        pace = self.server.owner.tokens_per_second
        pieces: list[tuple[str, str]] = []
        for fld, text in ((reply.reasoning_field, reply.reasoning), ("content", reply.content)):
            if text:
                size = CHARS_PER_TOKEN if pace > 0 else max(8, len(text) // 64)   # paced: a token per event
                pieces += [(fld, text[i:i + size]) for i in range(0, len(text), size)]
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

    def __init__(self, script: Iterable[str | Reply] = (), policy: Policy | None = None,
                 faults: Iterable[Fault | None] | Callable[[int, Received], Fault | None] = (),
                 host: str = "127.0.0.1", port: int = 0, tokens_per_second: float = 0.0,
                 context_length: int | None = None, props: bool = False, model_id: str = "fake",
                 n_ctx: int | None = None, says_context: str | None = None,
                 tokenizer: Tokenizer | None = None, exposes_tokenizer: bool = True) -> None:
        if not tokens_per_second >= 0:
            raise ValueError(f"tokens_per_second: {tokens_per_second} is not a pace; expected 0 or more")
        self.tokens_per_second = tokens_per_second
        self.script = [r if isinstance(r, Reply) else Reply(r) for r in script]
        self.policy = policy or hand_policy()
        self.faults = faults if callable(faults) else list(faults)
        self.requests: list[Received] = []
        self.side: list[Received] = []           # /props, /v1/models, /tokenize
        self.n_ctx, self.says_context, self.tokenizer = n_ctx, says_context, tokenizer
        self.exposes_tokenizer = exposes_tokenizer      # False: usage counts with it, /tokenize is absent
        self.gets: list[str] = []            # paths of GET requests (/v1/models, /props)
        self.in_flight = self.most_in_flight = 0     # chat requests being answered; the most at once
        self.context_length, self.props, self.model_id = context_length, props, model_id
        self._lock = threading.Lock()
        self._httpd = _Server((host, port), _Handler)
        self._httpd.owner = self
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
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
            if self.script:      # a faulted request shows the next reply without using it up
                return fault, self.script[0] if fault is not None else self.script.pop(0)
            policy = self.policy
        answer = policy(received.json or {})
        return fault, answer if isinstance(answer, Reply) else Reply(answer)

    def start(self) -> ChatServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True, name="fake-chat-server")
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
    parser = argparse.ArgumentParser(prog="python -m tcgtui.opponents.llm.testserver",
                                     description=text.t("llm_options.testserver.help"))
    parser.add_argument("--port", type=int, default=8765, help=text.t("llm_options.testserver.port"))
    parser.add_argument("--seed", type=int, default=0, help=text.t("llm_options.testserver.seed"))
    parser.add_argument("--think", action="store_true", help=text.t("llm_options.testserver.think"))
    parser.add_argument("--tokens-per-second", type=float, default=REALISTIC_PACE, metavar="N",
                        help=text.t("llm_options.testserver.pace", default=REALISTIC_PACE))
    args = parser.parse_args(argv)
    if not args.tokens_per_second >= 0:
        parser.error(text.t("llm_options.testserver.bad_pace", value=args.tokens_per_second))
    server = ChatServer(policy=hand_policy(args.seed, args.think), port=args.port,
                        tokens_per_second=args.tokens_per_second)
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
