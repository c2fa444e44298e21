"""Nim with one heap: take 1 to ``most`` stones a turn; whoever takes the last stone wins.

Small on purpose: it exists to prove that a game defined outside tcgtui plugs in through the
declared surface alone (tests/test_plugin_game.py).  Everything random flows from the seed: the
heap's size is drawn from it when the ``heap`` parameter is 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.core import Event, Game, GameState, IllegalMove, Outcome


@dataclass(frozen=True)
class NimObservation:
    seat: int
    turn: int
    legal_moves: tuple[str, ...]
    heap: int
    most: int


class NimState(GameState[str]):
    def __init__(self, heap: int, most: int, turn: int = 0, to_move: int = 0,
                 outcome: Outcome | None = None) -> None:
        self.heap, self.most, self.turn, self.to_move, self._outcome = heap, most, turn, to_move, outcome

    @property
    def current_player(self) -> int:
        return -1 if self._outcome else self.to_move

    def legal_moves(self) -> list[str]:
        return [] if self._outcome else [str(n) for n in range(1, min(self.most, self.heap) + 1)]

    def apply(self, move: str) -> list[Event]:
        if move not in self.legal_moves():
            raise IllegalMove(move)
        n = int(move)
        self.heap -= n
        events = [Event("take", self.to_move, {"n": n, "left": self.heap})]
        if self.heap == 0:
            self._outcome = Outcome(self.to_move, "last_stone")
            events.append(Event("game_over", self.to_move, {"winner": self.to_move}))
        self.turn += 1
        self.to_move = 1 - self.to_move
        return events

    def clone(self) -> NimState:
        return NimState(self.heap, self.most, self.turn, self.to_move, self._outcome)

    def is_terminal(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def observation(self, seat: int) -> NimObservation:
        return NimObservation(seat, self.turn, tuple(self.legal_moves()) if seat == self.current_player else (),
                              self.heap, self.most)

    def to_json(self) -> dict[str, Any]:
        return {"heap": self.heap, "most": self.most, "turn": self.turn, "to_move": self.to_move,
                "outcome": self._outcome.to_json() if self._outcome else None}


class NimGame(Game[str]):
    name = "nim"

    def __init__(self, heap: int, most: int) -> None:
        self.heap, self.most = heap, most

    def new_state(self, seed: int) -> NimState:
        heap = self.heap or random.Random(f"nim:{seed}").randint(10, 30)
        return NimState(heap, self.most)

    def setup(self) -> dict[str, Any]:
        return {"heap": self.heap, "most": self.most}

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        return text.strip()

    def resample(self, obs: NimObservation, rng: Any) -> NimState:
        return NimState(obs.heap, obs.most, obs.turn, obs.seat)        # nothing is hidden


def perfect(game: NimGame, arg: int | None):
    """Leave a multiple of most + 1 when it can (the winning strategy), else take one."""
    def choose(state: NimState, rng: Any) -> str:
        n = state.heap % (state.most + 1)
        return str(n) if n else "1"
    return choose
