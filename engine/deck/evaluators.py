"""The value of every option of a quiz question, for judging stored answers (``tcgtui analyze --run``).

``oracle:K`` values an option by the games its completed deck wins, as the ``oracle:K`` player and
``deck make`` measure it: the partial deck plus that card plays the question's field of opponent
decks, K games per option (rounded up to a multiple of the field's size), half in each seat, flat
Monte Carlo with the question's playouts in both seats, the same deals for every option (paired, so
two options differ only by what the card does).  It reads what the player sees and nothing else
(``Question.public``, the question without its answer or win rates; of ``sim`` only the pack, the
deck, the options, the field and the playouts).  An option's value is its deck's expected result
on the common scale, 2 × score − 1 (score: wins + draws/2 over the games), so a regret is twice
the win rate the answer gave away.  The deals are seeded from the decision's seed.  A set whose
questions do not all carry their simulation (ManaBench's) cannot be judged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.deck.players import answer, completions
from tcgtui.engine.deck.questions import LETTERS

DEFAULT_GAMES, MAX_GAMES = 400, 100_000


@dataclass(frozen=True)
class Evaluator:
    """``key``: ``oracle:K`` as stored beside each value; ``values(state, seed)``: each option's letter ->
    its completed deck's expected result."""

    key: str
    values: Callable[[Any, int], dict[str, float]]


def evaluator(game: Game, spec: str | None) -> Evaluator:
    """``oracle:K`` (None: oracle:400) for the quiz ``game``; a ValueError says what it takes."""
    name, _, arg = (spec or f"oracle:{DEFAULT_GAMES}").partition(":")
    if name != "oracle" or not arg.isdigit() or not 1 <= int(arg) <= MAX_GAMES:
        raise ValueError(
            f"{spec!r}: the deck quiz is judged by oracle:K, K games per option from 1 to {MAX_GAMES} "
            f"(default oracle:{DEFAULT_GAMES})"
        )
    qset, games = game.qset, int(arg)  # type: ignore[attr-defined]
    if any(completions(q.public(), qset.packs) is None for q in qset.questions):
        raise ValueError(f"question set {qset.id!r} has questions without a simulation of our cards to judge by")

    def values(state: Any, seed: int) -> dict[str, float]:
        question = state.observation(0).question
        _, rates = answer(question, qset.packs, games, seed)
        return {LETTERS[i]: 2 * float(r) - 1 for i, r in enumerate(rates)}

    return Evaluator(f"oracle:{games}", values)
