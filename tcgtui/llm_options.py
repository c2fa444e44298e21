"""The endpoint flags shared by ``play``, ``watch`` and ``bench``.

``add_endpoint_arguments`` puts them on a parser; ``endpoint_options`` turns
the parsed values into the options ``make_agent("llm:MODEL", **options)``
takes.  Flags left out stay out of the dict, so the agent's defaults (and the
environment, for the base URL) apply; nothing here needs an endpoint unless
an ``llm:`` player is actually built.
"""

from __future__ import annotations

import argparse
from typing import Any

from tcgtui import locales
from tcgtui.engine.prompting import FALLBACKS
from tcgtui.opponents.llm.endpoint import SAMPLING_RANGES, check_extra_body
from tcgtui.opponents.llm.reasoning import PARSE_MODES
from tcgtui.console_text import shorten
from tcgtui.errors import UserError
from tcgtui.userfiles import TooDeep, parse_json
from tcgtui.opponents.base import check_number

FLAGS = ("base_url", "temperature", "max_tokens", "extra_body", "timeout", "max_retries",
         "invalid_retries", "fallback", "parse", "stream", "history_tokens", "context_length", "judge",
         "judge_temperature", "models")
# What a models.toml entry sets for itself: these flags apply only to llm:MODEL players.
ENTRY_OWNED = ("base_url", "temperature", "max_tokens", "extra_body", "stream")


def add_endpoint_arguments(parser: argparse.ArgumentParser, text: locales.Catalog) -> None:
    g = parser.add_argument_group(text.t("llm_options.group"))
    g.add_argument("--base-url", metavar="URL", help=text.t("llm_options.base_url"))
    g.add_argument("--temperature", type=float, metavar="T", help=text.t("llm_options.temperature"))
    g.add_argument("--max-tokens", type=int, metavar="N", help=text.t("llm_options.max_tokens"))
    g.add_argument("--extra-body", metavar="JSON", help=text.t("llm_options.extra_body"))
    g.add_argument("--timeout", type=float, metavar="SECONDS", help=text.t("llm_options.timeout"))
    g.add_argument("--max-retries", type=int, metavar="N", help=text.t("llm_options.max_retries"))
    g.add_argument("--invalid-retries", type=int, metavar="N", help=text.t("llm_options.invalid_retries"))
    g.add_argument("--fallback", choices=FALLBACKS, help=text.t("llm_options.fallback"))
    g.add_argument("--parse", choices=PARSE_MODES, help=text.t("llm_options.parse"))
    g.add_argument("--stream", action=argparse.BooleanOptionalAction, default=None,
                   help=text.t("llm_options.stream"))
    g.add_argument("--history-tokens", type=int, metavar="N", help=text.t("llm_options.history_tokens"))
    g.add_argument("--context-length", type=int, metavar="N", help=text.t("llm_options.context_length"))
    g.add_argument("--judge", metavar="llm:MODEL", help=text.t("llm_options.judge"))
    g.add_argument("--judge-temperature", type=float, metavar="T", help=text.t("llm_options.judge_temperature"))
    g.add_argument("--models", metavar="FILE", help=text.t("llm_options.models"))


RANGES = SAMPLING_RANGES


def _positive(value: Any, flag: str, lo: float, hi: float | None = None) -> None:
    check_number(flag, value, lo, hi)


def endpoint_options(args: argparse.Namespace) -> dict[str, Any]:
    """The flags that were given, checked, as ``make_agent`` options."""
    out: dict[str, Any] = {k: getattr(args, k) for k in FLAGS if getattr(args, k, None) is not None}
    if "extra_body" in out:
        try:
            extra = parse_json(out["extra_body"])      # NaN, Infinity: not JSON, and no endpoint accepts them
        except TooDeep as exc:
            raise UserError(f"--extra-body: {exc}") from None
        except ValueError:
            extra = None
        if not isinstance(extra, dict):
            raise UserError(f"--extra-body: {shorten(out['extra_body'])!r} is not a JSON object; "
                            "expected e.g. '{\"reasoning\": {\"effort\": \"low\"}}'")
        check_extra_body(extra)
        out["extra_body"] = extra
        for key, (lo, hi) in RANGES.items():
            if key in extra:
                check_number(f"--extra-body {key}", extra[key], lo, hi)
    _positive(out.get("temperature"), "--temperature", *RANGES["temperature"])
    _positive(out.get("judge_temperature"), "--judge-temperature", *RANGES["temperature"])
    for key, flag, lo in (("max_tokens", "--max-tokens", 1),
                          ("timeout", "--timeout", 0.001), ("max_retries", "--max-retries", 0),
                          ("invalid_retries", "--invalid-retries", 0),
                          ("history_tokens", "--history-tokens", 1),
                          ("context_length", "--context-length", 1)):
        _positive(out.get(key), flag, lo)
    return out


def player_keys(specs: list[str], options: dict[str, Any]) -> dict[str, str]:
    """Each spec's key, what its games are stored under: an ``llm:`` player's says which entry or
    model and, unless they are the defaults, which settings (``opponents.llm.agent.player_key``).

    A flag an entry sets for itself (``--temperature``...) given when every model player is an
    entry would change nothing: refused in one line."""
    # start-up time: the LLM player (httpx) only when a model is seated
    from tcgtui.opponents.llm.model_registry import cached
    from tcgtui.opponents.llm.agent import player_key, resolve
    from tcgtui.opponents.spec import parse_spec

    out: dict[str, str] = {}
    entries, plain = [], 0
    for text in specs:
        spec = parse_spec(text)
        if spec.kind != "llm":
            out[text] = text
            continue
        out[text] = player_key(*resolve(spec, options))
        if cached(options.get("models")).get(spec.model) is not None:
            entries.append(text)
        else:
            plain += 1
    given = [k for k in ENTRY_OWNED if k in options]
    if entries and not plain and given:
        raise UserError(locales.load().t("models.flag_unused", flag="--" + given[0].replace("_", "-"),
                                         spec=entries[0]))
    return out
