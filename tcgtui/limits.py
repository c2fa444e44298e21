"""Checks of numbers from the command line, shared by every command that takes them.

Why these limits: a seed is stored as a SQLite integer (63 bits, never
negative); ``bench --games`` and ``--concurrency`` are planned in memory before
the first game, so values no sweep could ever finish are refused up front
instead of growing for minutes; sampling settings must be finite numbers in the
range endpoints accept.  Every refusal is one line naming the flag, the value
and the limit (a UserError).
"""

from __future__ import annotations

import math

from tcgtui import locales
from tcgtui.errors import UserError

SEED_LIMIT = 2**63                 # seeds are 0 <= seed < 2**63
MAX_GAMES = 1_000_000              # per cell of a bench sweep
MAX_CONCURRENCY = 1024             # games in flight at once
MAX_PLANNED = 10_000_000           # games of one sweep in all (games x cells)


def check_seed(flag: str, value: int | None) -> int | None:
    if value is not None and not 0 <= value < SEED_LIMIT:
        raise UserError(locales.load().t("limits.seed", flag=flag, value=value, limit=f"2^63 - 1 ({SEED_LIMIT - 1})"))
    return value


def check_at_most(flag: str, value: int | None, limit: int) -> int | None:
    if value is not None and value > limit:
        raise UserError(locales.load().t("limits.too_large", flag=flag, value=value, limit=f"{limit:,}"))
    return value


def check_number(flag: str, value: float | None, lo: float, hi: float | None = None) -> float | None:
    """A finite number from ``lo`` to ``hi`` (no upper limit when ``hi`` is None)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < lo or (hi is not None and value > hi):
        text = locales.load()
        expected = (text.t("limits.range", lo=f"{lo:g}", hi=f"{hi:g}") if hi is not None
                    else text.t("limits.at_least", lo=f"{lo:g}"))
        finite = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        key = "limits.too_small" if finite and value < lo else "limits.number"
        raise UserError(text.t(key, flag=flag, value=f"{value:g}" if finite else repr(value), expected=expected))
    return value
