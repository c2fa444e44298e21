"""Decision time of search and reference players on each arena game's opening position.

Every game other than the card game (which has its own benchmarks) names the
players worth timing in ``GameSpec.tools.perf`` (e.g. mc:1000 and ab:8 on
an empty Connect Four board).  One core; the first decision of each player
is a warm-up (it compiles), the rest are timed.
"""

from __future__ import annotations

import asyncio
import time

import numpy as np

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.measure import Metric, PerfOptions

NAME = "arena_decisions"
ORDER = 25


async def _times(spec: str, game, repeats: int) -> list[float]:
    agent = make_agent(spec)
    out = []
    try:
        for i in range(repeats + 1):
            state = game.new_state(i)
            seat = state.current_player
            agent.start(SeatContext(seat, i, "en", game.public()))
            obs = state.observation(seat)
            agent.begin_turn(obs.turn)
            started = time.perf_counter()
            await agent.decide(obs, [])
            out.append(time.perf_counter() - started)
    finally:
        await agent.aclose()
    return out[1:]


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    metrics = []
    for spec in registry.games():
        for player in spec.tools.perf:
            game = spec.game()
            ms = np.array(asyncio.run(_times(player, game, 3 if options.quick else 10))) * 1000
            note = text.t("perf_opponents.arena_decision", spec=player, game=spec.id, n=len(ms))
            key = f"{spec.id}_{player.replace(':', '_')}"
            metrics += [Metric(f"{key}_p50", float(np.percentile(ms, 50)), "ms", note),
                        Metric(f"{key}_max", float(ms.max()), "ms", note)]
    return metrics
