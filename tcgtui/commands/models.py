"""``tcgtui models``: the models.toml entries, each checked against its endpoint.

A check asks what a run would need before it starts: the key's variable is set,
the server answers (``GET /models``), how long a context it has where it says
(vLLM: ``max_model_len`` in ``/v1/models``; llama.cpp's server: ``n_ctx`` in
``/props``) and whether that fits the entry's ``context_length``, and one
one-token chat request.  One line per problem; the exit status is 1 when any
check failed.  Nothing here needs the engine, a screen or the store.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from tcgtui import locales
from tcgtui.console_text import clean, shorten
from tcgtui.errors import UserError

PROBE = [{"role": "user", "content": "Reply with the word OK."}]


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--models", metavar="FILE", help=text.t("llm_options.models"))
    p.add_argument("--no-check", action="store_true", help=text.t("cmd_models.no_check"))
    p.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS", help=text.t("cmd_models.timeout"))
    p.add_argument("names", nargs="*", metavar="NAME", help=text.t("cmd_models.names"))


def _context(models: Any, props: Any, model: str) -> int | None:
    """The context the server reports: vLLM's ``max_model_len`` for the model, else llama.cpp's ``n_ctx``."""
    data = models.get("data") if isinstance(models, dict) else None
    if isinstance(data, list):
        mine = [m for m in data if isinstance(m, dict) and m.get("id") == model] or \
            [m for m in data if isinstance(m, dict)][:1]
        for m in mine:
            if isinstance(m.get("max_model_len"), int):
                return int(m["max_model_len"])
    if isinstance(props, dict):
        settings = props.get("default_generation_settings")
        for where in (settings, props):
            if isinstance(where, dict) and isinstance(where.get("n_ctx"), int):
                return int(where["n_ctx"])
    return None


def _json(resp: Any) -> Any:
    try:
        return resp.json()
    except ValueError:
        return None


def check(entry: Any, timeout: float, text: locales.Catalog) -> tuple[list[str], int | None]:
    """(the problems, the context the server reports) for one entry."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    import httpx

    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.opponents.llm.endpoint import redact_url

    key = ""
    if entry.api_key_env:
        key = os.environ.get(entry.api_key_env, "")
        if not key:
            return [text.t("cmd_models.no_key", var=entry.api_key_env)], None
    scrub = (lambda s: s.replace(key, "[key]")) if key else (lambda s: s)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    problems: list[str] = []
    where = redact_url(entry.base_url)
    with httpx.Client(headers=headers, timeout=timeout, verify=entry.base_url.startswith("https:")) as http:
        try:
            listed = http.get(entry.base_url + "/models")
        except httpx.HTTPError as exc:
            return [text.t("cmd_models.unreachable", url=where, error=scrub(type(exc).__name__))], None
        if listed.status_code in (401, 403):
            return [text.t("cmd_models.refused", url=where, status=listed.status_code)], None
        props = None
        root = entry.base_url.removesuffix("/v1")
        try:
            answer = http.get(root + "/props")
            props = _json(answer) if answer.status_code == 200 else None
        except httpx.HTTPError:
            pass
        context = _context(_json(listed) if listed.status_code == 200 else None, props, entry.model)
        if context is not None and entry.context_length is not None and entry.context_length > context:
            problems.append(text.t("cmd_models.context_over", entry=entry.context_length, server=context))
        body: dict[str, Any] = {"model": entry.model, "messages": PROBE, "max_tokens": 1, **entry.extra_body}
        try:
            probe = http.post(entry.base_url + "/chat/completions", json=body)
        except httpx.HTTPError as exc:
            problems.append(text.t("cmd_models.probe_failed", error=type(exc).__name__))
            return problems, context
        if probe.status_code != 200:
            reply = _json(probe)
            err = reply.get("error") if isinstance(reply, dict) else None
            detail = err.get("message") if isinstance(err, dict) else err if isinstance(err, str) else ""
            problems.append(text.t("cmd_models.probe_status", status=probe.status_code,
                                   detail=shorten(scrub(str(detail or "")), 160)))
        else:
            reply = _json(probe)
            if not (isinstance(reply, dict) and isinstance(reply.get("choices"), list) and reply["choices"]):
                problems.append(text.t("cmd_models.probe_empty"))
    return problems, context


def _line(entry: Any, text: locales.Catalog) -> str:
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.opponents.llm.endpoint import redact_url

    parts = [entry.name, entry.model, redact_url(entry.base_url)]
    if entry.api_key_env:
        parts.append(text.t("cmd_models.key_var", var=entry.api_key_env))
    if entry.context_length:
        parts.append(text.t("cmd_models.context", tokens=entry.context_length))
    if entry.prices:
        parts.append(text.t("cmd_models.prices", input=entry.prices["input"], output=entry.prices["output"]))
    facts = entry.facts
    described = [str(facts[k]) for k in ("organisation", "family") if facts.get(k)]
    if facts.get("parameters_b"):
        described.append(f"{facts['parameters_b']:g}B")
    if facts.get("weights"):
        described.append(text.t(f"cmd_models.weights_{facts['weights']}"))
    if described:
        parts.append(" ".join(described))
    return "  ".join(parts)


def run(args: argparse.Namespace) -> int:
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.opponents.llm.model_registry import load, registry_path

    text = locales.load()
    if not args.timeout > 0:
        raise UserError(text.t("cmd_models.bad_timeout", value=args.timeout))
    registry = load(args.models)
    if not registry.entries:
        path, _ = registry_path(args.models)
        print(clean(text.t("cmd_models.empty", path=str(path))), file=sys.stderr)
        return 0
    for name in args.names:
        if name not in registry.entries:
            raise UserError(text.t("cmd_models.unknown", name=name, path=str(registry.path),
                                   known=", ".join(registry.entries)))
    failed = 0
    for name, entry in registry.entries.items():
        if args.names and name not in args.names:
            continue
        print(clean(_line(entry, text)))
        if args.no_check:
            continue
        problems, context = check(entry, args.timeout, text)
        for problem in problems:
            print(clean(f"  {name}: {problem}"))
        if problems:
            failed += 1
        else:
            print(clean("  " + text.t("cmd_models.ok", name=name) + (
                "" if context is None else " " + text.t("cmd_models.server_context", tokens=context))))
    if failed:
        print(clean(text.t("cmd_models.failed", count=failed)), file=sys.stderr)
    return 1 if failed else 0
