"""A person as an agent: ``decide`` waits for the interface to choose a card.

Treating a person like any other agent means a human game goes through the same
``run_match`` loop and produces the same record as a benchmark game, with the
person's decision time measured the same way: ``run_match`` times ``decide``,
which spans exactly from the moment they are asked to the moment they choose
(the pause that shows the opponent's move happens before it).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from tcgtui.engine.core import Event
from tcgtui.opponents.base import Agent, Decision

TurnHook = Callable[[Any, list[Event]], None]
HUMAN = "human"  # the spec of the person at the keyboard


class HumanAgent(Agent):
    spec = HUMAN

    def __init__(
        self, handle: str = "", on_turn: TurnHook | None = None, time_limit: float = 0.0, seed: int = 0
    ) -> None:
        self.handle = handle
        self.on_turn = on_turn  # the interface: "it is your move"
        # A study's per-move limit (0: none): past it a legal move is drawn for the person from ``seed``
        # and recorded as timed out.  A free-text question (no move list) has no limit.
        self.time_limit = time_limit
        self._rng = random.Random(seed)
        self._pending: asyncio.Future[str] | None = None
        self._legal: tuple[str, ...] = ()

    @property
    def waiting(self) -> bool:
        """True while the game is waiting for this person to choose."""
        return self._pending is not None and not self._pending.done()

    @property
    def legal_moves(self) -> tuple[str, ...]:
        return self._legal if self.waiting else ()

    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        self._pending = asyncio.get_running_loop().create_future()
        self._legal = tuple(obs.legal_moves)
        if self.on_turn is not None:
            self.on_turn(obs, events)
        try:
            if self.time_limit > 0 and self._legal:
                try:
                    move = await asyncio.wait_for(asyncio.shield(self._pending), self.time_limit)
                except TimeoutError:
                    return Decision(self._rng.choice(self._legal), {"timed_out": True})
            else:
                move = await self._pending
        finally:
            self._pending = None
            self._legal = ()
        return Decision(move)

    def choose(self, move: str, stands_for: str | None = None) -> bool:
        """Answer the pending question; False (and nothing happens) if none or not legal.
        In free-text games (no move list) any text is passed on: the screen checks it with
        the game's ``validate`` first, and ``run_match`` refuses what the game refuses.
        ``stands_for``: the legal move that ``move`` carries more words with (Eleusis: a card
        played with a guess, whose text is not among the legal moves but whose card is)."""
        if not self.waiting or (self._legal and (stands_for or move) not in self._legal):
            return False
        assert self._pending is not None
        self._pending.set_result(move)
        return True

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"spec": self.spec}
        if self.handle:
            out["handle"] = self.handle
        return out
