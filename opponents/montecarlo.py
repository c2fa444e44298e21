"""``mc:K``: the paper's flat Monte Carlo opponent, played honestly.

For each legal move, K playouts: re-deal what this seat cannot see (the
opponent's hand and face-down tricks, both deck orders, future shuffles),
play the move, then uniformly random moves for both players to the end.  The
move with the best score (a win 1, a draw 1/2) is played; ties go to the
agent's seeded RNG, so a game replays from its seed.

``mc:K:peek`` is the public engine's omniscient variant, kept for comparison:
it is handed a clone of the true state before each decision (see
``Agent.omniscient``) and plays out from it.  Unlike that engine, it does
play the evaluated card.
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import Any

import numpy as np

from tcgtui.engine.core import Event
from tcgtui.engine.tcg.fast.encode import encode_observation, encode_state
from tcgtui.engine.tcg.fast.layout import compile_pack
from tcgtui.engine.tcg.observation import TcgObservation
from tcgtui.engine.tcg.state import TcgState
from tcgtui.opponents.base import Agent, AgentError, Decision, SeatContext
from tcgtui.opponents.tasks import DRAW, WIN, PlayoutBatch, run_playouts
from tcgtui.opponents.search import BATCH_PLAYOUTS, Progress, Workers, run_batches, split
from tcgtui.opponents.spec import AgentSpec


def best_moves(moves: list[str], scores: list[float]) -> list[str]:
    top = max(scores)
    return [m for m, s in zip(moves, scores) if s == top]


class MonteCarloAgent(Agent):
    """Flat Monte Carlo with K playouts per legal move."""

    def __init__(self, k: int, *, peek: bool = False, executor: Executor | None = None,
                 workers: int = 1) -> None:
        if k < 1:
            raise ValueError(f"K must be 1 or more, got {k}")
        self.k = k
        self.peek = peek
        self.omniscient = peek
        self.spec = str(AgentSpec("mc", k, peek=peek))
        self.workers = Workers(executor, workers)
        self.progress = Progress()
        self._true_state: np.ndarray | None = None

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.program = compile_pack(ctx.pack)
        self._true_state = None

    def see_state(self, state: TcgState) -> None:
        self._true_state = encode_state(state, self.program)

    async def decide(self, obs: TcgObservation, events: list[Event]) -> Decision:
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return Decision(moves[0], {"playouts": 0})
        if self.peek:
            if self._true_state is None:
                raise AgentError(f"{self.spec} needs the true state, and this runner did not hand it over")
            base, self._true_state = self._true_state, None
        else:
            base = encode_observation(obs, self.program)
        seed = self.rng.getrandbits(63)
        index = np.array([self.program.card_ids.index(m) for m in moves], dtype=np.int64)
        parts = max(self.workers.workers, math.ceil(self.k * len(moves) / BATCH_PLAYOUTS))
        ranges = split(self.k, parts)
        tasks = [PlayoutBatch(self.program.code, base, not self.peek, obs.seat, index, first, count, seed)
                 for first, count in ranges]
        results = await run_batches(run_playouts, tasks, self.workers.executor, self.progress,
                                    [count * len(moves) for _, count in ranges])
        tally = np.sum(results, axis=0)
        scores = [(int(t[WIN]) + 0.5 * int(t[DRAW])) / self.k for t in tally]
        tied = best_moves(moves, scores)
        move = tied[0] if len(tied) == 1 else self.rng.choice(tied)
        return Decision(move, {"playouts": self.k * len(moves), "tied": len(tied),
                               "scores": {m: round(s, 4) for m, s in zip(moves, scores)}})

    def describe(self) -> dict[str, Any]:
        return {"spec": self.spec, "kind": "mc", "k": self.k,
                "redeal": not self.peek, "omniscient": self.peek,
                "rollout": "uniform random moves for both players", "score": "win 1, draw 1/2",
                **self.workers.describe()}

    async def aclose(self) -> None:
        self.workers.close()
