"""A stand-in model for puzzle duels (opponents/llm/testserver.py): the reference puzzler's puzzles and guesses."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any


def solver_code(prompt: str, catalogs: Sequence[Any]) -> str | None:
    """The puzzle code of a solver's prompt (in any language), or None for a proposer's prompt."""
    if not any(c.t("duel.prompts.solve.task") in prompt for c in catalogs):
        return None
    found = re.search(r"```python\n(.*?)```", prompt, re.DOTALL)
    return found.group(1) if found else ""


def player(game_id: str, catalogs: Sequence[Any], rng: Any, wrong: float = 0.0) -> Any:
    """As proposer, a puzzle of the reference player's set in a markdown reply (its sample made wrong
    with probability ``wrong``); as solver, the reference player's guess from the code, with the
    SOLUTION line dressed in markdown now and then."""
    # start-up time: the reference players only when the fake model solves
    from tcgtui.engine.duel.players import BUILTIN, guess

    def reply(prompt: str, image: bool) -> str:
        code = solver_code(prompt, catalogs)
        if code is not None:
            value = guess(code, rng)
            line = rng.choice(("SOLUTION: {v}", "**SOLUTION:** `{v}`", "`SOLUTION: {v}`")).format(v=value)
            return f"Let me look at the constraints.\n\n{line}"
        puzzle = rng.choice(BUILTIN)
        sample = puzzle.solution if rng.random() >= wrong else puzzle.solution + " + 1"
        return (
            f"Here is my puzzle.\n\n```python\n{puzzle.code}```\n\nPrivate: {puzzle.explanation}.\n\nSOLUTION: {sample}"
        )

    return reply
