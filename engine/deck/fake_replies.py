"""A stand-in model for the deck quiz (opponents/llm/testserver.py): a random option letter it read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_OPTION_LINE = re.compile(r"^([A-F])\. ", re.MULTILINE)
FORMS = ("answer", "letter", "boxed", "none")


def player(game_id: str, catalogs: Sequence[Any], rng: Any, forms: tuple[str, ...] = ("answer",)) -> Any:
    """Picks a random option letter of the prompt and writes it in each of ``forms`` in turn:
    ``answer`` (reasoning then ``ANSWER: X``), ``letter`` (the letter alone), ``boxed``
    (``\\boxed{X}``) or ``none`` (no letter at all)."""
    turn = iter(range(1 << 62))

    def reply(prompt: str, image: bool) -> str:
        letters = _OPTION_LINE.findall(prompt)
        if len(letters) != 6:
            return "I cannot see six options."
        letter = rng.choice(letters)
        form = forms[next(turn) % len(forms)]
        return {
            "answer": f"Option {letter} fits the curve best.\nANSWER: {letter}",
            "letter": letter,
            "boxed": f"The best is \\boxed{{{letter}}}",
            "none": "They all look good to me.",
        }[form]

    return reply
