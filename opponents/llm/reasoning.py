"""A reply's reasoning set apart from its answer, for every game.

A reply may think out loud (``<think>`` blocks) and even write a move inside
its thoughts; only the answer outside counts, and only the answer goes to the
game's ``Prompter.parse``.
"""

from __future__ import annotations

import re

STRICT, SOFT = "strict", "soft"  # --parse: how forgiving a game's reader may be (games read it)
PARSE_MODES = (STRICT, SOFT)

_THINK_OPEN = re.compile(r"<\s*(think|thinking|reasoning)\s*>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"<\s*/\s*(think|thinking|reasoning)\s*>", re.IGNORECASE)


def split_reasoning(text: str) -> tuple[str, str]:
    """``(answer, reasoning)``: ``<think>`` blocks out of the answer, kept apart.

    An unclosed block runs to the end (the reply was cut while thinking); a
    closing tag with no opening one means everything before it was thought
    (templates that put the opening tag in the prompt).
    """
    thoughts: list[str] = []
    close = _THINK_CLOSE.search(text)
    opened = _THINK_OPEN.search(text)
    if close and (opened is None or close.start() < opened.start()):
        thoughts.append(text[: close.start()])
        text = text[close.end() :]
    answer: list[str] = []
    pos = 0
    while True:
        opened = _THINK_OPEN.search(text, pos)
        if opened is None:
            answer.append(text[pos:])
            break
        answer.append(text[pos : opened.start()])
        close = _THINK_CLOSE.search(text, opened.end())
        if close is None:
            thoughts.append(text[opened.end() :])
            break
        thoughts.append(text[opened.end() : close.start()])
        pos = close.end()
    return "".join(answer).strip(), "\n".join(t.strip() for t in thoughts if t.strip())
