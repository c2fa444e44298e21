"""Uniform random play: the floor every other player is measured against."""

from __future__ import annotations

from tcgtui.engine.core import Event
from tcgtui.opponents.base import Agent, Decision


class RandomAgent(Agent):
    spec = "random"

    async def decide(self, obs, events: list[Event]) -> Decision:
        return Decision(self.rng.choice(list(obs.legal_moves)))
