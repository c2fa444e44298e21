"""Checks of numbers from the command line, shared by every command that takes them.

Why these limits: a seed is stored as a SQLite integer (63 bits, never
negative); ``bench --games`` and ``--concurrency`` are planned in memory before
the first game, so values no sweep could ever finish are refused up front
instead of growing for minutes; sampling settings must be finite numbers in the
range endpoints accept; every other count a command takes has a range of its own, checked by
``check_count`` before any work.  Every refusal is one line naming the flag, the value
and the limit (a UserError).
"""

from __future__ import annotations

from tcgtui import locales
from tcgtui.errors import UserError

SEED_LIMIT = 2**63                 # seeds are 0 <= seed < 2**63
MAX_GAMES = 1_000_000              # per cell of a bench sweep
MAX_CONCURRENCY = 1024             # games in flight at once
MAX_PLANNED = 10_000_000           # games of one sweep in all (games x cells)
MAX_NAME = 200                     # a run name: printed in every progress and error line


def check_seed(flag: str, value: int | None) -> int | None:
    if value is not None and not 0 <= value < SEED_LIMIT:
        raise UserError(locales.load().t("limits.seed", flag=flag, value=value, limit=f"2^63 - 1 ({SEED_LIMIT - 1})"))
    return value


def check_at_most(flag: str, value: int | None, limit: int) -> int | None:
    if value is not None and value > limit:
        raise UserError(locales.load().t("limits.too_large", flag=flag, value=value, limit=f"{limit:,}"))
    return value


def check_count(flag: str, value: int | None, lo: int, hi: int) -> int | None:
    """A whole number from ``lo`` to ``hi``; None (a flag not given) passes."""
    if value is not None and not lo <= value <= hi:
        raise UserError(locales.load().t("limits.count", flag=flag, value=value, lo=f"{lo:,}", hi=f"{hi:,}"))
    return value


def check_name(flag: str, value: str | None) -> str | None:
    """A name (``--run``) of at most MAX_NAME characters, so the lines that print it stay lines, and text:
    a command line's bytes that are not UTF-8 arrive as lone surrogates, which no store can hold or match."""
    if value is not None and not 0 < len(value) <= MAX_NAME:
        raise UserError(locales.load().t("limits.name", flag=flag, length=len(value), limit=MAX_NAME))
    if value is not None and any("\ud800" <= ch <= "\udfff" for ch in value):
        raise UserError(locales.load().t("limits.not_text", flag=flag))
    return value
