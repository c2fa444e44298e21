"""Uniform random play: the floor every other player is measured against."""

from __future__ import annotations

from tcgtui.engine.core import Event
from tcgtui.opponents.base import Agent, Decision


class RandomAgent(Agent):
    spec = "random"

    async def decide(self, obs, events: list[Event]) -> Decision:
        attempt = self.ctx.game.random_attempt(obs, self.rng) if self.ctx.game is not None else None
        if attempt is None:
            return Decision(self.rng.choice(list(obs.legal_moves)))
        if attempt.invalid is not None:  # the protocol's random player named a taken cell
            return Decision("", {"reply": attempt.raw}, invalid=attempt.invalid, raw=attempt.raw)
        return Decision(attempt.move or "", {"reply": attempt.raw})
