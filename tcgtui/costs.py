"""What a model's tokens cost, from the prices a run recorded for its player (USD per million).

Servers count reasoning inside ``completion_tokens`` (OpenAI's ``usage``, and tcgtui's own
estimate), so reasoning is the part of the completion billed at the reasoning price, which
is the output price unless the entry gives its own.  No input or output price: no cost (None).
"""

from __future__ import annotations

from typing import Any, Mapping

MILLION = 1_000_000


def priced(prices: Mapping[str, Any] | None) -> bool:
    return bool(prices) and prices.get("input") is not None and prices.get("output") is not None  # type: ignore[union-attr]


def cost(prices: Mapping[str, Any] | None, prompt: float, completion: float, reasoning: float) -> float | None:
    """USD for these tokens, or None when the prices are not known."""
    if not priced(prices):
        return None
    assert prices is not None
    think = min(reasoning, completion)
    think_price = prices.get("reasoning")
    think_price = prices["output"] if think_price is None else think_price
    return (prompt * prices["input"] + (completion - think) * prices["output"] + think * think_price) / MILLION


def run_prices(config: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Each player's prices as a run's config records them (``players[key][lang]["prices"]``)."""
    out: dict[str, dict[str, Any]] = {}
    for key, by_lang in (config.get("players") or {}).items():
        for described in (by_lang or {}).values():
            if isinstance(described, dict) and priced(described.get("prices")):
                out[key] = described["prices"]
    return out
