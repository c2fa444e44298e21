"""``bench --budget``: stop a sweep once this session has spent so much, in dollars or tokens.

``--budget 5usd`` (or ``$5``) counts the cost of every request to a model from the prices its
player's models.toml entry gives (``tcgtui.costs``); ``--budget 2M-tokens`` (``500k-tokens``,
``120000-tokens``) counts prompt and completion tokens (reasoning is part of the completion).
Both may be given; the first reached stops the sweep.  The budget is the sweep's spending
meter (``tcgtui.opponents.llm.spend``): checked before every request, charged with every
reply's tokens as its decision records them, so it is never exceeded by more than the requests
in flight when it was reached.  Then no game starts, and a game being played is stopped at its
next request and kept as errored with what it played (its tokens were spent); rerunning the
same command plays those games again, with a fresh budget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from tcgtui import locales
from tcgtui.console_text import shorten
from tcgtui.costs import cost, priced
from tcgtui.errors import UserError
from tcgtui.opponents.llm.spend import BudgetSpent

_USD = re.compile(r"^\$?\s*(\d{1,12}(?:\.\d{1,12})?)\s*(?:usd|\$)?$", re.I)
_TOKENS = re.compile(r"^(\d{1,15}(?:\.\d{1,6})?)\s*([km]?)[-_ ]?tokens?$", re.I)
SCALE = {"": 1, "k": 1_000, "m": 1_000_000}
MOST_TOKENS = 10 ** 15          # a budget beyond any sweep's spending is a typo, not a limit


@dataclass
class Budget:
    """The limits, and what this command spent: a ``Meter`` for the sweep's requests."""

    usd: float | None = None
    tokens: int | None = None
    spent_usd: float = 0.0
    spent_tokens: int = 0
    priced: bool = False            # some request was charged at a price: the dollars spent mean something

    def check(self) -> None:
        if self.reached:
            raise BudgetSpent(self.describe())

    def charge(self, prices: Mapping[str, Any], prompt: int, completion: int, reasoning: int) -> None:
        self.spent_tokens += prompt + completion
        usd = cost(dict(prices), prompt, completion, reasoning) if prices else None
        if usd is not None:
            self.spent_usd += usd
            self.priced = True

    @property
    def reached(self) -> bool:
        return (self.usd is not None and self.spent_usd >= self.usd) or \
            (self.tokens is not None and self.spent_tokens >= self.tokens)

    def describe(self) -> str:
        parts = ([f"${self.usd:g}"] if self.usd is not None else []) + \
            ([locales.load().t("models.budget_tokens", count=self.tokens)] if self.tokens is not None else [])
        return " / ".join(parts)


def parse_budget(values: list[str] | None) -> Budget | None:
    """``--budget`` values as a Budget (None when not given); a value that is neither, or a token
    count that is not whole, is one line."""
    if not values:
        return None
    budget = Budget()
    for value in values:
        text = value.strip()
        if (m := _TOKENS.match(text)) is not None:
            tokens = Decimal(m.group(1)) * SCALE[m.group(2).lower()]     # exact: 1.5k is 1500, 1.5 is no count
            ok = tokens == tokens.to_integral_value() and 0 < tokens <= MOST_TOKENS
            budget.tokens = int(tokens)
        elif (m := _USD.match(text)) is not None and (text.lower().endswith("usd") or "$" in text):
            budget.usd = float(m.group(1))
            ok = budget.usd > 0
        else:
            ok = False
        if not ok:
            raise UserError(locales.load().t("cmd_bench.errors.budget", value=shorten(value)))
    return budget


def check_prices(budget: Budget, players: dict[str, dict[str, dict[str, Any]]]) -> None:
    """A dollar budget needs every model player's prices: refuse before the first game if one has none."""
    if budget.usd is None:
        return
    for key, by_lang in players.items():
        for described in by_lang.values():
            if str(described.get("spec", key)).startswith("llm:") and not priced(described.get("prices")):
                raise UserError(locales.load().t("cmd_bench.errors.budget_prices", spec=key))
