"""``mcts:N``: information-set MCTS, the "stronger baseline" the paper leaves for later.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over
this seat's information set, N iterations per decision, each on a fresh
re-deal of the hidden cards; selection by UCB1 with availability counts among
the moves legal in that deal; random playouts.  The most visited move is
played; ties go to the agent's seeded RNG.  With several workers, each grows
its own tree on a share of the iterations and the root counts are summed
(root parallelisation).
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import Any

import numpy as np

from tcgtui.engine.core import Event
from tcgtui.engine.tcg.fast.encode import encode_observation
from tcgtui.engine.tcg.fast.layout import compile_pack
from tcgtui.engine.tcg.observation import TcgObservation
from tcgtui.opponents.base import Agent, Decision, SeatContext
from tcgtui.opponents.tasks import Tree, TreeTask, run_tree
from tcgtui.opponents.montecarlo import best_moves
from tcgtui.opponents.search import BATCH_PLAYOUTS, Progress, Workers, run_batches, split
from tcgtui.opponents.spec import AgentSpec

EXPLORE = 0.7   # UCB1's constant for rewards in [0, 1], about 1/sqrt(2)


class ISMCTSAgent(Agent):
    def __init__(self, iterations: int, *, executor: Executor | None = None, workers: int = 1,
                 explore: float = EXPLORE) -> None:
        if iterations < 1:
            raise ValueError(f"N must be 1 or more, got {iterations}")
        self.iterations = iterations
        self.explore = explore
        self.spec = str(AgentSpec("mcts", iterations))
        self.workers = Workers(executor, workers)
        self.progress = Progress()

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.program = compile_pack(ctx.pack)

    async def decide(self, obs: TcgObservation, events: list[Event]) -> Decision:
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return Decision(moves[0], {"iterations": 0})
        code = self.program.code
        base = encode_observation(obs, self.program)
        seed = self.rng.getrandbits(63)
        index = np.array([self.program.card_ids.index(m) for m in moves], dtype=np.int64)
        executor = self.workers.executor
        if executor is None:
            tree = Tree(code, base, self.iterations, seed, self.explore)
            ranges = split(self.iterations, math.ceil(self.iterations / (BATCH_PLAYOUTS // 2)))
            await run_batches(lambda r: tree.grow(r[1]), ranges, None, self.progress,
                              [count for _, count in ranges])
            root = tree.root(obs.seat, index)
        else:
            shares = split(self.iterations, self.workers.workers)
            tasks = [TreeTask(code, base, obs.seat, index, count, seed ^ t, self.explore)
                     for t, (_, count) in enumerate(shares)]
            root = np.sum(await run_batches(run_tree, tasks, executor, self.progress,
                                            [count for _, count in shares]), axis=0)
        visits = [float(v) for v in root[:, 0]]
        tied = best_moves(moves, visits)
        move = tied[0] if len(tied) == 1 else self.rng.choice(tied)
        return Decision(move, {
            "iterations": self.iterations, "tied": len(tied),
            "visits": {m: int(v) for m, v in zip(moves, visits)},
            "scores": {m: round(r / v, 4) if v else None for m, (v, r) in zip(moves, root)}})

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "mcts", "iterations": self.iterations,
                "algorithm": "single-observer ISMCTS", "redeal": True, "omniscient": False,
                "explore": self.explore, "rollout": "uniform random moves for both players",
                **self.workers.describe()}

    async def aclose(self) -> None:
        self.workers.close()
