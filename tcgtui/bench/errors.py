"""Why games errored, for the end of a bench: reasons grouped, and what to do about each kind.

An errored game's reason is the server's own words (and whatever an agent raised), so it is
outside text: control characters and terminal escapes are stripped, Rich markup escaped and long
reasons clipped before it reaches the screen.  A reason a rerun cannot fix (the server refused
the key, the model or the request; the prompt outgrew its context) gets what to change instead
of "rerun with --retry-errored".
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rich.markup import escape
from rich.table import Table

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.opponents.llm.client import context_overflow

REASON_CHARS = 600
RERUN = "rerun"                      # a fault that may pass: --retry-errored plays the game again
FIX_KINDS = ("context", "auth", "not_found", "refused")     # the same request fails the same way
_HTTP = re.compile(r"\bHTTP (\d{3})\b")
_NUMBER = re.compile(r"\d+")


def sanitize(text: str | None, limit: int = REASON_CHARS) -> str:
    """Outside text made safe to print (``console_text.clean``), on one line, at most
    ``limit`` characters, Rich markup escaped."""
    text = " ".join(clean(text or "", tabs=False).split())
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return escape(text)


def classify(error: str | None) -> str:
    """``context``, ``auth``, ``not_found``, ``refused`` (a rerun as is fails again) or ``rerun``."""
    text = error or ""
    if "context overflow" in text or context_overflow(text)[0]:
        return "context"
    status = _HTTP.search(text)
    if status is not None:
        code = int(status.group(1))
        if code in (401, 403):
            return "auth"
        if code == 404:
            return "not_found"
        if code in (400, 413, 422):
            return "refused"
    return RERUN


@dataclass(frozen=True)
class Group:
    reason: str          # sanitised, ready to print
    count: int
    kind: str


def group_errors(errors: list[str | None]) -> list[Group]:
    """One group per distinct reason, most frequent first.  Reasons that differ only in their numbers
    (a prompt's estimated size, a request count) are one reason, shown as its most frequent wording."""
    groups: dict[str, Counter[str]] = {}
    kinds: dict[str, str] = {}
    for e in errors:
        shown = sanitize(e) or "?"
        key = _NUMBER.sub("#", shown)
        groups.setdefault(key, Counter())[shown] += 1
        kinds.setdefault(key, classify(e))
    out = [Group(c.most_common(1)[0][0], sum(c.values()), kinds[k]) for k, c in groups.items()]
    return sorted(out, key=lambda g: (-g.count, g.reason))


def error_report(errors: list[str | None], text: locales.Catalog) -> list[object]:
    """What to print: a table of reasons, then a line per kind saying what to do."""
    groups = group_errors(errors)
    if not groups:
        return []
    table = Table(title=text.t("cmd_bench.errored.title", count=len(errors)), title_justify="left")
    table.add_column(text.t("cmd_bench.errored.col_count"), justify="right")
    table.add_column(text.t("cmd_bench.errored.col_reason"), overflow="fold")
    for g in groups:
        table.add_row(str(g.count), g.reason)
    out: list[object] = [table]
    for kind in FIX_KINDS:
        n = sum(g.count for g in groups if g.kind == kind)
        if n:
            out.append(text.t(f"cmd_bench.errored.fix_{kind}", count=n))
    rerun = sum(g.count for g in groups if g.kind == RERUN)
    if rerun:
        out.append(text.t("cmd_bench.errored_hint", count=rerun))
    return out
