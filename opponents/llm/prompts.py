"""The conversation a model plays through, for any game: token estimates and the history budget.

What the messages say is the game's (its ``Prompter``, from the registry);
this module only keeps the conversation within an estimated token budget:
the first message and the current turn always stay, the oldest turns go
first.  A message's content is a string or a list of parts (``text`` and
``image_url``, for image prompt styles).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from tcgtui.opponents.llm.tokens import estimate_tokens  # noqa: F401  (re-exported)

Message = dict[str, Any]

# An image part, whatever its size, is estimated as this many prompt tokens: what OpenAI's
# vision models charge for a 1024x1024 image at high detail (85 + 4 tiles x 170).
IMAGE_TOKENS = 765


def content_tokens(content: Any) -> int:
    """A string's estimate; for a list of parts, its text parts' plus ``IMAGE_TOKENS`` per image."""
    if content is None:
        return 0
    if isinstance(content, str):
        return estimate_tokens(content)
    total = 0
    for part in content:
        if not isinstance(part, dict):
            total += estimate_tokens(str(part))
        elif part.get("type") == "image_url" or "image_url" in part:
            total += IMAGE_TOKENS
        else:
            total += estimate_tokens(str(part.get("text", "")))
    return total


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or its text parts joined (images left out); "" for none.
    The client, the context budget and the test server all read replies and requests with it."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def message_tokens(msg: Message) -> int:
    return content_tokens(msg.get("content")) + 4  # role and separators


@cache
def _text_message_tokens(content: str) -> int:
    return estimate_tokens(content) + 4


def _system_tokens(system: Message | None) -> int:
    """The first message is the same all game (and across games): count a text one once."""
    if system is None:
        return 0
    content = system.get("content")
    if isinstance(content, str):
        return _text_message_tokens(content)
    return message_tokens(system)


@dataclass
class TurnLog:
    """One past decision's messages, kept or dropped as a whole."""

    messages: list[Message]
    tokens: int


def keep_turns(system: Message | None, history: list[TurnLog], current: list[Message], budget: int) -> list[TurnLog]:
    """The most recent turns that fit the budget with the system message and the current turn."""
    left = budget - _system_tokens(system) - sum(message_tokens(m) for m in current)
    kept = 0
    for turn in reversed(history):
        if turn.tokens > left:
            break
        left -= turn.tokens
        kept += 1
    return history[len(history) - kept :]


def conversation(system: Message | None, turns: list[TurnLog], current: list[Message]) -> list[Message]:
    """System message (if any), the turns' messages, then the current turn's."""
    out = [] if system is None else [system]
    for turn in turns:
        out.extend(turn.messages)
    out.extend(current)
    return out


def fit_history(system: Message | None, history: list[TurnLog], current: list[Message], budget: int) -> list[Message]:
    """System message (if any), as many recent turns as fit the budget, then the current turn."""
    return conversation(system, keep_turns(system, history, current, budget), current)
