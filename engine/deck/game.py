"""The quiz as a ``Game``: a question set, and which question (fixed, or drawn by the seed).

A game's seed names its question (seed modulo the set's size), so a game replays from its seed
alone.  A bench run deals its games' seeds so that the run asks every question once, in an order
drawn from the run's seed, before any question again (``run_seed``): sampling by seed alone would
ask some questions twice and others never.
"""

from __future__ import annotations

import functools
import hashlib
import random
from dataclasses import replace
from typing import Any

from tcgtui.engine.core import Game, IllegalMove
from tcgtui.engine.deck.questions import LETTERS, QuestionSet
from tcgtui.engine.deck.state import DeckObservation, DeckState
from tcgtui.engine.protocols import TCGTUI


class DeckGame(Game[str]):
    name = "deck"

    def __init__(self, qset: QuestionSet, index: int = -1, protocol: str = TCGTUI) -> None:
        if not qset.questions:
            raise ValueError(f"question set {qset.id!r} has no questions")
        if index >= len(qset.questions):
            raise ValueError(f"index {index}: the set {qset.id!r} has {len(qset.questions)} questions")
        self.qset, self.index, self.protocol = qset, index, protocol or TCGTUI

    def question_index(self, seed: int) -> int:
        """The question of a seed: the fixed one, else one drawn by the seed (every seed a deal)."""
        return self.index if self.index >= 0 else seed % len(self.qset.questions)

    def run_seed(self, run_seed: int, index: int) -> int | None:
        """Game ``index`` of a run: round ``index // n`` of the set, in that round's order drawn from the
        run's seed; the seed is the run's own deal seed moved to the residue of that question."""
        if self.index >= 0:
            return None  # one fixed question: the bench's own derivation
        n = len(self.qset.questions)
        turn, at = divmod(index, n)
        digest = hashlib.blake2b(f"tcgtui/deck/{run_seed}/{index}".encode(), digest_size=8).digest()
        spread = (int.from_bytes(digest, "big") >> 1) // n * n  # below 2**63: a SQLite integer
        return spread + question_order(run_seed, turn, n)[at]

    def new_state(self, seed: int) -> DeckState:
        i = self.question_index(seed)
        return DeckState(self.qset.questions[i], i)

    def setup(self) -> dict[str, Any]:
        out = {"questions": self.qset.id, "set_hash": self.qset.hash, "index": self.index}
        if self.protocol != TCGTUI:  # older records have none: tcgtui's
            out["protocol"] = self.protocol
        return out

    def resample(self, obs: DeckObservation, rng: random.Random) -> DeckState:
        """The hidden part is the answer: any letter, as far as the player knows."""
        q = replace(obs.question, answer=rng.choice(LETTERS[: len(obs.question.options)]))
        state = DeckState(q, -1)
        state.start_events = []
        return state

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        if text not in LETTERS:
            raise IllegalMove(f"{text!r} is not a letter of {LETTERS}")
        return text


@functools.lru_cache(maxsize=8)
def question_order(run_seed: int, turn: int, n: int) -> tuple[int, ...]:
    """The order of a set's ``n`` questions in round ``turn`` of a run (each question once)."""
    order = list(range(n))
    random.Random(f"tcgtui/deck-order/{run_seed}/{turn}").shuffle(order)
    return tuple(order)
