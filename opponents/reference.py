"""Reference players: strong, non-search policies a game provides (``perfect``, ``ab:D``).

The policy is the game's (pure rules knowledge, in its engine package); this
agent only feeds it a state rebuilt from the seat's observation, so a
reference never sees more than its seat does, and runs it in a thread so a
deep search never blocks the screen.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import Event
from tcgtui.engine.protocols import protocol_of
from tcgtui.errors import OptionError
from tcgtui.opponents.base import Agent, AgentError, Decision, SeatContext
from tcgtui.opponents.spec import AgentSpec


class ReferenceAgent(Agent):
    def __init__(self, spec: AgentSpec) -> None:
        self.parsed = spec
        self.spec = str(spec)

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.game = ctx.game
        ref = registry.get(self.game.name).reference(self.parsed.kind)
        if ref is None:
            raise ValueError(f"{self.spec} cannot play {self.game.name}")
        if ref.protocol and protocol_of(self.game.setup()) != ref.protocol:
            raise OptionError(locales.load().t("arena.protocol_opponent", spec=self.spec, protocol=ref.protocol))
        self.choose = ref.policy(self.game, self.parsed.n or None)
        self.omniscient = ref.sees_state
        self._true_state: Any = None

    def see_state(self, state: Any) -> None:
        self._true_state = state

    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        if self.omniscient:
            state, self._true_state = self._true_state, None
            if state is None:
                raise AgentError(f"{self.spec} needs the true state, and this runner did not hand it over")
        else:
            state = self.game.resample(obs, self.rng)
        started = time.process_time()
        move = await asyncio.to_thread(self.choose, state, self.rng)
        return Decision(move, {"cpu_s": round(time.process_time() - started, 6)})

    def describe(self) -> dict[str, Any]:
        out = {"spec": self.spec, "kind": "reference", "name": self.parsed.kind, "arg": self.parsed.n or None}
        if self.omniscient:
            out["omniscient"] = True
        return out
