"""How big the model's context is and how many tokens a conversation takes, so the prompt fits.

The context is learned once per endpoint (base URL and model) and process: ``context_length``
when the settings give it (the model registry, ``--context-length``), else from the server
(llama.cpp's ``GET /props``: ``default_generation_settings.n_ctx`` or ``n_ctx``; vLLM's
``max_model_len`` in ``GET /v1/models``), else from the first context-overflow error (which
llama-cpp-python's server is the only way to learn it from).

Tokens are counted with the server's tokenizer where it has one (llama.cpp's ``POST /tokenize``
``{"content"}``, llama-cpp-python's ``POST /extras/tokenize`` ``{"input"}``, vLLM's ``POST /tokenize``
``{"prompt"}``), each message's text once, plus ``MESSAGE_OVERHEAD`` tokens of chat template per
message; else with ``tokens.estimate_tokens`` scaled by what the server's ``usage.prompt_tokens``
said of the prompts sent so far (the largest ratio seen: an estimator can be 2.3 times low on
Arabic).  Either count is corrected by the server's ``usage`` when it says more.

The prompt gets what the context leaves after the reply: ``max_tokens`` when set, else
``REPLY_RESERVE``.  The first message and the current turn always go; older turns go first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from tcgtui.opponents.llm.prompts import IMAGE_TOKENS, Message, content_text, message_tokens

REPLY_RESERVE = 1024  # tokens kept for the reply when max_tokens is not set
MESSAGE_OVERHEAD = 8  # chat-template tokens around one message (ChatML and Llama 3: 5)
PROMPT_OVERHEAD = 8  # BOS and the header of the reply to come
MIN_CALIBRATION_TOKENS = 200  # shorter prompts are mostly template: they say little of the estimate
CACHED_TEXTS = 4096  # counted texts kept per endpoint (a game's turns, the rules)

GetJson = Callable[[str, "dict[str, Any] | None"], Awaitable[Any]]


def server_root(base_url: str) -> str:
    """The server's root, where llama.cpp and vLLM serve ``/props`` and ``/tokenize``."""
    url = base_url.rstrip("/")
    return url[:-3] if url.endswith("/v1") else url


def context_from_props(props: Any) -> int | None:
    """llama.cpp's ``/props``: the slot's ``n_ctx`` (what one request may use), else the server's."""
    if not isinstance(props, dict):
        return None
    slot = props.get("default_generation_settings")
    for value in ((slot or {}).get("n_ctx") if isinstance(slot, dict) else None, props.get("n_ctx")):
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def context_from_models(models: Any, model: str) -> int | None:
    """vLLM's ``/v1/models``: ``max_model_len`` of the entry named ``model`` (or the only one)."""
    data = models.get("data") if isinstance(models, dict) else None
    if not isinstance(data, list):
        return None
    entries = [m for m in data if isinstance(m, dict)]
    chosen = [m for m in entries if m.get("id") == model] or (entries if len(entries) == 1 else [])
    for m in chosen:
        value = m.get("max_model_len")
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


# (path under the server's root, the body for a text): the first that answers with tokens is used.
TOKENIZERS = (
    ("/tokenize", lambda model, text: {"content": text, "add_special": False}),
    ("/extras/tokenize", lambda model, text: {"input": text, "model": model}),
    ("/tokenize", lambda model, text: {"prompt": text, "model": model, "add_special_tokens": False}),
)


def _tokens(reply: Any) -> int | None:
    if isinstance(reply, dict) and isinstance(reply.get("tokens"), list):
        return len(reply["tokens"])
    return None


@dataclass
class EndpointContext:
    """What is known of one endpoint's context and tokenizer, shared by every game in the process."""

    n_ctx: int | None = None
    source: str = ""  # settings, props, models, overflow
    tokenizer: int | None = None  # index in TOKENIZERS, or None: estimate
    learned: bool = False
    scale: float = 1.0  # server's prompt tokens / our count, the largest seen
    counts: OrderedDict[str, int] = field(default_factory=OrderedDict)


_ENDPOINTS: dict[tuple[str, str], EndpointContext] = {}


def endpoint_context(base_url: str, model: str) -> EndpointContext:
    return _ENDPOINTS.setdefault((server_root(base_url), model), EndpointContext())


class ContextFit:
    """One agent's view of its endpoint's context: learn it, count prompts, keep what fits."""

    def __init__(
        self, base_url: str, model: str, context_length: int | None, max_tokens: int | None, get_json: GetJson
    ) -> None:
        self.root, self.model = server_root(base_url), model
        self.state = endpoint_context(base_url, model)
        if context_length is not None:
            self.state.n_ctx, self.state.source = context_length, "settings"
        self.reserve = max_tokens if max_tokens is not None else REPLY_RESERVE
        self.get_json = get_json

    @property
    def n_ctx(self) -> int | None:
        return self.state.n_ctx

    @property
    def counted_by(self) -> str:
        """How prompts are counted: "tokenizer" or "estimate"."""
        return "estimate" if self.state.tokenizer is None else "tokenizer"

    async def learn(self) -> None:
        """Ask the server once (per endpoint and process) for its context and tokenizer.  Games that
        start together may each ask: the answers are the same.  A server that cannot be reached is
        not asked further (the game itself will meet that, with its retries)."""
        st = self.state
        if st.learned:
            return
        try:
            if st.n_ctx is None:
                size = context_from_props(await self.get_json(self.root + "/props", None))
                if size is not None:
                    st.n_ctx, st.source = size, "props"
            if st.n_ctx is None:
                size = context_from_models(await self.get_json(self.root + "/v1/models", None), self.model)
                if size is not None:
                    st.n_ctx, st.source = size, "models"
            for index, (path, body) in enumerate(TOKENIZERS):
                if _tokens(await self.get_json(self.root + path, body(self.model, "hello"))):
                    st.tokenizer = index
                    break
        except httpx.TransportError:
            pass
        st.learned = True

    async def _text_tokens(self, text: str) -> int:
        st = self.state
        if st.tokenizer is None or not text:
            return message_tokens({"content": text}) - 4
        hit = st.counts.get(text)
        if hit is not None:
            st.counts.move_to_end(text)
            return hit
        path, body = TOKENIZERS[st.tokenizer]
        try:
            n = _tokens(await self.get_json(self.root + path, body(self.model, text)))
        except httpx.TransportError:
            n = None
        if n is None:  # the tokenizer stopped answering: estimate from here on
            st.tokenizer = None
            return message_tokens({"content": text}) - 4
        st.counts[text] = n
        if len(st.counts) > CACHED_TEXTS:
            st.counts.popitem(last=False)
        return n

    async def _message(self, msg: Message) -> int:
        content = msg.get("content")
        if isinstance(content, list):
            images = sum(
                1 for p in content if isinstance(p, dict) and (p.get("type") == "image_url" or "image_url" in p)
            )
            return await self._text_tokens(content_text(content)) + images * IMAGE_TOKENS + MESSAGE_OVERHEAD
        return await self._text_tokens(content_text(content)) + MESSAGE_OVERHEAD

    async def count(self, messages: list[Message], scaled: bool = True) -> int:
        """About how many prompt tokens the server will count for ``messages``: scaled by the largest
        ratio of the server's count to ours seen so far, unless ``scaled`` is False."""
        raw = PROMPT_OVERHEAD
        for msg in messages:
            raw += await self._message(msg)
        return int(raw * self.state.scale + 0.999) if scaled else raw

    def observe(self, counted: int, server_tokens: int) -> None:
        """The server's ``usage.prompt_tokens`` for a prompt counted ``counted`` (before scaling)."""
        if counted >= MIN_CALIBRATION_TOKENS and server_tokens > 0:
            self.state.scale = max(self.state.scale, server_tokens / counted)

    def overflowed(self, size: int | None) -> None:
        """A server said the prompt does not fit: its context, when it said how big."""
        if size is not None and (self.state.n_ctx is None or self.state.source != "settings"):
            self.state.n_ctx, self.state.source = size, "overflow"

    @property
    def prompt_limit(self) -> int | None:
        """The most prompt tokens that leave room for the reply, or None while the context is unknown."""
        return None if self.state.n_ctx is None else self.state.n_ctx - self.reserve

    async def keep(self, system: Message | None, turns: list[Any], current: list[Message]) -> list[Any]:
        """The most recent of ``turns`` (each with ``.messages``) that fit with the first message and
        ``current``; all of them while the context is unknown."""
        limit = self.prompt_limit
        if limit is None or not turns:
            return turns
        head = ([system] if system is not None else []) + current
        left = limit - await self.count(head)
        kept = 0
        for turn in reversed(turns):
            size = int(sum([await self._message(m) for m in turn.messages]) * self.state.scale + 0.999)
            if size > left:
                break
            left -= size
            kept += 1
        return turns[len(turns) - kept :]
