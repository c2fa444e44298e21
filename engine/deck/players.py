"""The simulation oracle (``oracle:K``): answers a question by playing games, K per option.

It reads only what a player sees (the question's cards, as ``sim`` names them, and the
pack loaded with the set) and plays each completed deck against the question's field with
flat Monte Carlo in both seats, as ``deck make`` measured it, but on its own seeds; it picks
the option that scored best.  Questions without ``sim`` (ManaBench's) get a random letter.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from tcgtui.engine.deck.questions import LETTERS, Question
from tcgtui.engine.deck.simulate import run_task, scores, tasks

if TYPE_CHECKING:
    from tcgtui.engine.deck.game import DeckGame


def completions(
    question: Question, packs: dict[str, Any]
) -> tuple[Any, list[tuple[int, ...]], list[tuple[int, ...]], int] | None:
    """(pack, each option's deck, the field, playouts per move) of a question from our cards."""
    sim = question.sim or {}
    pack = packs.get(name) if isinstance(name := sim.get("pack"), str) else None
    if pack is None:
        return None
    index = pack.index

    def counts(table: dict[str, int]) -> list[int]:
        out = [0] * len(pack.cards)
        for cid, c in table.items():
            out[index[cid]] += c
        return out

    partial = counts(sim["deck"])
    decks = []
    for cid in sim["options"]:
        deck = list(partial)
        deck[index[cid]] += 1
        decks.append(tuple(deck))
    return pack, decks, [tuple(counts(f)) for f in sim["field"]], int(sim.get("playouts", 5))


def answer(question: Question, packs: dict[str, Any], games: int, seed: int) -> tuple[int, np.ndarray]:
    """The best option's index after ``games`` games per option, and every option's win rate."""
    made = completions(question, packs)
    if made is None:
        rng = random.Random(seed)
        return rng.randrange(len(question.options)), np.full(len(question.options), np.nan)
    pack, decks, field, k = made
    per_pairing = max(2, -(-games // len(field)))
    work = tasks(pack, decks, field, k, per_pairing, seed)
    table = scores(work, [run_task(t) for t in work], len(decks))
    rates = table.mean(axis=1)
    return int(np.argmax(rates)), rates


def policy(game: DeckGame, k: int | None) -> Callable[[Any, random.Random], str]:
    games = k or 100

    def choose(state: Any, rng: random.Random) -> str:
        best, _ = answer(state.question, game.qset.packs, games, rng.getrandbits(62))
        return LETTERS[best]

    return choose
