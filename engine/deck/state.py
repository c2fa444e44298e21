"""One question, one move: the player names a letter and the game says right or wrong.

The observation holds the question without its answer or win rates; the record keeps the
question's id at the start and, after the move, the answer and the measured win rates
(the reveal), so reports need nothing but records and the set they came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcgtui.engine.core import Event, GameState, IllegalMove, Outcome
from tcgtui.engine.deck.questions import LETTERS, Question

RIGHT, WRONG, INVALID = "right", "wrong", "invalid"


@dataclass(frozen=True)
class DeckObservation:
    seat: int
    turn: int
    question: Question  # public: no answer, no win rates
    legal_moves: tuple[str, ...]
    outcome: Outcome | None


class DeckState(GameState[str]):
    num_seats = 1

    def __init__(self, question: Question, index: int) -> None:
        self.question, self.index = question, index
        self.chosen: str | None = None
        self._outcome: Outcome | None = None
        self.start_events = [
            Event(
                "question",
                0,
                {"id": question.id, "index": index, "language": question.language, "source": question.source},
            )
        ]

    @property
    def current_player(self) -> int:
        return -1 if self._outcome is not None else 0

    def legal_moves(self) -> list[str]:
        return [] if self._outcome is not None else list(LETTERS[: len(self.question.options)])

    def validate(self, move: str) -> str | None:
        return None if move in self.legal_moves() else f"{move!r} is not one of {', '.join(self.legal_moves())}"

    def is_terminal(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def _end(self, chosen: str, reason: str) -> list[Event]:
        self.chosen = chosen
        score = 1.0 if reason == RIGHT else 0.0
        self._outcome = Outcome(None, reason, (score,))
        q = self.question
        reveal = {
            "chosen": chosen,
            "answer": q.answer,
            "right": reason == RIGHT,
            "margin": q.margin,
            "win_rates": list(q.win_rates) if q.win_rates else None,
        }
        return [Event("reveal", 0, reveal), Event("game_over", -1, {"reason": reason, "score": score})]

    def apply(self, move: str) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("the question is answered")
        if move not in self.legal_moves():
            raise IllegalMove(self.validate(move) or "")
        return self._end(move, RIGHT if move == self.question.answer else WRONG)

    def apply_invalid(self, kind: str, text: str) -> list[Event]:
        """A reply that names no option: it is wrong (ManaBench's rule)."""
        if self._outcome is not None:
            raise IllegalMove("the question is answered")
        return self._end("", INVALID)

    def clone(self) -> DeckState:
        s = DeckState.__new__(DeckState)
        s.question, s.index, s.chosen, s._outcome = self.question, self.index, self.chosen, self._outcome
        s.start_events = []
        return s

    def observation(self, seat: int) -> DeckObservation:
        return DeckObservation(
            seat, 1 if self._outcome is None else 2, self.question.public(), tuple(self.legal_moves()), self._outcome
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question.id,
            "index": self.index,
            "chosen": self.chosen,
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }
