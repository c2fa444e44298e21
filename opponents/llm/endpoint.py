"""Where a model lives and how to ask it: settings resolved from options and the environment.

The base URL comes from ``--base-url``, else ``TCGTUI_BASE_URL``, else
``OPENAI_BASE_URL``; there is no default, so nothing silently reaches the
internet.  The key comes only from the environment (a flag would show in
``ps`` and shell history) and never leaves this object except in the
``Authorization`` header: ``repr``, ``describe`` and errors show the URL
without credentials and never the key.  A models.toml entry names the variable
that holds its key (``api_key_env``); such an entry sends no key unless it names
one, so a local server never receives a provider's key.

``settings_hash`` is what keys a result: the settings that change what the model
is asked or how its reply counts, never where it is served, its key, timeouts,
retries of faults or request limits.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tcgtui import locales
from tcgtui.engine.prompting import FALLBACKS
from tcgtui.errors import OptionError
from tcgtui.opponents.base import check_number
from tcgtui.opponents.llm.credentials import Refused, check_body, url_has_key
from tcgtui.opponents.llm.reasoning import PARSE_MODES, STRICT

BASE_URL_VARS = ("TCGTUI_BASE_URL", "OPENAI_BASE_URL")
KEY_VARS = ("TCGTUI_API_KEY", "OPENAI_API_KEY", "OPENROUTER_API_KEY")
# Sampling settings as endpoints accept them (OpenAI's ranges), for --temperature and the same
# keys in --extra-body: a value outside (NaN and infinities included) is a typo, never sent or stored.
SAMPLING_RANGES = {
    "temperature": (0.0, 2.0),
    "top_p": (0.0, 1.0),
    "frequency_penalty": (-2.0, 2.0),
    "presence_penalty": (-2.0, 2.0),
}


def redact_url(url: str) -> str:
    """The URL without user:password, query or fragment: safe to show and record."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def resolve_base_url(explicit: str | None, env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    url = explicit or next((env[v] for v in BASE_URL_VARS if env.get(v)), "")
    if not url:
        raise OptionError(
            "--base-url: no endpoint given; pass --base-url URL or set TCGTUI_BASE_URL (e.g. http://localhost:8000/v1)"
        )
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OptionError(
            f"--base-url: {redact_url(url)!r} is not an http(s) URL; expected e.g. http://localhost:8000/v1"
        )
    if url_has_key(url):
        raise OptionError(locales.load().t("models.url_key", url=redact_url(url)))
    return url.strip().rstrip("/")


def check_extra_body(extra: Any, flag: str = "--extra-body") -> None:
    """A key-like field at any depth, or a value JSON cannot carry, is one line naming where."""
    try:
        check_body(extra)
    except Refused as exc:
        text = locales.load()
        raise OptionError(
            text.t(
                "models.body_refused",
                flag=flag,
                where=exc.where,
                expected=text.t(f"models.expected.{'no_key_here' if exc.why == 'key' else 'json'}"),
            )
        ) from None


def resolve_api_key(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    return next((env[v] for v in KEY_VARS if env.get(v)), "")


def key_from(variable: str | None, env: Mapping[str, str] | None = None, who: str = "") -> str:
    """The key a models.toml entry names by its variable ("" when it names none); an unset variable
    is refused, naming the variable, never a value."""
    if not variable:
        return ""
    env = os.environ if env is None else env
    if not env.get(variable):
        raise OptionError(locales.load().t("models.key_unset", who=who, var=variable))
    return env[variable]


@dataclass(frozen=True, repr=False)
class EndpointSettings:
    """Everything the client and agent need to talk to one model, validated."""

    model: str
    base_url: str
    api_key: str = field(default="", repr=False, compare=False)
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    extra_body: dict[str, Any] = field(default_factory=dict)
    timeout: float = 600.0  # a whole reply; with streaming, the longest silence
    max_retries: int = 6  # endpoint faults retried per request
    invalid_retries: int = 2  # re-prompts after an invalid move
    fallback: str = "random"
    parse: str = STRICT
    stream: bool = False
    history_tokens: int = 12000  # estimated prompt budget; rules and cards always kept
    backoff_base: float = 1.0  # first retry waits about this long, doubling after
    backoff_max: float = 60.0  # no single wait is longer, Retry-After included
    max_reply_bytes: int = 8 << 20  # a larger body is a fault, not a move
    context_length: int | None = None  # the server's context in tokens, when known beforehand
    concurrency: int | None = None  # requests in flight at once to this entry (None: no limit)
    requests_per_minute: float | None = None  # request starts a minute (None: no limit)
    entry: str | None = None  # the models.toml entry these settings come from
    prices: dict[str, float | None] = field(default_factory=dict)  # USD per million tokens
    facts: dict[str, Any] = field(default_factory=dict)  # family, organisation, ...

    def __repr__(self) -> str:
        return f"EndpointSettings({self.public()!r})"

    @property
    def url(self) -> str:
        return self.base_url + "/chat/completions"

    def public(self) -> dict[str, Any]:
        """What a record may say about this endpoint (no key, no credentials in the URL)."""
        return {
            "model": self.model,
            "base_url": redact_url(self.base_url),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "extra_body": self.extra_body,
            "stream": self.stream,
            "parse": self.parse,
            "invalid_retries": self.invalid_retries,
            "fallback": self.fallback,
            "history_tokens": self.history_tokens,
            "top_p": self.top_p,
            "context_length": self.context_length,
        }

    def behaviour(self) -> dict[str, Any]:
        """The settings that change what the model is asked or how its reply counts."""
        return {
            "model": self.model,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "extra_body": self.extra_body,
            "parse": self.parse,
            "fallback": self.fallback,
            "invalid_retries": self.invalid_retries,
            "history_tokens": self.history_tokens,
            "context_length": self.context_length,
        }

    def settings_hash(self) -> str:
        """Eight hex digits of ``behaviour()``: two settings of one model never share it."""
        text = json.dumps(self.behaviour(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:8]


def _number(
    options: Mapping[str, Any], key: str, flag: str, lo: float, kind: type, default: Any, hi: float | None = None
) -> Any:
    value = options.get(key)
    if value is None:
        return default
    check_number(flag, value, lo, hi)
    return kind(value)


def settings_from_options(
    model: str, options: Mapping[str, Any], env: Mapping[str, str] | None = None
) -> EndpointSettings:
    """Validate the options ``make_agent`` received (from the CLI or a program)."""
    d = EndpointSettings.__dataclass_fields__
    fallback = options.get("fallback") or "random"
    if fallback not in FALLBACKS:
        raise OptionError(f"--fallback: {fallback!r} is not a fallback; expected random or forfeit")
    parse = options.get("parse") or STRICT
    if parse not in PARSE_MODES:
        raise OptionError(f"--parse: {parse!r} is not a parse mode; expected strict or soft")
    extra = options.get("extra_body") or {}
    if not isinstance(extra, dict):
        raise OptionError("--extra-body: expected a JSON object such as '{\"top_p\": 0.9}'")
    check_extra_body(extra)
    for key, (lo, hi) in SAMPLING_RANGES.items():
        if key in extra:
            check_number(f"--extra-body {key}", extra[key], lo, hi)
    if "api_key_env" in options:  # a models.toml entry: its own variable, else no key at all
        api_key = options.get("api_key") or key_from(options["api_key_env"], env, f"llm:{options.get('entry')}")
    else:
        api_key = options.get("api_key") or resolve_api_key(env)
    return EndpointSettings(
        model=model,
        base_url=resolve_base_url(options.get("base_url"), env),
        api_key=api_key,
        temperature=_number(options, "temperature", "--temperature", 0, float, None, 2.0),
        top_p=_number(options, "top_p", "top_p", 0, float, None, 1.0),
        max_tokens=_number(options, "max_tokens", "--max-tokens", 1, int, None),
        extra_body=dict(extra),
        timeout=_number(options, "timeout", "--timeout", 0.001, float, d["timeout"].default),
        max_retries=_number(options, "max_retries", "--max-retries", 0, int, d["max_retries"].default),
        invalid_retries=_number(options, "invalid_retries", "--invalid-retries", 0, int, d["invalid_retries"].default),
        fallback=fallback,
        parse=parse,
        stream=bool(options.get("stream", False)),
        history_tokens=_number(options, "history_tokens", "--history-tokens", 1, int, d["history_tokens"].default),
        backoff_base=_number(options, "backoff_base", "backoff_base", 0, float, d["backoff_base"].default),
        backoff_max=_number(options, "backoff_max", "backoff_max", 0, float, d["backoff_max"].default),
        max_reply_bytes=_number(options, "max_reply_bytes", "max_reply_bytes", 1, int, d["max_reply_bytes"].default),
        context_length=_number(options, "context_length", "--context-length", 1, int, None),
        concurrency=_number(options, "concurrency", "concurrency", 1, int, None),
        requests_per_minute=_number(options, "requests_per_minute", "requests_per_minute", 0.001, float, None),
        entry=options.get("entry"),
        prices=dict(options.get("prices") or {}),
        facts=dict(options.get("facts") or {}),
    )
