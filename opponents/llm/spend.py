"""What every request to a model spends, counted as it is spent, and a spending limit checked before each.

A bench's ``--budget`` (``tcgtui.bench.budget``) is the ``Meter`` of its sweep, set in ``METER``
for every game it plays.  ``ChatClient.complete`` asks it before each request (retries
included) and raises ``BudgetSpent`` rather than send one once the budget is reached, and tells
it each reply's tokens with the prices of the player it plays for.  The counts are the ones
the decision records (``usage_counts``), so a budget's "spent" is what the store holds: a
budget is never exceeded by more than the requests already in flight when it was reached.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any, Protocol

from tcgtui.opponents.llm.prompts import Message, estimate_tokens, message_tokens

BUDGET_STOPPED = "budget_stopped"  # in a decision's info: the budget stopped it after some replies


class BudgetSpent(Exception):
    """The sweep's budget is reached: this request is not made (the game is stopped, as Ctrl-C stops it)."""


class Meter(Protocol):
    def check(self) -> None:
        """Raise ``BudgetSpent`` when no more request may start."""

    def charge(self, prices: Mapping[str, Any], prompt: int, completion: int, reasoning: int) -> None:
        """Count one reply's tokens (completion includes reasoning) at ``prices`` (USD per million)."""


METER: ContextVar[Meter | None] = ContextVar("tcgtui_spend_meter", default=None)


def usage_counts(
    usage: dict[str, Any] | None, sent: list[Message], answer: str, reasoning: str
) -> tuple[int, int, int, bool, bool]:
    """(prompt, completion, reasoning tokens, estimated, reasoning estimated) for one reply: the
    server's ``usage``, else estimated from the text sent and received."""
    if usage is None:
        thought = estimate_tokens(reasoning)
        return (sum(message_tokens(m) for m in sent), estimate_tokens(answer) + thought, thought, True, False)
    details = usage.get("completion_tokens_details") or {}
    think = details.get("reasoning_tokens") if isinstance(details, dict) else None
    think = think if think is not None else usage.get("reasoning_tokens")
    guessed = think is None and bool(reasoning)
    if think is None:
        think = estimate_tokens(reasoning) if reasoning else 0
    return (_count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")), _count(think), False, guessed)


def _count(value: Any) -> int:
    """A server's token count as a whole number of at least 0 (a reply's usage is outside text)."""
    try:
        number = int(value or 0)
    except (TypeError, ValueError, OverflowError):
        return 0
    return max(0, min(number, 1 << 40))
