"""Decision time of the search opponents over a fixed set of mid-game positions.

mc:1000 with re-dealing on (the paper's hardest level; the public engine needs
about 3.3 s for one such decision with 4 cards in hand), and mcts:4000, which
spends about the same number of playouts.  ``--workers N`` gives each agent N
threads (the kernels release the GIL).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import numpy as np

from tcgtui import locales
from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.games.tcg.packs import load_pack
from tcgtui.measure import Metric, PerfOptions
from tcgtui.games.tcg.perf._positions import midgame_positions

NAME = "mc_decision"
ORDER = 20
SPECS = ("mc:1000", "mcts:4000")


async def _times(spec: str, positions, pack, workers: int) -> list[float]:
    agent = make_agent(spec, workers=workers)
    out = []
    try:
        for i, state in enumerate([positions[0], *positions]):   # the first one warms up
            seat = state.current
            agent.start(SeatContext(seat, i, game=TcgGame(pack)))
            obs = state.observation(seat)
            started = time.perf_counter()
            await agent.decide(obs, [])
            out.append(time.perf_counter() - started)
    finally:
        await agent.aclose()
    return out[1:]


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    pack = load_pack("community")
    positions = midgame_positions(pack, 10 if options.quick else 60, options.seed)
    hands = [len(s.legal_moves()) for s in positions]
    sizes = ", ".join(f"{k}:{v}" for k, v in sorted(Counter(hands).items()))
    metrics = []
    for spec in SPECS:
        ms = np.array(asyncio.run(_times(spec, positions, pack, options.workers))) * 1000
        note = text.t("perf_opponents.decision", spec=spec, positions=len(positions), sizes=sizes,
                      workers=options.workers)
        key = spec.replace(":", "_")
        metrics += [Metric(f"{key}_p50", float(np.percentile(ms, 50)), "ms", note),
                    Metric(f"{key}_p95", float(np.percentile(ms, 95)), "ms", note)]
        four = ms[np.array(hands) == 4]
        if len(four):
            metrics.append(Metric(f"{key}_p50_4_cards", float(np.median(four)), "ms",
                                  text.t("perf_opponents.decision_four", spec=spec, positions=len(four))))
    return metrics
