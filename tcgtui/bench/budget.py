"""``bench --budget``: stop a sweep once this session has spent so much, in dollars or tokens.

``--budget 5usd`` (or ``$5``) counts the cost of every model decision from the prices its
player's models.toml entry gives (``tcgtui.costs``); ``--budget 2M-tokens`` (``500k-tokens``,
``120000-tokens``) counts prompt and completion tokens (reasoning is part of the completion).
Both may be given; the first reached stops the sweep.  What this command spends is counted,
so rerunning the same command resumes the run with a fresh budget.  When the budget is
reached, no game starts and the games being played are stopped, as Ctrl-C stops them: every
finished game is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from tcgtui import locales
from tcgtui.costs import cost, priced
from tcgtui.errors import UserError

_USD = re.compile(r"^\$?\s*(\d+(?:\.\d+)?)\s*(?:usd|\$)?$", re.I)
_TOKENS = re.compile(r"^(\d+(?:\.\d+)?)\s*([km]?)[-_ ]?tokens?$", re.I)
SCALE = {"": 1, "k": 1_000, "m": 1_000_000}


@dataclass
class Budget:
    usd: float | None = None
    tokens: int | None = None
    spent_usd: float = 0.0
    spent_tokens: int = 0

    def __post_init__(self) -> None:
        self.prices: dict[str, dict[str, Any]] = {}

    def add(self, decisions: Iterable[Any]) -> None:
        """Count a played game's decisions (``DecisionRow``: ``agent`` and ``info``)."""
        for d in decisions:
            info = d.info or {}
            prompt = int(info.get("prompt_tokens") or 0)
            completion = int(info.get("completion_tokens") or 0)
            self.spent_tokens += prompt + completion
            usd = cost(self.prices.get(d.agent), prompt, completion, int(info.get("reasoning_tokens") or 0))
            self.spent_usd += usd or 0.0

    @property
    def reached(self) -> bool:
        return (self.usd is not None and self.spent_usd >= self.usd) or \
            (self.tokens is not None and self.spent_tokens >= self.tokens)

    def describe(self) -> str:
        parts = ([f"${self.usd:g}"] if self.usd is not None else []) + \
            ([locales.load().t("models.budget_tokens", count=self.tokens)] if self.tokens is not None else [])
        return " / ".join(parts)


def parse_budget(values: list[str] | None) -> Budget | None:
    """``--budget`` values as a Budget (None when not given); a value that is neither is one line."""
    if not values:
        return None
    budget = Budget()
    for value in values:
        text = value.strip()
        if (m := _TOKENS.match(text)) is not None:
            budget.tokens = int(float(m.group(1)) * SCALE[m.group(2).lower()])
            ok = budget.tokens > 0
        elif (m := _USD.match(text)) is not None and (text.lower().endswith("usd") or "$" in text):
            budget.usd = float(m.group(1))
            ok = budget.usd > 0
        else:
            ok = False
        if not ok:
            raise UserError(locales.load().t("cmd_bench.errors.budget", value=value))
    return budget


def check_prices(budget: Budget, players: dict[str, dict[str, dict[str, Any]]]) -> None:
    """A dollar budget needs every model player's prices: refuse before the first game if one has none."""
    for key, by_lang in players.items():
        for described in by_lang.values():
            if not str(described.get("spec", key)).startswith("llm:"):
                continue
            if priced(described.get("prices")):
                budget.prices[key] = described["prices"]
            elif budget.usd is not None:
                raise UserError(locales.load().t("cmd_bench.errors.budget_prices", spec=key))
