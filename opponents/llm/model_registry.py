"""``models.toml``: named models, each with its endpoint, settings, limits, prices and facts.

Found by ``--models FILE``, else the ``TCGTUI_MODELS`` variable, else ``models.toml`` in
tcgtui's config directory (a missing default file is an empty registry; a named one
that is missing is an error).  Every top-level table is an entry; ``--agent llm:NAME``
plays it.  A key is never written in the file: an entry names the environment variable
that holds it (``api_key_env``), and a key-like setting is refused.  Every bad value is
one line naming the file, the entry, the setting and what was expected.

Read with ``tomllib`` only: ``tcgtui models`` and ``--help`` start light.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.opponents.llm.credentials import Refused, check_body, key_like_name, key_like_variable, url_has_key
from tcgtui.opponents.llm.endpoint import SAMPLING_RANGES
from tcgtui.userfiles import TooDeep, parse_toml, read_text

ENV = "TCGTUI_MODELS"
FLAG = "--models"
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # no ':', '@' or ',': specs use them
VARIABLE_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
NUMBERS = {"temperature": (0.0, 2.0), "top_p": (0.0, 1.0)}
COUNTS = ("max_tokens", "context_length", "concurrency")
PRICES = ("input", "output", "reasoning")
WEIGHTS = ("open", "closed")
MODES = ("regular", "thinking")  # a model's reasoning mode, for reports that compare the two
KEYS = (
    "base_url",
    "model",
    "api_key_env",
    "temperature",
    "top_p",
    "max_tokens",
    "extra_body",
    "stream",
    "context_length",
    "concurrency",
    "requests_per_minute",
    "prices",
    "facts",
)
FACTS = ("family", "organisation", "parameters", "weights", "mode")


@dataclass(frozen=True)
class Entry:
    """One model as the file describes it, checked."""

    name: str
    model: str
    base_url: str
    api_key_env: str | None = None
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    extra_body: dict[str, Any] = field(default_factory=dict)
    stream: bool = False
    context_length: int | None = None
    concurrency: int | None = None
    requests_per_minute: float | None = None
    prices: dict[str, float | None] = field(default_factory=dict)  # input, output, reasoning: USD/M tokens
    facts: dict[str, Any] = field(default_factory=dict)  # family, organisation, parameters_b, weights, mode

    def options(self) -> dict[str, Any]:
        """The entry as ``make_agent("llm:MODEL", **options)`` options; what it leaves unset is
        unset (None), never taken from the command's flags."""
        return {
            "entry": self.name,
            "base_url": self.base_url,
            "api_key_env": self.api_key_env,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "extra_body": dict(self.extra_body),
            "stream": self.stream,
            "context_length": self.context_length,
            "concurrency": self.concurrency,
            "requests_per_minute": self.requests_per_minute,
            "prices": dict(self.prices),
            "facts": dict(self.facts),
        }


@dataclass(frozen=True)
class Registry:
    path: Path | None
    entries: dict[str, Entry]

    def get(self, name: str) -> Entry | None:
        return self.entries.get(name)


def registry_path(flag: str | None = None) -> tuple[Path, bool]:
    """(where the registry is, whether it was named: a named file must exist)."""
    if flag:
        return Path(flag).expanduser(), True
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser(), True
    return Path(platformdirs.user_config_dir("tcgtui")) / "models.toml", False


def load(flag: str | None = None) -> Registry:
    """The registry ``--models``, ``TCGTUI_MODELS`` or the config directory names (empty when the
    default file does not exist)."""
    path, named = registry_path(flag)
    if not named and not path.exists():
        return Registry(None, {})
    source = FLAG if flag else ENV if named else ""
    return parse(read_text(source, path), str(path))


_CACHE: dict[tuple[Any, ...], Registry] = {}


def cached(flag: str | None = None) -> Registry:
    """``load``, read again only when the file changed (every agent a sweep builds asks)."""
    path, named = registry_path(flag)
    try:
        st = path.stat()
        stamp: tuple[Any, ...] = (str(path), st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (str(path), None, None)
    if stamp not in _CACHE:
        _CACHE.clear()
        _CACHE[stamp] = load(flag)
    return _CACHE[stamp]


class _Problem(UserError):
    pass


def _bad(file: str, entry: str, key: str, expected: str, **params: Any) -> UserError:
    text = locales.load()
    return _Problem(
        text.t("models.bad", file=file, entry=entry, key=key, expected=text.t(f"models.expected.{expected}", **params))
    )


def parse(text: str, file: str) -> Registry:
    """Check every entry of a models.toml text; raise UserError (one line) at the first bad value."""
    try:
        data = parse_toml(text)
    except TooDeep as exc:
        raise UserError(f"{file}: {exc}") from None
    except ValueError as exc:
        raise UserError(locales.load().t("models.not_toml", file=file, error=str(exc))) from None
    entries = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise _bad(file, name, name, "table")
        if not NAME_RE.fullmatch(name):
            raise _bad(file, name, "name", "name")
        entries[name] = _entry(file, name, table)
    return Registry(Path(file), entries)


def _number(
    file: str, name: str, key: str, value: Any, lo: float, hi: float | None = None, above: bool = False
) -> float:
    ok = (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and value == value
        and value not in (float("inf"), float("-inf"))
    )
    ok = ok and (value > lo if above else value >= lo) and (hi is None or value <= hi)
    if not ok:
        if hi is not None:
            raise _bad(file, name, key, "range", lo=lo, hi=hi)
        raise _bad(file, name, key, "above" if above else "at_least", lo=lo)
    return float(value)


def _count(file: str, name: str, key: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise _bad(file, name, key, "whole")
    return value


def _string(file: str, name: str, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(file, name, key, "string")
    return value.strip()


def _entry(file: str, name: str, table: dict[str, Any]) -> Entry:
    for key in table:
        if key not in KEYS and key_like_name(key):  # would hold a key: its value is never shown
            raise _bad(file, name, key, "no_key")
        if key not in KEYS:
            raise _bad(file, name, key, "known", keys=", ".join(KEYS))
    for key in ("base_url", "model"):
        if key not in table:
            raise _bad(file, name, key, "required")
    base_url = _string(file, name, "base_url", table["base_url"])
    m = re.match(r"(https?)://([^/?#]*)", base_url)
    if m is None or not m.group(2):
        raise _bad(file, name, "base_url", "url")
    if url_has_key(base_url):
        raise _bad(file, name, "base_url", "no_key")  # credentials in the URL are a key too
    out: dict[str, Any] = {
        "name": name,
        "model": _string(file, name, "model", table["model"]),
        "base_url": base_url.rstrip("/"),
    }
    if "api_key_env" in table:
        var = table["api_key_env"]
        if not isinstance(var, str) or not VARIABLE_RE.fullmatch(var) or key_like_variable(var):
            raise _bad(file, name, "api_key_env", "variable")  # the value may be a key: never shown
        out["api_key_env"] = var
    for key, (lo, hi) in NUMBERS.items():
        if key in table:
            out[key] = _number(file, name, key, table[key], lo, hi)
    for key in COUNTS:
        if key in table:
            out[key] = _count(file, name, key, table[key])
    if "requests_per_minute" in table:
        out["requests_per_minute"] = _number(
            file, name, "requests_per_minute", table["requests_per_minute"], 0, above=True
        )
    if "stream" in table:
        if not isinstance(table["stream"], bool):
            raise _bad(file, name, "stream", "bool")
        out["stream"] = table["stream"]
    if "extra_body" in table:
        extra = table["extra_body"]
        if not isinstance(extra, dict):
            raise _bad(file, name, "extra_body", "table")
        for key, (lo, hi) in SAMPLING_RANGES.items():
            if key in extra:
                _number(file, name, f"extra_body.{key}", extra[key], lo, hi)
        try:
            check_body(extra)
        except Refused as exc:
            raise _bad(file, name, exc.where, "no_key" if exc.why == "key" else "json") from None
        out["extra_body"] = extra
    if "prices" in table:
        out["prices"] = _prices(file, name, table["prices"])
    if "facts" in table:
        out["facts"] = _facts(file, name, table["facts"])
    return Entry(**out)


def _prices(file: str, name: str, table: Any) -> dict[str, float | None]:
    if not isinstance(table, dict):
        raise _bad(file, name, "prices", "table")
    for key in table:
        if key not in PRICES:
            raise _bad(file, name, f"prices.{key}", "known", keys=", ".join(PRICES))
    for key in ("input", "output"):
        if key not in table:
            raise _bad(file, name, f"prices.{key}", "required")
    return {key: _number(file, name, f"prices.{key}", table[key], 0) if key in table else None for key in PRICES}


def _facts(file: str, name: str, table: Any) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _bad(file, name, "facts", "table")
    for key in table:
        if key not in FACTS:
            raise _bad(file, name, f"facts.{key}", "known", keys=", ".join(FACTS))
    out: dict[str, Any] = {"family": None, "organisation": None, "parameters_b": None, "weights": None}
    for key in ("family", "organisation"):
        if key in table:
            out[key] = _string(file, name, f"facts.{key}", table[key])
    if "parameters" in table:
        out["parameters_b"] = _number(file, name, "facts.parameters", table["parameters"], 0, above=True)
    if "weights" in table:
        if table["weights"] not in WEIGHTS:
            raise _bad(file, name, "facts.weights", "weights")
        out["weights"] = table["weights"]
    if "mode" in table:  # only when given: most entries have none
        if table["mode"] not in MODES:
            raise _bad(file, name, "facts.mode", "mode")
        out["mode"] = table["mode"]
    return out
