"""Reference players: strong, non-search policies a game provides (``perfect``, ``ab:D``).

The policy is the game's (pure rules knowledge, in its engine package); this
agent only feeds it a state rebuilt from the seat's observation, so a
reference never sees more than its seat does, and runs it in a thread so a
deep search never blocks the screen.

Given a time budget (the TUI's, while a person waits; ``Budget``), a reference
whose game offers it ``anytime`` plays that instead: it works until the budget
is spent and answers from what it completed (the deepest finished depth of
``ab:D``), and the decision records the budget and whether it cut the work
(``budget_cut``, ``done`` of ``asked``).  The bench gives none: full depth.

A reference that decides on the game's compiled search (``Reference.fast``)
is, while the TUI still loads that (``compiled`` not set: a new install's
compile), stood in for by flat Monte Carlo on the game's interim path within
the budget, and the decision says so (``stand_in``), so nobody waits for a
compile.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from tcgtui import locales
from tcgtui.engine.core import Event
from tcgtui.engine.protocols import protocol_of
from tcgtui.errors import OptionError
from tcgtui.opponents.base import Agent, AgentError, Decision, SeatContext, game_of
from tcgtui.opponents.search import Budget
from tcgtui.opponents.spec import AgentSpec

STAND_IN_K = 1000  # the stand-in's playouts per move (``mc:1000``), cut by the budget


class ReferenceAgent(Agent):
    def __init__(self, spec: AgentSpec, budget: Budget | None = None, compiled: threading.Event | None = None) -> None:
        self.parsed = spec
        self.spec = str(spec)
        self.budget = budget
        self.compiled = compiled  # None: the compiled path may be loaded at any time

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.game = game_of(ctx, self.spec)
        ref = self.game.spec.reference(self.parsed.kind)
        if ref is None:
            raise ValueError(f"{self.spec} cannot play {self.game.name}")
        if ref.protocol and protocol_of(self.game.setup()) != ref.protocol:
            raise OptionError(locales.load().t("arena.protocol_opponent", spec=self.spec, protocol=ref.protocol))
        self.choose = ref.policy(self.game, self.parsed.n or None)
        self.anytime = (
            ref.anytime(self.game, self.parsed.n or None)
            if self.budget is not None and ref.anytime is not None
            else None
        )
        self.omniscient = ref.sees_state
        self._true_state: Any = None
        self.stand_in: Agent | None = None
        if ref.fast and self.compiled is not None:
            # a stand-in is built only where the compiled path may still be loading (the TUI)
            from tcgtui.opponents.montecarlo import MonteCarloAgent

            self.stand_in = MonteCarloAgent(STAND_IN_K, compiled=self.compiled, interim_budget=self.budget)
            self.stand_in.start(ctx)

    def see_state(self, state: Any) -> None:
        self._true_state = state

    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        if self.stand_in is not None and not self.compiled.is_set():  # type: ignore[union-attr]
            decision = await self.stand_in.decide(obs, events)
            return Decision(decision.move, {**decision.info, "stand_in": self.stand_in.spec})
        if self.omniscient:
            state, self._true_state = self._true_state, None
            if state is None:
                raise AgentError(f"{self.spec} needs the true state, and this runner did not hand it over")
        else:
            state = self.game.resample(obs, self.rng)
        started = time.process_time()
        if self.anytime is None or self.budget is None:
            move = await asyncio.to_thread(self.choose, state, self.rng)
            return Decision(move, {"cpu_s": round(time.process_time() - started, 6)})
        self.budget.start()
        move, done, asked = await asyncio.to_thread(self.anytime, state, self.rng, self.budget.spent)
        return Decision(move, {"cpu_s": round(time.process_time() - started, 6), **self.budget.describe(done, asked)})

    def describe(self) -> dict[str, Any]:
        out = {"spec": self.spec, "kind": "reference", "name": self.parsed.kind, "arg": self.parsed.n or None}
        if self.omniscient:
            out["omniscient"] = True
        return out
