"""Decision time of ``nmc:K`` (engine/tcg/nested.py) over the same mid-game positions as mc_decision.

The player runs on one core (its playouts play ``mc:2`` at every turn, so it
spends far more per playout than ``mc:K``); its first decision, which compiles
the loops (some seconds), is left out.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import numpy as np

from tcgtui import locales
from tcgtui.engine.tcg import TcgGame
from tcgtui.games.tcg.packs import load_pack
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.measure import Metric, PerfOptions
from tcgtui.games.tcg.perf._positions import midgame_positions

NAME = "nmc_decision"
ORDER = 21
SPECS = ("nmc:100", "nmc:300")


async def _times(spec: str, positions, pack) -> list[float]:
    agent = make_agent(spec)
    out = []
    for i, state in enumerate([positions[0], *positions]):   # the first one compiles
        seat = state.current
        agent.start(SeatContext(seat, i, game=TcgGame(pack)))
        started = time.perf_counter()
        await agent.decide(state.observation(seat), [])
        out.append(time.perf_counter() - started)
    return out[1:]


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    pack = load_pack("community")
    positions = midgame_positions(pack, 5 if options.quick else 30, options.seed)
    sizes = ", ".join(f"{k}:{v}" for k, v in sorted(Counter(len(s.legal_moves()) for s in positions).items()))
    metrics = []
    for spec in SPECS:
        ms = np.array(asyncio.run(_times(spec, positions, pack))) * 1000
        note = text.t("perf_opponents.decision", spec=spec, positions=len(positions), sizes=sizes, workers=1)
        key = spec.replace(":", "_")
        metrics += [Metric(f"{key}_p50", float(np.percentile(ms, 50)), "ms", note),
                    Metric(f"{key}_p95", float(np.percentile(ms, 95)), "ms", note)]
    return metrics
