"""``mcts:N``: information-set MCTS, the "stronger baseline" the paper leaves for later.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree over
this seat's information set, N iterations per decision, each on a fresh
re-deal of the hidden cards; selection by UCB1 with availability counts among
the moves legal in that deal; random playouts.  The most visited move is
played; ties go to the agent's seeded RNG.  With several workers, each grows
its own tree on a share of the iterations and the root counts are summed
(root parallelisation).

A game with a compiled accelerator that grows trees (the card game's) runs
there; every other game with a move list runs the same algorithm through the
core API (``Game.resample`` for the re-deal; in a game of perfect information
it is plain UCT).  While the compiled path compiles (``compiled`` not set yet),
the tree grows through the core API, with the game's interim playouts where it
has them (``GameSpec.interim``): the same N, the same algorithm, no wait.
There the TUI gives a time budget (``interim_budget``): once it is spent the
tree stops growing and its most visited move is played; the decision records
the budget and the iterations done of the N asked.  The bench gives none.
"""

from __future__ import annotations

import asyncio
import math
import random
import threading
from concurrent.futures import Executor
from typing import Any

import numpy as np

from tcgtui.engine.core import Event, Game
from tcgtui.opponents.base import Agent, Decision, SeatContext, game_of, refuse_other_rules
from tcgtui.opponents.montecarlo import best_moves, compiled_ready, random_playout, score_of
from tcgtui.opponents.search import (
    BATCH_PLAYOUTS,
    BUDGET_CORE_UNITS,
    BUDGET_UNITS,
    Budget,
    Progress,
    Workers,
    growing,
    is_cheap,
    run_batches,
    split,
)
from tcgtui.opponents.spec import AgentSpec

EXPLORE = 0.7  # UCB1's constant for rewards in [0, 1], about 1/sqrt(2)


class ISMCTSAgent(Agent):
    def __init__(
        self,
        iterations: int,
        *,
        executor: Executor | None = None,
        workers: int = 1,
        explore: float = EXPLORE,
        compiled: threading.Event | None = None,
        interim_budget: Budget | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"N must be 1 or more, got {iterations}")
        self.iterations = iterations
        self.explore = explore
        self.spec = str(AgentSpec("mcts", iterations))
        self.workers = Workers(executor, workers)
        self.compiled = compiled  # None: the compiled path may be loaded at any time
        self.interim_budget = interim_budget  # a decision's time budget while on the interim path
        self.progress = Progress()

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.game = game_of(ctx, self.spec)
        refuse_other_rules(self.spec, self.game)
        self._loaded = False  # the compiled path loads at the first decision, off the event loop

    def _load(self) -> None:
        """Import (so compile, or load from numba's cache) the game's compiled path, in a thread;
        until ``compiled`` is set, the interim playouts stand in and loading is tried again next time."""
        spec = self.game.spec
        ready = compiled_ready(self.compiled)
        make = spec.fast if ready else spec.interim
        fast = make() if make is not None else None
        self.fast = fast if fast is not None and hasattr(fast, "Tree") else None
        self.rollouts = fast if fast is not None and self.fast is None else None  # playouts only
        if fast is not None:
            self.program = fast.prepare(self.game)
        self._loaded = ready

    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return Decision(moves[0], {"iterations": 0})
        budget = self.interim_budget if not compiled_ready(self.compiled) else None
        if budget is not None:
            budget.start()  # loading the interim path counts: the person waits for it too
        if not self._loaded:
            await asyncio.to_thread(self._load)
        if self._loaded:
            budget = None  # the compiled path was ready after all: the whole N, as in the bench
        seed = self.rng.getrandbits(63)
        if self.fast is None:
            tree = UctTree(
                self.game, obs, seed, self.explore, self.rollouts, self.program if self.rollouts is not None else None
            )
            if budget is None:
                ranges = split(self.iterations, math.ceil(self.iterations / (BATCH_PLAYOUTS // 8)))
            elif self.rollouts is not None:
                ranges = growing(self.iterations, BUDGET_UNITS, BATCH_PLAYOUTS // 8)
            else:
                ranges = growing(self.iterations, BUDGET_CORE_UNITS, BUDGET_CORE_UNITS)
            await run_batches(
                lambda r: tree.grow(r[1]), ranges, None, self.progress, [count for _, count in ranges], budget=budget
            )
            root = tree.root(moves)
            path = {} if self._loaded else {"interim": True}
            if budget is not None:
                path.update(budget.describe(tree.done, self.iterations))
            return self._choose(moves, root, path, tree.done)
        Tree, TreeTask, run_tree = self.fast.Tree, self.fast.TreeTask, self.fast.run_tree
        code = self.program.code
        base = self.fast.encode(self.program, obs)
        index = self.fast.move_index(self.program, obs, moves)
        executor = self.workers.executor
        if executor is None:
            tree = Tree(code, base, self.iterations, seed, self.explore)
            ranges = split(self.iterations, math.ceil(self.iterations / (BATCH_PLAYOUTS // 2)))
            units = [count for _, count in ranges]
            await run_batches(
                lambda r: tree.grow(r[1]), ranges, None, self.progress, units, inline=is_cheap(units, True)
            )
            root = tree.root(obs.seat, index)
        else:
            shares = split(self.iterations, self.workers.workers)
            tasks = [
                TreeTask(code, base, obs.seat, index, count, seed ^ t, self.explore)
                for t, (_, count) in enumerate(shares)
            ]
            units = [count for _, count in shares]
            root = np.sum(
                await run_batches(run_tree, tasks, executor, self.progress, units, inline=is_cheap(units, True)), axis=0
            )
        return self._choose(moves, root)

    def _choose(
        self, moves: list[Any], root: np.ndarray, path: dict[str, Any] | None = None, done: int | None = None
    ) -> Decision:
        visits = [float(v) for v in root[:, 0]]
        tied = best_moves(moves, visits)
        move = tied[0] if len(tied) == 1 else self.rng.choice(tied)
        return Decision(
            move,
            {
                "iterations": self.iterations if done is None else done,
                "tied": len(tied),
                **(path or {}),
                "visits": {m: int(v) for m, v in zip(moves, visits)},
                "scores": {m: round(r / v, 4) if v else None for m, (v, r) in zip(moves, root)},
            },
        )

    def describe(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "kind": "mcts",
            "iterations": self.iterations,
            "algorithm": "single-observer ISMCTS",
            "redeal": True,
            "omniscient": False,
            "explore": self.explore,
            "rollout": "uniform random moves for both players",
            **self.workers.describe(),
        }

    async def aclose(self) -> None:
        self.workers.close()


class UctTree:
    """Single-observer ISMCTS through the core API: a re-deal per iteration, UCB1 with
    availability counts over the moves legal in that deal, random playouts (on the game's
    compiled path when it has one: the move that expands the tree and the playout after it
    are one compiled playout from the mover's observation)."""

    def __init__(self, game: Game, obs: Any, seed: int, explore: float, fast: Any = None, prepared: Any = None) -> None:
        self.game, self.obs, self.seed, self.explore = game, obs, seed, explore
        self.fast, self.prepared = fast, prepared
        self.done = 0
        # node: move -> [visits, reward (from the mover's side), availability, children]
        self.children: dict[Any, list[Any]] = {}

    def grow(self, count: int) -> None:
        for i in range(self.done, self.done + count):
            self._iterate(random.Random(f"{self.seed}:{i}"), i)
        self.done += count

    def _expand_fast(self, state: Any, mover: int, move: Any, i: int) -> float:
        """One compiled playout after ``move``: the mover's score (win 1, draw 1/2)."""
        obs = state.observation(mover)
        moves = self.fast.move_index(self.prepared, obs, [move])
        tally = self.fast.playouts(self.prepared, self.fast.encode(self.prepared, obs), mover, moves, i, 1, self.seed)[
            0
        ]
        return 1.0 if tally[0] else 0.5 if tally[1] else 0.0

    def _iterate(self, rng: random.Random, i: int) -> None:
        state = self.game.resample(self.obs, rng)
        node, path = self.children, []
        while not state.is_terminal():
            legal = state.legal_moves()
            mover = state.current_player
            for m in legal:
                node.setdefault(m, [0, 0.0, 0, {}])[2] += 1
            untried = [m for m in legal if node[m][0] == 0]
            if untried:
                move = rng.choice(untried)
                path.append((node[move], mover))
                if self.fast is not None:
                    score = self._expand_fast(state, mover, move, i)
                    for stats, who in path:
                        stats[0] += 1
                        stats[1] += score if who == mover else 1.0 - score
                    return
                state.apply(move)
                break
            move = max(
                legal,
                key=lambda m: node[m][1] / node[m][0] + self.explore * math.sqrt(math.log(node[m][2]) / node[m][0]),
            )
            path.append((node[move], mover))
            state.apply(move)
            node = node[move][3]
        end = random_playout(state, rng)
        for stats, mover in path:
            stats[0] += 1
            stats[1] += score_of(end, mover)

    def root(self, moves: list[Any]) -> np.ndarray:
        return np.array(
            [[self.children.get(m, [0, 0.0])[0], self.children.get(m, [0, 0.0])[1]] for m in moves], dtype=float
        )
