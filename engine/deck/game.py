"""The quiz as a ``Game``: a question set, and which question (fixed, or drawn by the seed)."""

from __future__ import annotations

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

    def new_state(self, seed: int) -> DeckState:
        i = self.question_index(seed)
        return DeckState(self.qset.questions[i], i)

    def setup(self) -> dict[str, Any]:
        out = {"questions": self.qset.id, "set_hash": self.qset.hash, "index": self.index}
        if self.protocol != TCGTUI:                 # older records have none: tcgtui's
            out["protocol"] = self.protocol
        return out

    def resample(self, obs: DeckObservation, rng: random.Random) -> DeckState:  # type: ignore[override]
        """The hidden part is the answer: any letter, as far as the player knows."""
        q = replace(obs.question, answer=rng.choice(LETTERS[:len(obs.question.options)]))
        state = DeckState(q, -1)
        state.start_events = []
        return state

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        if text not in LETTERS:
            raise IllegalMove(f"{text!r} is not a letter of {LETTERS}")
        return text
